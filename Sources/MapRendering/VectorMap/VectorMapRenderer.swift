import Foundation
import Raster

/// Draws vector map snapshots: the tiles of one or several
/// ``VectorTileProviding`` sources (PMTiles archives, folders or URL templates
/// of tiles, ``GeoJSONTiles``), by the style's source names, covering a
/// ``VectorMapCamera``, styled by a ``VectorStyle``, anti-aliased.
///
/// Tiles come from the source's zoom nearest below the style zoom (MapLibre's
/// choice for 512-point tiles), capped to the source's zoom range: past its
/// maximum zoom the last level's geometry is drawn larger (over-zoom), so
/// lines keep the style's width and stay sharp. Layers draw in style order:
/// `background`, `fill` (colour, opacity, outline colour, translate) and
/// `line` (colour, width, opacity, gap-width casings, dashes, offset, caps,
/// joins) and `circle` (every paint property, as MapLibre's circle shader
/// draws them: `CircleLayerDrawer`), each within its zoom range and
/// visibility and through its filter.
/// `symbol` layers (labels, in the embedded DejaVu Sans whatever `text-font`
/// names) are placed after every fill and line, the top-most layer first as
/// in MapLibre, each dropped if it would overlap one placed before, and drawn
/// in style order (see `docs/vector-maps.md`).
/// A tile the source lacks is
/// left as background; a tile it cannot read ends the render with its
/// ``VectorTileError``.
///
///     let renderer = VectorMapRenderer(archive: archive, sourceName: "helsinki", style: style)
///     let bitmap = try renderer.render(VectorMapCamera(center: c, zoom: 15, width: 512, height: 512))
///
/// A style of several sources gets them by name, each read at its own zoom range:
///
///     let renderer = VectorMapRenderer(sources: ["roads": archive, "points": geojson.tiles(document)], style: style)
public struct VectorMapRenderer: Sendable {
    /// Where the tiles come from, by source name (also the key of their tiles
    /// in `cache`). A layer draws from the source its `source` names; when
    /// there is only one source, every layer draws from it whatever its
    /// `source` says (a style written for another archive of the same
    /// schema), and a layer whose source is not here draws nothing.
    public let sources: [String: any VectorTileProviding]
    /// The style drawn.
    public let style: VectorStyle
    /// Decoded tiles, shared between snapshots.
    public let cache: VectorTileCache
    /// The work one snapshot may cause.
    public var limits: VectorMapLimits
    /// The `raster`, `raster-dem` and `image` sources by their names in the
    /// style, drawn by its `raster` and `hillshade` layers (a layer whose
    /// source is missing here draws nothing).
    public var rasterSources: [String: MapRasterSource]
    /// The images `icon-image` names (none by default: no icon is drawn),
    /// e.g. `Sprites(of: style, pixelRatio: camera.scale, from: provider)`.
    public var sprites = Sprites()
    /// The style's glyph ranges (its `glyphs` URL read through a
    /// ``GlyphProviding``): point labels are then shaped, placed and drawn from
    /// them as MapLibre does. Nil (the default) draws labels in the embedded font.
    public var glyphs: GlyphCache?
    /// Whether a label may reach past the image's edges, as in MapLibre's
    /// views; false (the default) keeps labels whole inside the image, so map
    /// tiles drawn one by one never cut a label at their edges. Labels drawn from `glyphs` only.
    public var labelsCrossEdges = false
    /// Whether symbols of different sources collide with each other (MapLibre's
    /// map option `crossSourceCollisions`, true by default); false gives each
    /// source's symbols a collision index of their own.
    public var crossSourceCollisions = true
    /// The horizontal bands fills and strokes are drawn in, each on its own
    /// thread (see `BandedCanvas`): the active processors. Any count draws the same bytes.
    var bandCount = ProcessInfo.processInfo.activeProcessorCount
    /// Each drawn tile layer's features filtered and grouped by paint, per
    /// style layer and zoom, kept between this renderer's snapshots: its own,
    /// or its source's shared by every renderer drawing `style` from it
    /// (`VectorTileMapRenderer`, with `preparedStyle` telling its styles apart).
    var preparedLayers = PreparedLayerCache()
    /// The `style` of `preparedLayers`' keys: which style of those sharing it this is.
    var preparedStyle = 0

    /// A renderer drawing `style` from `sources`, keyed by the style's source
    /// names (and in `cache`), and its `raster`, `raster-dem` and `image`
    /// sources from `rasterSources`.
    public init(sources: [String: any VectorTileProviding], style: VectorStyle,
                cache: VectorTileCache = VectorTileCache(), limits: VectorMapLimits = .default,
                rasterSources: [String: MapRasterSource] = [:]) {
        self.sources = sources
        self.style = style
        self.cache = cache
        self.limits = limits
        self.rasterSources = rasterSources
    }

    /// A renderer drawing every vector layer of `style` from `tiles` (named
    /// `sourceName` in `cache`), and its picture layers from `rasterSources`.
    public init(tiles: any VectorTileProviding, sourceName: String, style: VectorStyle,
                cache: VectorTileCache = VectorTileCache(), limits: VectorMapLimits = .default,
                rasterSources: [String: MapRasterSource] = [:]) {
        self.init(sources: [sourceName: tiles], style: style, cache: cache, limits: limits, rasterSources: rasterSources)
    }

    /// A renderer drawing `archive` (named `sourceName` in `cache`) with `style`.
    public init(archive: PMTilesArchive, sourceName: String, style: VectorStyle,
                cache: VectorTileCache = VectorTileCache(), limits: VectorMapLimits = .default) {
        self.init(tiles: archive, sourceName: sourceName, style: style, cache: cache, limits: limits)
    }

    /// Draws the view of `camera`. Throws `MapOptionError` for a camera out of
    /// range, ``VectorTileError`` (`limitExceeded`) for a view over ``limits``
    /// and for an archive or tile that cannot be read.
    public func render(_ camera: VectorMapCamera, checkCancellation: () throws -> Void = {}) throws -> Bitmap {
        try snapshot(camera, checkCancellation: checkCancellation).bitmap
    }

    /// Draws the view of `camera` (see ``render(_:checkCancellation:)``),
    /// ending soon after `cancellation` fires, also while a tile is awaited
    /// from a network.
    public func render(_ camera: VectorMapCamera, cancellation: RenderCancellation) throws -> Bitmap {
        try snapshot(camera, cancellation: cancellation, checkCancellation: cancellation.check).bitmap
    }

    /// Draws the view of `camera` (see ``render(_:checkCancellation:)``) and
    /// gives the labels placed on it.
    func snapshot(_ camera: VectorMapCamera, cancellation: RenderCancellation = RenderCancellation(),
                  checkCancellation: () throws -> Void = {}) throws -> (bitmap: Bitmap, labels: [VectorMapLabel]) {
        try camera.validate()
        let zoom = camera.styleZoom
        // Each shown layer evaluated at the zoom, with its index in the style (its key in `preparedLayers`).
        let shown = style.layers.indices.filter { style.layers[$0].isShown(atZoom: zoom) }
        let layers = shown.map { style.layers[$0].atZoom(zoom) }
        // Each source a shown layer draws from, its tiles covering the view at its own zoom.
        var frames: [String: VectorMapFrame] = [:]
        for name in Set(layers.compactMap(sourceName(of:))).sorted() {
            frames[name] = VectorMapFrame(camera: camera, zoomRange: sources[name]!.zoomRange)
            let needed = frames.values.reduce(0) { $0 + $1.cover.count }
            guard needed <= limits.tilesPerSnapshot else {
                throw VectorTileError(.limitExceeded, "the view needs \(needed) tiles at zoom \(frames[name]!.tileZoom)\(frames.count > 1 ? " (of \(frames.count) sources)" : ""), over the limit of \(limits.tilesPerSnapshot) per snapshot")
            }
        }
        var tiles: [String: [(tile: VectorTile, place: TileCover.Placed)]] = [:]
        for (name, frame) in frames.sorted(by: { $0.key < $1.key }) {
            tiles[name] = try loadTiles(Array(frame.cover), of: name, cancellation: cancellation, checkCancellation: checkCancellation)
        }
        try checkBudget(tiles, layers: layers)
        var bands = try BandedCanvas(width: camera.pixelWidth, height: camera.pixelHeight, bandCount: bandCount)
        // The style in runs of other layers, each followed by the symbol layers above it:
        // symbols are drawn where the style puts them, under the layers above them.
        var runs: [(painted: [(index: Int, layer: StyleLayer)], symbols: Set<String>)] = [([], [])]
        var symbolLayers: [StyleLayer] = []
        for (index, layer) in zip(shown, layers) {
            if case .symbol = layer.kind {
                symbolLayers.append(layer)
                runs[runs.count - 1].symbols.insert(layer.id)
            } else {
                if !runs[runs.count - 1].symbols.isEmpty { runs.append(([], [])) }
                runs[runs.count - 1].painted.append((index, layer))
            }
        }
        // Symbols are placed before any is drawn: MapLibre places the top-most
        // symbol layer first (the last in the style wins), each icon with its text.
        var icons: SymbolIconPlacer?
        if !sprites.images.isEmpty, !symbolLayers.isEmpty {
            icons = SymbolIconPlacer(sprites: sprites, scale: camera.scale, zoom: zoom, width: camera.pixelWidth,
                                     height: camera.pixelHeight, limits: limits, glyphs: glyphs)
        }
        var placer = VectorLabelPlacer(font: try TrueTypeFont.dejaVuSans, scale: camera.scale, zoom: zoom,
                                       width: camera.pixelWidth, height: camera.pixelHeight, limits: limits,
                                       glyphs: glyphs, labelsCrossEdges: labelsCrossEdges, icons: icons,
                                       crossSourceCollisions: crossSourceCollisions)
        for layer in symbolLayers.reversed() {
            try checkCancellation()
            try placer.place(layer, from: sourceName(of: layer).flatMap { tiles[$0] } ?? [], checkCancellation: checkCancellation)
        }
        // Layers are recorded a chunk at a time (bounding the geometry held),
        // the chunk's layers on every core, then drawn in style order. What
        // lines generate is charged to one budget for the whole snapshot.
        let budget = GeneratedGeometryBudget(limit: limits.generatedGeometryPerSnapshot)
        let extrusionLayers = zip(shown, layers).filter { if case .fillExtrusion = $0.1.kind { true } else { false } }.map { (index: $0.0, layer: $0.1) }
        for (number, run) in runs.enumerated() {
            var start = 0
            while start < run.painted.count {
                try checkCancellation()
                let chunk = Array(run.painted[start..<min(run.painted.count, start + Self.layersPerChunk)])
                for recording in record(chunk, of: tiles, camera: camera, extrusions: extrusionLayers, budget: budget, cancellation: cancellation) {
                    try bands.draw(recording.get())
                }
                start += chunk.count
            }
            guard !run.symbols.isEmpty else { break }
            var canvas = try bands.finish()
            placer.icons?.draw(on: &canvas, layers: run.symbols)
            try checkCancellation()
            try placer.draw(on: &canvas, layers: run.symbols)
            guard number < runs.count - 1 else { return (canvas.bitmap, placer.labels) }
            bands = BandedCanvas(continuing: canvas)
        }
        return (try bands.finishBitmap(), placer.labels)
    }

    /// The name in ``sources`` of the source `layer` draws from, nil for none
    /// (a background, or a source not given).
    func sourceName(of layer: StyleLayer) -> String? {
        guard let name = layer.source, layer.sourceLayer != nil else { return nil }
        if sources[name] != nil { return name }
        return sources.count == 1 ? sources.keys.first : nil
    }

    /// The tiles of `places` the source `sourceName` has, in their order: from `cache`, or
    /// read, inflated and decoded (a first snapshot's largest serial cost) a
    /// tile per thread on up to `bandCount` threads, then cached. When tiles
    /// fail, the first failing one in `places` order is thrown.
    private func loadTiles(_ places: [TileCover.Placed], of sourceName: String, cancellation: RenderCancellation,
                           checkCancellation: () throws -> Void) throws -> [(tile: VectorTile, place: TileCover.Placed)] {
        let keys = places.map { VectorTileCache.Key(source: sourceName, tile: $0.tile) }
        var results = keys.map { key in cache.tile(for: key).map { Result<VectorTile?, Error>.success($0) } }
        let missing = results.indices.filter { results[$0] == nil }
        try checkCancellation()
        let source = sources[sourceName]!
        if bandCount > 1, missing.count > 1 {
            let read = [Result<VectorTile?, Error>](concurrentlyMaking: missing.count) { j in
                Result { try source.vectorTile(at: places[missing[j]].tile, cancellation: cancellation) }
            }
            for (j, i) in missing.enumerated() { results[i] = read[j] }
        } else {
            for i in missing {
                try checkCancellation()
                results[i] = Result { try source.vectorTile(at: places[i].tile, cancellation: cancellation) }
            }
        }
        var loaded: [(tile: VectorTile, place: TileCover.Placed)] = []
        for (i, result) in results.enumerated() {
            if let tile = try result?.get() { loaded.append((tile, places[i])) }
        }
        for i in missing {
            if case .success(let tile?) = results[i] { cache.insert(tile, for: keys[i]) }
        }
        try checkCancellation()
        return loaded
    }

    /// How many layers are recorded at once.
    static let layersPerChunk = 16

    /// The recordings of `layers` (background, fill and line layers) drawn
    /// from `tiles`, a layer per thread on up to `bandCount` threads: each
    /// layer's features filtered and grouped by paint (kept in
    /// `preparedLayers`), projected, offset and dashed, what lines generate
    /// charged to `budget`. A layer failing (over the budget, or cancelled:
    /// polled per feature evaluated and per line) gives its error.
    private func record(_ layers: [(index: Int, layer: StyleLayer)], of tilesBySource: [String: [(tile: VectorTile, place: TileCover.Placed)]],
                        camera: VectorMapCamera, extrusions: [(index: Int, layer: StyleLayer)], budget: GeneratedGeometryBudget,
                        cancellation: RenderCancellation) -> [Result<BandedCanvas.Recording, Error>] {
        let zoom = camera.styleZoom
        let (preparedLayers, preparedStyle, sprites) = (self.preparedLayers, self.preparedStyle, self.sprites)
        let (rasterSources, tileLimit, light) = (self.rasterSources, limits.tilesPerSnapshot, style.light)
        // Picture layers sample their own tiles: the frame only places the view, aligned as MapLibre aligns raster tiles.
        let pictureFrame = VectorMapFrame(camera: camera, zoomRange: 0...24).alignedToPixels(camera)
        @Sendable func record(_ layerIndex: Int, _ layer: StyleLayer) -> Result<BandedCanvas.Recording, Error> {
            Result { try recording(layerIndex, layer) }
        }
        @Sendable func recording(_ layerIndex: Int, _ layer: StyleLayer) throws -> BandedCanvas.Recording {
            var recording = BandedCanvas.Recording()
            /// The layer's prepared groups of each tile that has its source layer.
            func prepared(_ layerIndex: Int = layerIndex, _ layer: StyleLayer = layer) throws
                -> [(groups: [PreparedLayerGroup], tileLayer: VectorTileLayer, place: TileCover.Placed)] {
                guard let sourceLayer = layer.sourceLayer else { return [] }
                let tiles = sourceName(of: layer).flatMap { tilesBySource[$0] } ?? []
                return try tiles.compactMap { tile, place in
                    guard let tileLayer = tile.layer(named: sourceLayer) else { return nil }
                    let key = PreparedLayerCache.Key(style: preparedStyle, tile: place.tile, layer: layerIndex, zoom: zoom)
                    let groups = try preparedLayers.groups(for: key, of: tileLayer) {
                        try VectorLayerDrawer.prepare(layer, from: tileLayer, atZoom: zoom, tile: place.tile, cancellation: cancellation)
                    }
                    return (groups, tileLayer, place)
                }
            }
            var drawer = VectorLayerDrawer(scale: camera.scale, zoom: zoom, width: camera.pixelWidth, height: camera.pixelHeight,
                                           pitch: pictureFrame.pitch)
            (drawer.sprites, drawer.camera) = (sprites.images, camera)
            switch layer.kind {
            case .background(let background):
                drawer.drawBackground(background, into: &recording)
            case .fill, .line:
                for (groups, tileLayer, place) in try prepared() { drawer.add(groups, from: tileLayer, at: place) }
                try drawer.flush(into: &recording, layer: layer.id, budget: budget, cancellation: cancellation)
            case .circle:
                var circles = CircleLayerDrawer(scale: camera.scale, width: camera.pixelWidth, height: camera.pixelHeight)
                for (groups, tileLayer, place) in try prepared() { circles.add(groups, from: tileLayer, at: place) }
                try circles.flush(into: &recording, layer: layer.id, budget: budget, cancellation: cancellation)
            case .heatmap(let style):
                var heatmap = HeatmapLayerDrawer(scale: camera.scale, width: camera.pixelWidth, height: camera.pixelHeight,
                                                 intensity: style.intensity.value(atZoom: zoom))
                for (groups, tileLayer, place) in try prepared() {
                    try cancellation.check()
                    try heatmap.add(groups, from: tileLayer, at: place, layer: layer.id, budget: budget)
                }
                let ramp = HeatmapLayerDrawer.ramp(style.color, atZoom: zoom)
                if let pixels = heatmap.pixels(ramp: ramp, opacity: style.opacity.value(atZoom: zoom)) {
                    recording.composite(premultipliedLayer: pixels)
                }
            case .fillExtrusion(let style):
                // The depth of the style's extrusion layers below this one first: their faces hide this one's.
                var depth: [UInt16] = []
                for (index, earlier) in extrusions where index < layerIndex {
                    guard case .fillExtrusion(let earlierStyle) = earlier.kind else { continue }
                    var pass = FillExtrusionLayerDrawer(camera: camera, style: earlierStyle, light: light, depth: depth, writesColor: false,
                                                        sprites: sprites.images)
                    for (groups, tileLayer, place) in try prepared(index, earlier) {
                        try pass.add(groups, from: tileLayer, at: place, layer: layer.id, budget: budget, cancellation: cancellation)
                    }
                    depth = pass.nearest
                }
                var extrusions = FillExtrusionLayerDrawer(camera: camera, style: style, light: light, depth: depth, sprites: sprites.images)
                for (groups, tileLayer, place) in try prepared() {
                    try extrusions.add(groups, from: tileLayer, at: place, layer: layer.id, budget: budget, cancellation: cancellation)
                }
                if let pixels = extrusions.layerPixels { recording.composite(premultipliedLayer: pixels) }
            case .symbol:
                break
            case .raster(let style):
                guard let source = layer.source.flatMap({ rasterSources[$0] }) else { break }
                let drawer = RasterLayerDrawer(frame: pictureFrame, zoom: zoom, tileLimit: tileLimit)
                if let pixels = try drawer.draw(style, from: source, cancellation: cancellation) {
                    recording.composite(premultipliedLayer: pixels)
                }
            case .hillshade(let style):
                guard case .elevation(let source)? = layer.source.flatMap({ rasterSources[$0] }) else { break }
                let drawer = HillshadeLayerDrawer(frame: pictureFrame, zoom: zoom, tileLimit: tileLimit)
                if let pixels = try drawer.draw(style, from: source, cancellation: cancellation) {
                    recording.composite(premultipliedLayer: pixels)
                }
            }
            return patterned(recording, layer)
        }
        // A background with a pattern is filled with the sprite image instead of its colour
        // (fills and lines draw theirs per feature); when the sprite lacks the image the
        // layer draws nothing, as in MapLibre.
        @Sendable func patterned(_ recording: BandedCanvas.Recording, _ layer: StyleLayer) -> BandedCanvas.Recording {
            guard case .background(let style) = layer.kind else { return recording }
            let (name, opacity) = (style.pattern.constantValue, style.opacity.constantValue)
            guard let name, !name.isEmpty else { return recording }
            guard let image = sprites.images[name] else { return BandedCanvas.Recording() }
            return recording.shaded(by: SpritePattern(image, camera: camera, opacity: opacity ?? 1).shader)
        }
        guard bandCount > 1, layers.count > 1 else { return layers.map { record($0.index, $0.layer) } }
        return [Result<BandedCanvas.Recording, Error>](concurrentlyMaking: layers.count) { record(layers[$0].index, layers[$0].layer) }
    }

    /// Throws when the drawn layers of `tiles` hold more features or vertices
    /// than the limits allow.
    private func checkBudget(_ tiles: [String: [(tile: VectorTile, place: TileCover.Placed)]], layers: [StyleLayer]) throws {
        var features = 0, vertices = 0
        for (source, tiles) in tiles {
            let used = Set(layers.filter { sourceName(of: $0) == source }.compactMap(\.sourceLayer))
            for (tile, _) in tiles {
                for layer in tile.layers where used.contains(layer.name) {
                    features += layer.featureCount
                    vertices += layer.points.count
                }
            }
        }
        guard features <= limits.featuresPerSnapshot else {
            throw VectorTileError(.limitExceeded, "the view's tiles hold \(features) features in the style's layers, over the limit of \(limits.featuresPerSnapshot) per snapshot")
        }
        guard vertices <= limits.verticesPerSnapshot else {
            throw VectorTileError(.limitExceeded, "the view's tiles hold \(vertices) vertices in the style's layers, over the limit of \(limits.verticesPerSnapshot) per snapshot")
        }
    }
}
