import Foundation
import ImageCodecs
import MapRendering
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `map://`'s default renderer: draws the snapshot from the embedded world
/// basemap (`BasemapRenderer`), or from the tile source the URL names
/// (`TileMapRenderer`), and encodes it as the URL asks.
public struct MapSnapshotRenderer: Renderer {
    private let basemap = BasemapRenderer()

    public init() {}

    public func render(_ map: MapURL, cancellation: RenderCancellation) throws -> RenderedImage {
        let bitmap: Bitmap
        do {
            if let name = map.tiles {
                guard let source = MapTileSources.source(named: name) else {
                    let known = MapTileSources.names
                    throw URLParameterError(parameter: "tiles", reason: "names no registered tile source '\(name)'; registered: \(known.isEmpty ? "none" : known.joined(separator: ", "))")
                }
                let budget = ResourceBudget.current
                let renderer = TileMapRenderer(source: source, maximumTiles: budget.tiles, concurrentFetches: budget.concurrentTileFetches)
                bitmap = try renderer.render(map.options, checkCancellation: cancellation.check)
            } else {
                bitmap = try basemap.render(map.options, checkCancellation: cancellation.check)
            }
        } catch let error as MapOptionError {
            throw URLParameterError(parameter: error.option, reason: error.reason)
        } catch let error as MapTileError {
            throw URLErrors.make(.resourceUnavailable, error.description, url: nil)
        }
        try cancellation.check()
        switch map.format {
        case .png:
            return RenderedImage(data: try PNGEncoder().encode(bitmap, checkCancellation: cancellation.check), mimeType: ImageFormat.png.mimeType)
        case .jpeg:
            return RenderedImage(data: try JPEGEncoder(quality: map.quality).encode(bitmap, checkCancellation: cancellation.check), mimeType: ImageFormat.jpeg.mimeType)
        }
    }
}
