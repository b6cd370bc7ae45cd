/// Why a vector tile or a PMTiles archive could not be read: a broad `kind`
/// to act on and a message naming the field, offset or limit at fault.
public struct VectorTileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The cases callers act on.
    public enum Kind: Equatable, Sendable, CaseIterable {
        /// The bytes end before the structure they describe does (a file or
        /// download cut short, a directory or tile past the end of the archive).
        case truncated
        /// The bytes break the format's rules (a bad magic number, wire type,
        /// command, index or checksum): the data is damaged or hostile.
        case corrupt
        /// Valid data in a variant not read here (a PMTiles version other
        /// than 3, brotli or zstd compression, an MVT layer version above 2).
        case unsupported
        /// Over one of the ``VectorTileLimits``: checked before the work.
        case limitExceeded
    }

    /// What kind of fault this is.
    public let kind: Kind
    /// What is wrong, in words a log line or a `URLError` can carry.
    public let message: String

    /// An error of `kind` described by `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// The same error with `context` (the tile or archive it came from) in front.
    func prefixed(_ context: String) -> VectorTileError {
        VectorTileError(kind, "\(context): \(message)")
    }
}
