import Raster

/// Draws map snapshots from a ``VectorTileSource``: the vector map of the
/// view (``VectorMapRenderer``, in the source's style for the snapshot's look,
/// over-zoomed past the source's deepest level; its `symbol` layers left
/// out when the snapshot asks for `labels=none`), then the snapshot's paths
/// and markers, then the source's attribution, as every map here.
///
/// A tile that cannot be read ends the render with its ``VectorTileError``;
/// so does a view over ``limits``.
public struct VectorTileMapRenderer: MapRenderer {
    /// The tiles, styles and credit.
    public let source: VectorTileSource
    /// The source's name (the key of its tiles in the source's cache).
    public let sourceName: String
    /// The work one snapshot may cause.
    public var limits: VectorMapLimits

    /// A renderer drawing from `source` (named `sourceName`) within `limits`.
    public init(source: VectorTileSource, sourceName: String, limits: VectorMapLimits = .default) {
        self.source = source
        self.sourceName = sourceName
        self.limits = limits
    }

    /// Draws `options` framed by `viewport` (see `MapRenderer`).
    public func render(_ options: MapSnapshotOptions, in viewport: MapViewport, checkCancellation: () throws -> Void = {}) throws -> Bitmap {
        try render(options, in: viewport, cancellation: RenderCancellation(), checkCancellation: checkCancellation)
    }

    /// Draws as `render(_:in:checkCancellation:)`, ending soon after
    /// `cancellation` fires, also while a tile is awaited from a network.
    public func render(_ options: MapSnapshotOptions, in viewport: MapViewport, cancellation: RenderCancellation) throws -> Bitmap {
        try render(options, in: viewport, cancellation: cancellation, checkCancellation: cancellation.check)
    }

    private func render(_ options: MapSnapshotOptions, in viewport: MapViewport, cancellation: RenderCancellation,
                        checkCancellation: () throws -> Void) throws -> Bitmap {
        var style = source.style(for: options.style)
        if options.labels == .none {
            style.layers.removeAll { if case .symbol = $0.kind { return true } else { return false } }
        }
        var renderer = VectorMapRenderer(tiles: source.tiles, sourceName: sourceName, style: style, cache: source.cache, limits: limits)
        // Layers prepared for an earlier snapshot of this look are drawn again
        // as they were: every request makes a renderer, the source keeps them.
        renderer.preparedLayers = source.preparedLayers
        renderer.preparedStyle = source.preparedStyle(for: options.style, labels: options.labels)
        renderer.sprites = source.resources.sprites(forPixelRatio: options.scale)
        renderer.glyphs = source.resources.glyphs
        let camera = VectorMapCamera(center: viewport.center, zoom: viewport.zoom, width: options.width, height: options.height,
                                     scale: options.scale, bearing: viewport.bearing, pitch: viewport.pitch)
        // The camera's pixel size is the viewport's: both round width × scale.
        var canvas = Canvas(try renderer.snapshot(camera, cancellation: cancellation, checkCancellation: checkCancellation).bitmap)
        try checkCancellation()
        try MapOverlays.draw(options, viewport: viewport, on: &canvas, checkCancellation: checkCancellation)
        if !source.attribution.isEmpty && options.attribution == .corner {
            try MapAttribution.draw(source.attribution, on: &canvas, scale: options.scale, palette: options.style.palette)
        }
        return canvas.bitmap
    }
}
