import Foundation

/// A GeoJSON document cut into vector tiles on demand, as MapLibre's
/// `geojson` source cuts it with geojson-vt: features projected to Web
/// Mercator and simplified once (Douglas–Peucker, each vertex keeping the
/// distance that kept it), then per tile clipped to the tile and its
/// `buffer` (copies wrapped across the antimeridian), the vertices below
/// the zoom's `tolerance` dropped, lines and rings too small to see left
/// out, and the rest rounded to the tile's `extent`. Each tile has one layer,
/// ``layerName``, which the style's layers of the source draw.
///
///     let tiles = GeoJSONTiles(try GeoJSON(data: data))
///     let renderer = VectorMapRenderer(tiles: tiles, sourceName: "points", style: style)
public struct GeoJSONTiles: VectorTileProviding {
    /// The layer every tile holds: MapLibre's name for a GeoJSON tile's layer.
    public static let layerName = "_geojsonTileLayer"
    /// With ``GeoJSONTileOptions/lineMetrics``: the property holding the fraction
    /// of its whole line where a line piece starts (geojson-vt's name).
    public static let clipStartKey = "mapbox_clip_start"
    /// With ``GeoJSONTileOptions/lineMetrics``: the fraction where the piece ends.
    public static let clipEndKey = "mapbox_clip_end"

    /// How the document is cut.
    public let options: GeoJSONTileOptions
    /// Tiles exist from zoom 0 to the options' maximum zoom.
    public var zoomRange: ClosedRange<Int> { 0...options.maximumZoom }
    private let features: [GeoJSONProjectedFeature]

    /// The tiles of `document`, cut with `options`.
    public init(_ document: GeoJSON, options: GeoJSONTileOptions = GeoJSONTileOptions()) {
        var options = options
        options.maximumZoom = min(max(options.maximumZoom, 0), 24)
        options.extent = min(max(options.extent, 1), 1 << 16)
        options.buffer = options.buffer.isFinite ? min(max(options.buffer, 0), 512) : 128
        options.tolerance = options.tolerance.isFinite ? max(options.tolerance, 0) : 0.375
        self.options = options
        let tolerance = options.tolerance / (Double(1 << options.maximumZoom) * 512)
        let projected = document.features.flatMap { GeoJSONProjectedFeature.make($0, squaredTolerance: tolerance * tolerance) }
        features = Self.wrapped(projected, buffer: options.buffer / 512)
    }

    /// No metadata: the one layer is ``layerName``.
    public func metadata() throws -> [String: Any] { [:] }

    /// The tile at `tile`: nil outside the zoom range or the world, or when no feature reaches it.
    public func vectorTile(at tile: TileCoordinate, cancellation: RenderCancellation) throws -> VectorTile? {
        guard zoomRange.contains(tile.z), tile.x >= 0, tile.y >= 0, tile.x < 1 << tile.z, tile.y < 1 << tile.z else { return nil }
        let scale = Double(1 << tile.z)
        let buffer = options.buffer / 512
        var clipped = GeoJSONClipper.clip(features, (Double(tile.x) - buffer) / scale, (Double(tile.x) + 1 + buffer) / scale, .x)
        clipped = GeoJSONClipper.clip(clipped, (Double(tile.y) - buffer) / scale, (Double(tile.y) + 1 + buffer) / scale, .y)
        guard !clipped.isEmpty else { return nil }
        let tolerance = tile.z == options.maximumZoom ? 0 : options.tolerance / (scale * 512)
        var builder = GeoJSONTileLayerBuilder(extent: options.extent, scale: scale, tileX: Double(tile.x), tileY: Double(tile.y), tolerance: tolerance)
        builder.lineMetrics = options.lineMetrics
        for feature in clipped { builder.add(feature) }
        guard let layer = builder.layer(named: Self.layerName) else { return nil }
        return VectorTile(layers: [layer], skippedCount: 0)
    }

    /// `features` with copies of what lies within `buffer` of the antimeridian
    /// moved a world across, as geojson-vt wraps them.
    private static func wrapped(_ features: [GeoJSONProjectedFeature], buffer: Double) -> [GeoJSONProjectedFeature] {
        let left = GeoJSONClipper.clip(features, -1 - buffer, buffer, .x)
        let right = GeoJSONClipper.clip(features, 1 - buffer, 2 + buffer, .x)
        guard !left.isEmpty || !right.isEmpty else { return features }
        let center = GeoJSONClipper.clip(features, -buffer, 1 + buffer, .x)
        return GeoJSONClipper.shifted(left, by: 1) + center + GeoJSONClipper.shifted(right, by: -1)
    }
}
