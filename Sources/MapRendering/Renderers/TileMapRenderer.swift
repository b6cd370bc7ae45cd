import Foundation
import ImageCodecs
import Raster

/// Draws map snapshots from slippy-map raster tiles: the tiles covering the
/// view at the nearest tile zoom at or above the view's (scaled down to the
/// fractional zoom), x wrapped modulo 2^z so the antimeridian and views wider
/// than the world work, then the snapshot's paths and markers, then the
/// source's attribution. A tile that cannot be had or decoded ends the render
/// with `MapTileError` naming it: no snapshot is better than a wrong one.
public struct TileMapRenderer: Sendable {
    public let source: TileSource

    public init(source: TileSource) {
        self.source = source
    }

    public func render(_ options: MapSnapshotOptions, checkCancellation: () throws -> Void = {}) throws -> Bitmap {
        try options.validate()
        let viewport = MapViewport(options: options)
        var base = try Bitmap(width: viewport.pixelWidth, height: viewport.pixelHeight, fill: options.style.palette.water)
        for placed in tiles(for: viewport) {
            try checkCancellation()
            let bytes = try source.loader.tile(placed.source)
            let tile: Bitmap
            do {
                tile = try PNGDecoder(maximumPixelCount: 1024 * 1024).decode(Data(bytes))
            } catch {
                throw MapTileError.undecodable(placed.source, "\(error)")
            }
            // Round each edge, not each size, so neighbouring tiles meet exactly.
            let left = Int(placed.x.rounded()), top = Int(placed.y.rounded())
            let right = Int((placed.x + 256 * placed.scale).rounded()), bottom = Int((placed.y + 256 * placed.scale).rounded())
            guard right > left, bottom > top else { continue }
            let sized = tile.width == right - left && tile.height == bottom - top
                ? tile : try tile.resized(width: right - left, height: bottom - top)
            try base.composite(sized, at: left, top)
        }
        var canvas = Canvas(base)
        try checkCancellation()
        try MapOverlays.draw(options, viewport: viewport, on: &canvas, checkCancellation: checkCancellation)
        BasemapRenderer.drawAttribution(source.attribution, on: &canvas, scale: options.scale, palette: options.style.palette)
        return canvas.bitmap
    }

    /// A tile to fetch and where its top-left corner lands, at what scale.
    struct PlacedTile {
        var source: TileCoordinate
        var x: Double
        var y: Double
        var scale: Double
    }

    /// Every tile covering the view, in output pixels.
    func tiles(for viewport: MapViewport) -> [PlacedTile] {
        let z = min(source.maximumZoom, max(0, Int(viewport.zoom.rounded(.up))))
        let count = 1 << z
        // Output pixels per tile pixel.
        let scale = pow(2, viewport.zoom - Double(z)) * viewport.scale
        let center = WebMercator.project(latitude: viewport.center.latitude, longitude: viewport.center.longitude, zoom: Double(z))
        let halfWidth = Double(viewport.pixelWidth) / 2 / scale, halfHeight = Double(viewport.pixelHeight) / 2 / scale
        let firstColumn = Int(((center.x - halfWidth) / 256).rounded(.down)), lastColumn = Int(((center.x + halfWidth) / 256).rounded(.down))
        let firstRow = max(0, Int(((center.y - halfHeight) / 256).rounded(.down))), lastRow = min(count - 1, Int(((center.y + halfHeight) / 256).rounded(.down)))
        guard firstRow <= lastRow else { return [] }
        var placed: [PlacedTile] = []
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn {
                let wrapped = ((column % count) + count) % count
                placed.append(PlacedTile(source: TileCoordinate(z: z, x: wrapped, y: row),
                                         x: (Double(column * 256) - center.x) * scale + Double(viewport.pixelWidth) / 2,
                                         y: (Double(row * 256) - center.y) * scale + Double(viewport.pixelHeight) / 2,
                                         scale: scale))
            }
        }
        return placed
    }
}
