/// The fixed 127-byte header of a PMTiles v3 archive: where its sections
/// are, how they are compressed, what the tiles are and where they cover.
public struct PMTilesHeader: Equatable, Sendable {
    /// The header's size, which is also where the root directory usually starts.
    public static let size = 127

    /// Byte range of the root directory.
    public var rootDirectory: Range<UInt64>
    /// Byte range of the metadata JSON.
    public var metadata: Range<UInt64>
    /// Byte range of the leaf directories section.
    public var leafDirectories: Range<UInt64>
    /// Byte range of the tile data section.
    public var tileData: Range<UInt64>
    /// Tiles the directories address (0 when unknown).
    public var addressedTileCount: UInt64
    /// Directory entries pointing at tiles (0 when unknown).
    public var tileEntryCount: UInt64
    /// Distinct tile contents (0 when unknown).
    public var tileContentCount: UInt64
    /// Whether tile data is ordered by tile id.
    public var isClustered: Bool
    /// Compression of directories and metadata.
    public var internalCompression: PMTilesCompression
    /// Compression of each tile.
    public var tileCompression: PMTilesCompression
    /// Tile format: 1 MVT, 2 PNG, 3 JPEG, 4 WebP, 5 AVIF, 0 unknown.
    public var tileType: UInt8
    /// Zoom levels held.
    public var minZoom: Int, maxZoom: Int
    /// Bounds in degrees: west, south, east, north.
    public var bounds: (west: Double, south: Double, east: Double, north: Double)
    /// Suggested initial view.
    public var centerZoom: Int, centerLongitude: Double, centerLatitude: Double

    /// Equal when every field is.
    public static func == (lhs: PMTilesHeader, rhs: PMTilesHeader) -> Bool {
        lhs.rootDirectory == rhs.rootDirectory && lhs.metadata == rhs.metadata && lhs.leafDirectories == rhs.leafDirectories
            && lhs.tileData == rhs.tileData && lhs.addressedTileCount == rhs.addressedTileCount
            && lhs.tileEntryCount == rhs.tileEntryCount && lhs.tileContentCount == rhs.tileContentCount
            && lhs.isClustered == rhs.isClustered && lhs.internalCompression == rhs.internalCompression
            && lhs.tileCompression == rhs.tileCompression && lhs.tileType == rhs.tileType
            && lhs.minZoom == rhs.minZoom && lhs.maxZoom == rhs.maxZoom && lhs.bounds == rhs.bounds
            && lhs.centerZoom == rhs.centerZoom && lhs.centerLongitude == rhs.centerLongitude && lhs.centerLatitude == rhs.centerLatitude
    }

    /// Parses the first 127 bytes of an archive of `fileSize` bytes, checking
    /// the magic, the version and that every section lies inside the file.
    init(_ bytes: [UInt8], fileSize: UInt64) throws {
        guard bytes.count >= Self.size else {
            throw VectorTileError(.truncated, "the archive is \(bytes.count) bytes, shorter than the 127-byte PMTiles header")
        }
        guard bytes.starts(with: Array("PMTiles".utf8)) else {
            if bytes.starts(with: Array("SQLite format 3\0".utf8)) {
                throw VectorTileError(.unsupported, "an MBTiles (SQLite) file: MBTiles is not read; convert it once to PMTiles with "
                                      + "`pmtiles convert FILE.mbtiles FILE.pmtiles` (go-pmtiles, https://github.com/protomaps/go-pmtiles)")
            }
            throw VectorTileError(.corrupt, "the file does not start with the PMTiles magic number")
        }
        guard bytes[7] == 3 else {
            throw VectorTileError(.unsupported, "PMTiles version \(bytes[7]); version 3 is read")
        }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
        func i32(_ at: Int) -> Double {
            Double(Int32(bitPattern: (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) })) / 10_000_000
        }
        func section(_ at: Int, _ name: String) throws -> Range<UInt64> {
            let offset = u64(at), length = u64(at + 8)
            let (end, overflow) = offset.addingReportingOverflow(length)
            guard !overflow else { throw VectorTileError(.corrupt, "the \(name) section's offset \(offset) and length \(length) overflow") }
            guard end <= fileSize else {
                throw VectorTileError(.truncated, "the \(name) section (bytes \(offset)..<\(end)) runs past the end of the archive (\(fileSize) bytes): the file is truncated")
            }
            return offset..<end
        }
        rootDirectory = try section(8, "root directory")
        metadata = try section(24, "metadata")
        leafDirectories = try section(40, "leaf directories")
        tileData = try section(56, "tile data")
        guard !rootDirectory.isEmpty else { throw VectorTileError(.corrupt, "the root directory is empty") }
        addressedTileCount = u64(72)
        tileEntryCount = u64(80)
        tileContentCount = u64(88)
        isClustered = bytes[96] == 1
        guard let internalCodec = PMTilesCompression(rawValue: bytes[97]), let tiles = PMTilesCompression(rawValue: bytes[98]) else {
            throw VectorTileError(.corrupt, "compression codes \(bytes[97]) and \(bytes[98]) are not 0...4")
        }
        internalCompression = internalCodec
        tileCompression = tiles
        tileType = bytes[99]
        minZoom = Int(bytes[100])
        maxZoom = Int(bytes[101])
        bounds = (i32(102), i32(106), i32(110), i32(114))
        centerZoom = Int(bytes[118])
        centerLongitude = i32(119)
        centerLatitude = i32(123)
    }
}
