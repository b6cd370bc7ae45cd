/// How a GeoJSON source is cut into tiles: MapLibre's `geojson` source
/// options, in its units (pixels of a 512-pixel tile), with its defaults.
public struct GeoJSONTileOptions: Equatable, Sendable {
    /// The deepest zoom tiles are made at (`maxzoom`, 0…24); deeper views
    /// draw this zoom's tiles larger, unsimplified. Default 18.
    public var maximumZoom: Int
    /// How far past its edges a tile keeps geometry, in pixels of a 512-pixel
    /// tile (`buffer`, 0…512), so lines and labels cross tile edges cleanly. Default 128.
    public var buffer: Double
    /// Douglas–Peucker tolerance in pixels of a 512-pixel tile (`tolerance`):
    /// higher is simpler and faster. Not applied at ``maximumZoom``. Default 0.375.
    public var tolerance: Double
    /// Tile coordinates across a tile. Default 8192, as MapLibre's tiles.
    public var extent: Int
    /// Whether each line piece in a tile says where it lies on its whole line
    /// (`lineMetrics`, which `line-gradient` needs): MultiLineStrings are cut
    /// into a feature per line, each piece a feature with the fractions of its
    /// line where it starts and ends (``GeoJSONTiles/clipStartKey``,
    /// ``GeoJSONTiles/clipEndKey``), as geojson-vt does. Default false.
    public var lineMetrics: Bool

    /// Options with MapLibre's defaults, any of them overridden.
    public init(maximumZoom: Int = 18, buffer: Double = 128, tolerance: Double = 0.375, extent: Int = 8192, lineMetrics: Bool = false) {
        self.lineMetrics = lineMetrics
        self.maximumZoom = maximumZoom
        self.buffer = buffer
        self.tolerance = tolerance
        self.extent = extent
    }
}
