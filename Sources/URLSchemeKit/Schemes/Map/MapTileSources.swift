import MapRendering

/// The tile sources `map://` URLs of one environment can name with
/// `tiles=NAME`: set in code (the URL carries only the name, never a server
/// address), a value each `URLSchemeKitEnvironment` holds.
///
/// ```swift
/// var sources = MapTileSources()
/// sources.register("streets", TileSource(
///     loader: HTTPTileLoader(template: "https://tiles.example/{z}/{x}/{y}.png", userAgent: "MyApp/1.0 (me@example.com)"),
///     attribution: "© Example contributors"))
/// let environment = URLSchemeKitEnvironment(tileSources: sources)
/// // map://?latitude=59.93&longitude=30.32&zoom=12&tiles=streets
/// ```
public struct MapTileSources: Sendable {
    /// Raster sources by name.
    public private(set) var raster: [String: TileSource] = [:]

    /// No sources: `map://` draws the embedded basemap only.
    public init() {}

    /// Makes `source` available as `tiles=name` (letters, digits, `-`, `_`).
    public mutating func register(_ name: String, _ source: TileSource) {
        raster[name] = source
    }

    /// Forgets a source.
    public mutating func remove(_ name: String) {
        raster[name] = nil
    }

    /// The source registered as `name`.
    public func source(named name: String) -> TileSource? {
        raster[name]
    }

    /// Every registered name, sorted.
    public var names: [String] { raster.keys.sorted() }

    /// True when no source is registered.
    public var isEmpty: Bool { raster.isEmpty }
}
