import MapRendering

/// The tile sources `map://` URLs of one environment can name with
/// `tiles=NAME`: set in code (the URL carries only the name, never a server
/// address), a value each `URLSchemeKitEnvironment` holds. A name is either a
/// raster source (PNG/JPEG tiles) or a vector one (a PMTiles archive drawn
/// with a MapLibre style); registering one replaces the other.
///
/// ```swift
/// var sources = MapTileSources()
/// sources.register("streets", TileSource(
///     loader: HTTPTileLoader(template: "https://tiles.example/{z}/{x}/{y}.png", userAgent: "MyApp/1.0 (me@example.com)"),
///     attribution: "© Example contributors"))
/// sources.register("city", try VectorTileSource.open(URL(fileURLWithPath: "city.pmtiles")))
/// let environment = URLSchemeKitEnvironment(tileSources: sources)
/// // map://?latitude=59.93&longitude=30.32&zoom=12&tiles=streets
/// // map://?latitude=59.93&longitude=30.32&zoom=15&tiles=city&style=dark
/// ```
public struct MapTileSources: Sendable {
    /// Raster sources by name.
    public private(set) var raster: [String: TileSource] = [:]
    /// Vector sources by name.
    public private(set) var vector: [String: VectorTileSource] = [:]

    /// No sources: `map://` draws the embedded basemap only.
    public init() {}

    /// Makes `source` available as `tiles=name` (letters, digits, `-`, `_`).
    public mutating func register(_ name: String, _ source: TileSource) {
        vector[name] = nil
        raster[name] = source
    }

    /// Makes the vector `source` available as `tiles=name`.
    public mutating func register(_ name: String, _ source: VectorTileSource) {
        raster[name] = nil
        vector[name] = source
    }

    /// Forgets a source.
    public mutating func remove(_ name: String) {
        raster[name] = nil
        vector[name] = nil
    }

    /// The raster source registered as `name`.
    public func source(named name: String) -> TileSource? {
        raster[name]
    }

    /// The vector source registered as `name`.
    public func vectorSource(named name: String) -> VectorTileSource? {
        vector[name]
    }

    /// Every registered name, raster and vector, sorted.
    public var names: [String] { Set(raster.keys).union(vector.keys).sorted() }

    /// True when no source is registered.
    public var isEmpty: Bool { raster.isEmpty && vector.isEmpty }
}
