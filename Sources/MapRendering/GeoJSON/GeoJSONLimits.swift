/// Bounds on the work one GeoJSON document may cause, checked as it is read,
/// so a hostile document (a gigabyte of coordinates, arrays nested ten thousand
/// deep, a million one-point features) is an error, not a hang or an allocation.
///
/// The document is held as a tree while read (about 25 bytes per byte of
/// coordinates at worst), then projected and cut into tiles, and every
/// position is drawn: measured end to end in a release build
/// (`maplibre-render-tests` on a planted suite), 4 MiB of positions refused
/// at the vertex limit and a line of 250 000 positions zigzagging across the
/// world drawn at zoom 2 each cost about 1 s and under 150 MB.
public struct GeoJSONLimits: Equatable, Sendable {
    /// Most bytes of the document. Default 4 MiB (as a style's).
    public var maximumByteCount: Int
    /// Deepest nesting of arrays and objects (a MultiPolygon's coordinates sit
    /// at depth 8 in a FeatureCollection; GeometryCollections and properties
    /// nest further). Default 32.
    public var maximumDepth: Int
    /// Most features (a bare geometry counts as one). Default 200 000.
    public var maximumFeatureCount: Int
    /// Most positions over every geometry. Default 250 000.
    public var maximumVertexCount: Int
    /// Most points a clustered source indexes (``GeoJSONClusterTiles``),
    /// checked before any is: each is indexed and clustered once per zoom up
    /// to the clustering zoom. Default 200 000.
    public var maximumClusterPointCount: Int

    /// Limits with the documented defaults, any of them overridden.
    public init(maximumByteCount: Int = 4 << 20, maximumDepth: Int = 32,
                maximumFeatureCount: Int = 200_000, maximumVertexCount: Int = 250_000,
                maximumClusterPointCount: Int = 200_000) {
        self.maximumByteCount = maximumByteCount
        self.maximumDepth = maximumDepth
        self.maximumFeatureCount = maximumFeatureCount
        self.maximumVertexCount = maximumVertexCount
        self.maximumClusterPointCount = maximumClusterPointCount
    }

    /// The defaults.
    public static let `default` = GeoJSONLimits()
}
