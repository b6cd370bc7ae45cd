import Foundation
import ImageCodecs
import MapRendering
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `map://`'s default renderer: draws the snapshot with the `MapRenderer` the
/// URL asks for, the embedded world basemap (`BasemapRenderer`) or the tile
/// source it names (`TileMapRenderer`), and encodes it as the URL asks.
public struct MapSnapshotRenderer: Renderer {
    /// A renderer.
    public init() {}

    /// The map renderer for `map`: its tile source's, else the basemap's.
    func mapRenderer(for map: MapURL) throws -> any MapRenderer {
        guard let name = map.tiles else { return BasemapRenderer() }
        guard let source = MapTileSources.source(named: name) else {
            let known = MapTileSources.names
            throw URLParameterError(parameter: "tiles", reason: "names no registered tile source '\(name)'; registered: \(known.isEmpty ? "none" : known.joined(separator: ", "))")
        }
        let budget = ResourceBudget.current
        return TileMapRenderer(source: source, maximumTiles: budget.tiles, concurrentFetches: budget.concurrentTileFetches)
    }

    /// Draws and encodes `map`; its options were validated when it was made.
    public func render(_ map: MapURL, cancellation: RenderCancellation) throws -> RenderedImage {
        let bitmap: Bitmap
        do {
            bitmap = try mapRenderer(for: map).render(map.options, in: MapViewport(options: map.options), checkCancellation: cancellation.check)
        } catch let error as MapOptionError {
            throw URLParameterError(parameter: error.option, reason: error.reason)  // a view needing more tiles than the budget
        } catch let error as MapTileError {
            throw URLErrors.make(.resourceUnavailable, error.description, url: nil)
        }
        try cancellation.check()
        let data = try ImageEncoder.encode(bitmap, format: map.format, quality: map.quality, checkCancellation: cancellation.check)
        return RenderedImage(data: data, mimeType: map.format.mimeType)
    }
}
