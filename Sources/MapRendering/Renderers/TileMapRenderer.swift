import Foundation
import ImageCodecs
import Raster

/// Draws map snapshots from slippy-map raster tiles: the tiles covering the
/// view at the nearest tile zoom at or above the view's (scaled down to the
/// fractional zoom), x wrapped modulo 2^z so the antimeridian and views wider
/// than the world work, then the snapshot's paths and markers, then the
/// source's attribution. A tile that cannot be had or decoded ends the render
/// with `MapTileError` naming it: no snapshot is better than a wrong one.
/// A bearing other than 0 (or 360) is refused (`MapOptionError` for `bearing`),
/// and so is a pitch other than 0 (for `pitch`).
///
/// Tiles carry their own labels, so place labels are not drawn over them.
public struct TileMapRenderer: MapRenderer {
    /// Where the tiles come from and whom to credit.
    public let source: TileSource
    /// The most tiles one snapshot may fetch; a view needing more is refused
    /// before any is fetched (`MapOptionError` for `tiles`).
    public var maximumTiles: Int
    /// Tiles fetched at once.
    public var concurrentFetches: Int
    /// The largest tile decoded, in pixels.
    public var maximumTilePixels: Int

    /// A renderer drawing from `source`, within these limits (`ResourceBudget`'s defaults).
    public init(source: TileSource, maximumTiles: Int = 400, concurrentFetches: Int = 8, maximumTilePixels: Int = 1024 * 1024) {
        self.source = source
        self.maximumTiles = maximumTiles
        self.concurrentFetches = concurrentFetches
        self.maximumTilePixels = maximumTilePixels
    }

    /// Draws `options` framed by `viewport` (see `MapRenderer`): tiles fetched
    /// `concurrentFetches` at a time and composited as they arrive.
    /// `checkCancellation` is called as each tile arrives and between layers;
    /// to end the render while tiles are awaited, use
    /// `render(_:in:cancellation:)`.
    public func render(_ options: MapSnapshotOptions, in viewport: MapViewport, checkCancellation: () throws -> Void = {}) throws -> Bitmap {
        try render(options, in: viewport, cancellation: RenderCancellation(), checkCancellation: checkCancellation)
    }

    /// Draws as `render(_:in:checkCancellation:)`; when `cancellation` fires
    /// (or the first tile fails) the render ends at once, without polling,
    /// and the fetches still in flight are cancelled.
    public func render(_ options: MapSnapshotOptions, in viewport: MapViewport, cancellation: RenderCancellation) throws -> Bitmap {
        try render(options, in: viewport, cancellation: cancellation, checkCancellation: cancellation.check)
    }

    private func render(_ options: MapSnapshotOptions, in viewport: MapViewport, cancellation: RenderCancellation,
                        checkCancellation: () throws -> Void) throws -> Bitmap {
        // Raster tiles are composited upright; turning them is not done yet.
        guard viewport.pitch == 0 else {
            throw MapOptionError(option: "pitch", reason: "tilts the embedded basemap and vector tiles; a raster tile source is drawn only at pitch 0, got \(MapSnapshotOptions.text(viewport.pitch))")
        }
        guard viewport.bearing.truncatingRemainder(dividingBy: 360) == 0 else {
            throw MapOptionError(option: "bearing", reason: "turns the embedded basemap and vector tiles; a raster tile source is drawn only at bearing 0, got \(MapSnapshotOptions.text(viewport.bearing))")
        }
        let cover = tiles(for: viewport)
        guard cover.count <= maximumTiles else {
            throw MapOptionError(option: "tiles", reason: "needs \(cover.count) tiles for this view; at most \(maximumTiles) may be fetched (ResourceBudget.tiles): make the map smaller or zoom out")
        }
        var base = try Bitmap(width: viewport.pixelWidth, height: viewport.pixelHeight, fill: options.style.palette.water)
        let placedTiles = Array(cover)
        try TileFetch(placedTiles.map(\.tile), loader: source.loader, concurrency: concurrentFetches).forEach(cancellation: cancellation) { index, bytes in
            try checkCancellation()
            let placed = placedTiles[index]
            let tile: Bitmap
            do {
                tile = try ImageDecoder.decode(Data(bytes), options: .init(maximumPixelCount: maximumTilePixels)).bitmap
            } catch {
                throw MapTileError.undecodable(placed.tile, "\(error)")
            }
            // Round each edge, not each size, so neighbouring tiles meet exactly.
            let left = Int(placed.x.rounded()), top = Int(placed.y.rounded())
            let right = Int((placed.x + cover.tileSide).rounded()), bottom = Int((placed.y + cover.tileSide).rounded())
            guard right > left, bottom > top else { return }
            let sized = tile.width == right - left && tile.height == bottom - top
                ? tile : try tile.resized(width: right - left, height: bottom - top)
            try base.composite(sized, at: left, top)
        }
        var canvas = Canvas(base)
        try checkCancellation()
        try MapOverlays.draw(options, viewport: viewport, on: &canvas, checkCancellation: checkCancellation)
        if options.attribution == .corner {
            try MapAttribution.draw(source.attribution, on: &canvas, scale: options.scale, palette: options.style.palette)
        }
        return canvas.bitmap
    }

    /// Every tile covering the view, at the source's zoom nearest above the view's.
    func tiles(for viewport: MapViewport) -> TileCover {
        let z = min(source.maximumZoom, max(0, Int(viewport.zoom.rounded(.up))))
        // Output pixels per tile pixel.
        let scale = pow(2, viewport.zoom - Double(z)) * viewport.scale
        let center = WebMercator.project(latitude: viewport.center.latitude, longitude: viewport.center.longitude, zoom: Double(z))
        return TileCover(zoom: z, tileSide: 256 * scale,
                         left: center.x * scale - Double(viewport.pixelWidth) / 2, top: center.y * scale - Double(viewport.pixelHeight) / 2,
                         pixelWidth: viewport.pixelWidth, pixelHeight: viewport.pixelHeight)
    }
}
