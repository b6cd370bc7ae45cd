/// How a GeoJSON source's points are clustered, as MapLibre asks supercluster
/// to cluster them (its `geojson` source's `cluster…` options, in its units).
///
///     var cluster = GeoJSONClusterOptions()
///     cluster.radius = 25
///     let tiles = try GeoJSONClusterTiles(document, cluster: cluster)
public struct GeoJSONClusterOptions: Equatable, Sendable {
    /// How near points merge, in pixels of a 512-pixel tile (`clusterRadius`).
    /// Default 50.
    public var radius: Double
    /// The deepest zoom points are clustered at (`clusterMaxZoom`); deeper, every
    /// point is drawn on its own. Nil: one less than the source's `maxzoom`, as MapLibre.
    public var maximumZoom: Int?
    /// The fewest points a cluster holds (`clusterMinPoints`, at least 2). Default 2.
    public var minimumPoints: Int
    /// Properties aggregated over each cluster's points (`clusterProperties`),
    /// in the order the style names them.
    public var properties: [GeoJSONClusterProperty]

    /// Options with MapLibre's defaults, any of them overridden.
    public init(radius: Double = 50, maximumZoom: Int? = nil, minimumPoints: Int = 2, properties: [GeoJSONClusterProperty] = []) {
        self.radius = radius
        self.maximumZoom = maximumZoom
        self.minimumPoints = minimumPoints
        self.properties = properties
    }
}
