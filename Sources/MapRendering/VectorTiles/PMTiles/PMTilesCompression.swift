import ImageCodecs

/// How a PMTiles archive compresses its directories and metadata (internal
/// compression) or its tiles (tile compression): header bytes 97 and 98.
public enum PMTilesCompression: UInt8, Sendable {
    /// Not stated (0): read as gzip when the bytes start with gzip's magic, else as stored.
    case unknown = 0
    /// Stored as is.
    case none = 1
    /// gzip (RFC 1952), inflated with `Inflater` (ImageCodecs).
    case gzip = 2
    /// brotli: not read here.
    case brotli = 3
    /// zstd: not read here.
    case zstd = 4

    /// `bytes` decompressed, at most `limit` bytes of output; `what` names the
    /// data in errors ("the root directory", "tile 14/9330/4742").
    func decompress(_ bytes: [UInt8], limit: Int, what: String) throws -> [UInt8] {
        let gzipped = self == .gzip || (self == .unknown && bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B)
        switch self {
        case .brotli, .zstd:
            throw VectorTileError(.unsupported, "\(what) is \(self == .brotli ? "brotli" : "zstd")-compressed; gzip and none are read")
        case .none, .unknown, .gzip:
            guard gzipped else {
                guard bytes.count <= limit else {
                    throw VectorTileError(.limitExceeded, "\(what) is \(bytes.count) bytes, over the limit of \(limit)")
                }
                return bytes
            }
            return try Self.inflating(what) { try Inflater.gzipDecompress(bytes, limit: limit) }
        }
    }

    /// The first bytes of gzipped `bytes` inflated: at least `count` (up to
    /// 4,096) when the data holds that many, inflating no further; nil when
    /// `bytes` are not gzipped (they are their own prefix). For reading a
    /// directory's entry count before inflating it whole.
    func inflatedPrefix(_ bytes: [UInt8], count: Int, what: String) throws -> [UInt8]? {
        let gzipped = self == .gzip || (self == .unknown && bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B)
        guard gzipped else { return nil }
        return try Self.inflating(what) { try Inflater.gzipPrefix(bytes, count: count) }
    }

    /// What `body` inflates, its `ImageCodecError` as a `VectorTileError` naming `what`.
    private static func inflating(_ what: String, _ body: () throws -> [UInt8]) throws -> [UInt8] {
        do {
            return try body()
        } catch let error as ImageCodecError {
            let kind: VectorTileError.Kind
            switch error.kind {
            case .truncated: kind = .truncated
            case .corrupt: kind = .corrupt
            case .unsupported: kind = .unsupported
            case .tooLarge: kind = .limitExceeded
            }
            throw VectorTileError(kind, "\(what): \(error.message)")
        }
    }
}
