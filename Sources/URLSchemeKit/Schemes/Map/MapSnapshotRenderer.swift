import Foundation
import ImageCodecs
import MapRendering
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `map://`'s default renderer: draws the snapshot with the `MapRenderer` the
/// URL asks for, the embedded world basemap (`BasemapRenderer`) or the tile
/// source it names in the environment (`TileMapRenderer` for raster tiles,
/// `VectorTileMapRenderer` for a PMTiles vector archive, within the budget's
/// `vectorSnapshot` limits), and encodes it as the URL asks.
public struct MapSnapshotRenderer: Renderer {
    /// A renderer.
    public init() {}

    /// The basemap's drawing: bump when the embedded data, the styles, the
    /// label font or the encoder defaults change what a URL draws.
    public var version: String { "map-2 " + OutputEncoding.version }

    /// The map renderer for `map`: its tile source's (raster or vector), else the basemap's.
    func mapRenderer(for map: MapURL, in context: RenderContext) throws -> any MapRenderer {
        guard let name = map.tiles else { return BasemapRenderer() }
        let sources = context.environment.tileSources
        if let source = sources.vectorSource(named: name) {
            return NamedVectorRenderer(name: name, renderer: VectorTileMapRenderer(source: source, sourceName: name, limits: context.budget.vectorSnapshot))
        }
        guard let source = sources.source(named: name) else {
            let known = sources.names
            throw URLParameterError(parameter: "tiles", reason: "names no registered tile source '\(name)'; registered: \(known.isEmpty ? "none" : known.joined(separator: ", "))")
        }
        return TileMapRenderer(source: source, maximumTiles: context.budget.tiles, concurrentFetches: context.budget.concurrentTileFetches)
    }

    /// Draws and encodes `map`; its options were validated when it was made,
    /// its cost is checked against the environment's budget here.
    public func render(_ map: MapURL, in context: RenderContext) throws -> RenderedImage {
        let points = map.options.paths.reduce(0) { $0 + $1.points.count }
        let pointBudget = context.budget.pathPoints
        guard points <= pointBudget else {
            throw URLParameterError(parameter: "path", reason: "has \(points) points in all; at most \(pointBudget) (ResourceBudget.pathPoints)")
        }
        let cancellation = context.cancellation
        // A view needing more tiles than the budget throws MapOptionError, a
        // tile that cannot be had MapTileError: URLErrors.converting reports them.
        let viewport = MapViewport(options: map.options)
        let bitmap = try mapRenderer(for: map, in: context).render(map.options, in: viewport, cancellation: cancellation)
        try cancellation.check()
        var image = try OutputEncoding.encode(bitmap, format: map.format, quality: map.quality, lossless: map.lossless, cancellation: cancellation)
        // A view with none of its tiles' data is still drawn, with the reason it is blank.
        if let name = map.tiles, let source = context.environment.tileSources.vectorSource(named: name) {
            image.warnings = source.coverageWarnings(for: viewport).map { "tile source '\(name)': \($0)" }
        }
        return image
    }
}

/// A vector map renderer whose errors name its tile source: "tile source
/// 'city': tile 14/9327/4742: …".
private struct NamedVectorRenderer: MapRenderer {
    let name: String
    let renderer: VectorTileMapRenderer

    func render(_ options: MapSnapshotOptions, in viewport: MapViewport, checkCancellation: () throws -> Void) throws -> Bitmap {
        try named { try renderer.render(options, in: viewport, checkCancellation: checkCancellation) }
    }

    func render(_ options: MapSnapshotOptions, in viewport: MapViewport, cancellation: RenderCancellation) throws -> Bitmap {
        try named { try renderer.render(options, in: viewport, cancellation: cancellation) }
    }

    private func named(_ body: () throws -> Bitmap) throws -> Bitmap {
        do {
            return try body()
        } catch let error as VectorTileError {
            throw VectorTileError(error.kind, "tile source '\(name)': \(error.message)")
        } catch MapTileError.unavailable(let tile, let reason) {
            throw MapTileError.unavailable(tile, "tile source '\(name)': \(reason)")
        }
    }
}
