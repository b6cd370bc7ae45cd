/// Bounds on the work one vector tile may cause, checked before the work:
/// a hostile tile or archive (a gzip bomb, ten million commands, a directory
/// tree that never ends) is an error, not a hang or an allocation.
///
/// The defaults are several times what real basemaps need: the heaviest
/// Protomaps/OpenMapTiles z14 tiles hold about 0.5 MB of protobuf,
/// 30 000 features and 400 000 vertices.
public struct VectorTileLimits: Equatable, Sendable {
    /// Most bytes of one tile as stored (compressed) in an archive. Default 8 MiB.
    public var compressedTileBytes: Int
    /// Most bytes of one tile after inflating, and of one inflated PMTiles
    /// directory. Default 32 MiB.
    public var inflatedTileBytes: Int
    /// Most features in one tile, over all its layers. Default 200 000.
    public var featuresPerTile: Int
    /// Most vertices (points) in one tile, over all its features. Default 4 000 000.
    public var verticesPerTile: Int
    /// Most bytes of a PMTiles archive's metadata JSON, inflated. Default 1 MiB.
    public var metadataBytes: Int
    /// Most directory levels below the root (PMTiles writers use one). Default 4.
    public var leafDirectoryDepth: Int
    /// Most bytes of parsed PMTiles directories one archive holds: its root
    /// and the leaf directories it keeps, each entry taking 24 bytes. A directory is
    /// refused before it is parsed when its entry count (the first varint)
    /// times that is over what the root leaves of it; leaves already kept are
    /// let go, oldest first, to make room. Default 32 MiB: about 1.4 million
    /// entries, where the PMTiles writers size a leaf at an archive's entry
    /// count / 3,500 (at least 4,096), so that the root fits in 16 KiB.
    public var directoryBytes: Int

    /// Limits with the documented defaults, any of them overridden.
    public init(compressedTileBytes: Int = 8 << 20, inflatedTileBytes: Int = 32 << 20,
                featuresPerTile: Int = 200_000, verticesPerTile: Int = 4_000_000,
                metadataBytes: Int = 1 << 20, leafDirectoryDepth: Int = 4, directoryBytes: Int = 32 << 20) {
        self.compressedTileBytes = compressedTileBytes
        self.inflatedTileBytes = inflatedTileBytes
        self.featuresPerTile = featuresPerTile
        self.verticesPerTile = verticesPerTile
        self.metadataBytes = metadataBytes
        self.leafDirectoryDepth = leafDirectoryDepth
        self.directoryBytes = directoryBytes
    }

    /// The defaults.
    public static let `default` = VectorTileLimits()
}
