/// Bounds on the work one GeoJSON document may cause, checked as it is read,
/// so a hostile document (a gigabyte of coordinates, arrays nested ten thousand
/// deep, a million one-point features) is an error, not a hang or an allocation.
///
/// The defaults hold a country's boundaries at full detail or a city's
/// buildings; the document is held as a tree while read, about 60 bytes per
/// byte of coordinates at worst, so the byte limit keeps a hostile document
/// under 300 MB.
public struct GeoJSONLimits: Equatable, Sendable {
    /// Most bytes of the document. Default 8 MiB.
    public var maximumByteCount: Int
    /// Deepest nesting of arrays and objects (a MultiPolygon's coordinates sit
    /// at depth 8 in a FeatureCollection; GeometryCollections and properties
    /// nest further). Default 32.
    public var maximumDepth: Int
    /// Most features (a GeometryCollection's members count once each). Default 200 000.
    public var maximumFeatureCount: Int
    /// Most positions over every geometry. Default 1 000 000.
    public var maximumVertexCount: Int

    /// Limits with the documented defaults, any of them overridden.
    public init(maximumByteCount: Int = 8 << 20, maximumDepth: Int = 32,
                maximumFeatureCount: Int = 200_000, maximumVertexCount: Int = 1_000_000) {
        self.maximumByteCount = maximumByteCount
        self.maximumDepth = maximumDepth
        self.maximumFeatureCount = maximumFeatureCount
        self.maximumVertexCount = maximumVertexCount
    }

    /// The defaults.
    public static let `default` = GeoJSONLimits()
}
