import Foundation
import Raster

/// Draws a whole MapLibre style document, as MapLibre Native's `mbgl-render`
/// does: every source it names (vector tiles by template or `url`, GeoJSON,
/// raster, raster-dem, image, video and canvas sources), its sprites and its glyphs, read
/// through a ``StyleResourceLoading``; the camera the style's own `center`,
/// `zoom`, `bearing` and `pitch` unless the caller gives another.
///
/// ```swift
/// let file = URL(fileURLWithPath: "style.json")
/// let document = try StyleDocumentRenderer(style: Data(contentsOf: file), fileName: "style.json",
///                                          resources: StyleFolderResources(folder: file.deletingLastPathComponent()))
/// let bitmap = try document.render(width: 512, height: 512)
/// ```
public struct StyleDocumentRenderer: Sendable {
    /// Where a style puts its camera (MapLibre's conventions: `zoom` of
    /// 512-point tiles, `center` as longitude, latitude).
    public struct Camera: Sendable, Equatable {
        /// The centre (the style's `center`, else 0, 0).
        public var center: GeoCoordinate
        /// The zoom of 512-point tiles, as MapLibre counts it (the style's `zoom`, else 0).
        public var zoom: Double
        /// Degrees clockwise from north, wrapped into 0..<360 (the style's `bearing`, else 0).
        public var bearing: Double
        /// Degrees from looking straight down (the style's `pitch`, else 0).
        public var pitch: Double
        /// Heights drawn without perspective (MapLibre Native's axonometric
        /// projection mode), or nil (a style never asks for it).
        public var axonometric: AxonometricProjection?

        /// A camera at `center` and `zoom`, turned by `bearing` and tilted by
        /// `pitch`, axonometric when `axonometric` is given.
        public init(center: GeoCoordinate = GeoCoordinate(latitude: 0, longitude: 0), zoom: Double = 0, bearing: Double = 0, pitch: Double = 0,
                    axonometric: AxonometricProjection? = nil) {
            self.center = center
            self.zoom = zoom
            self.bearing = bearing
            self.pitch = pitch
            self.axonometric = axonometric
        }
    }

    /// MapLibre's default `maxPitch`: a style's (or caller's) pitch is held to it.
    public static let maximumPitch = 60.0

    /// The style read.
    public let style: VectorStyle
    /// The camera the style asks for.
    public let camera: Camera
    /// The renderer over the style's sources, sprites and glyphs.
    public private(set) var renderer: VectorMapRenderer

    /// Reads `style` (named `fileName` in its errors and warnings) and the
    /// sources, sprites (at `pixelRatio`) and glyphs it names through `resources`.
    /// - Throws: `VectorStyleError` for a style that cannot be read,
    ///   ``StyleDocumentError`` naming a source or file that cannot, and the
    ///   readers' own errors (GeoJSON, sprites, archives).
    public init(style data: Data, fileName: String? = nil, resources: any StyleResourceLoading, pixelRatio: Double = 1,
                limits: VectorMapLimits = .default, styleLimits: StyleLimits = .default) throws {
        let style = try VectorStyle(data: data, fileName: fileName, limits: styleLimits)
        let document = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        self.style = style
        camera = try Self.camera(of: document)
        var vectorSources: [String: any VectorTileProviding] = [:]
        var rasterSources: [String: MapRasterSource] = [:]
        for (name, source) in style.sources.sorted(by: { $0.key < $1.key }) {
            do {
                if source.isPicture {
                    rasterSources[name] = try Self.pictureSource(source, resources: resources)
                } else if case .geojson(let geojson) = source.kind {
                    vectorSources[name] = try geojson.provider(try Self.features(of: geojson, resources: resources))
                } else {
                    vectorSources[name] = try Self.vectorSource(source, resources: resources)
                }
            } catch let error as StyleDocumentError {
                throw StyleDocumentError("source '\(name)': \(error.message)")
            }
        }
        var renderer = VectorMapRenderer(sources: vectorSources, style: style, limits: limits, rasterSources: rasterSources)
        if !style.sprites.isEmpty, Self.drawsSpriteImages(style) {
            renderer.sprites = try Sprites(of: style, pixelRatio: pixelRatio, from: ResourceSpriteProvider(resources: resources))
        }
        // The style's glyphs, else the package's own (a style MapLibre would draw without text).
        let glyphs: any GlyphProviding = style.glyphs.map { ResourceGlyphProvider(resources: resources, template: $0) } ?? BuiltInGlyphs()
        renderer.glyphs = GlyphCache(provider: glyphs)
        // As mbgl-render: a label at the edge is cut there, not moved or dropped.
        renderer.labelsCrossEdges = true
        self.renderer = renderer
    }

    /// Whether symbols of different sources collide with each other (MapLibre's
    /// map option `crossSourceCollisions`, true by default); false gives each
    /// source's symbols a collision index of their own.
    public var crossSourceCollisions: Bool {
        get { renderer.crossSourceCollisions }
        set { renderer.crossSourceCollisions = newValue }
    }

    /// The style drawn `width` × `height` points at `scale` pixels a point,
    /// from `camera` (the style's own by default).
    /// The pitch is held to 0…60, as MapLibre holds it to a map's default `maxPitch`.
    /// - Throws: the renderer's errors (limits, tiles).
    public func render(width: Int, height: Int, scale: Double = 1, camera: Camera? = nil) throws -> Bitmap {
        let camera = camera ?? self.camera
        let wrapped = camera.bearing.truncatingRemainder(dividingBy: 360)
        // MapLibre counts zoom in 512-point tiles, the camera in 256-point ones.
        let view = VectorMapCamera(center: camera.center, zoom: camera.zoom + 1, width: width, height: height, scale: scale,
                                   bearing: wrapped < 0 ? wrapped + 360 : wrapped, pitch: min(max(camera.pitch, 0), Self.maximumPitch),
                                   axonometric: camera.axonometric)
        return try renderer.render(view)
    }

    /// The camera `document` states; a value of the wrong type is named.
    static func camera(of document: [String: Any]) throws -> Camera {
        func number(_ key: String) throws -> Double? {
            guard let value = document[key] else { return nil }
            guard let number = value as? NSNumber, number.doubleValue.isFinite else {
                throw StyleDocumentError("the style's '\(key)' is not a number")
            }
            return number.doubleValue
        }
        var camera = Camera()
        if let center = document["center"] {
            guard let pair = center as? [NSNumber], pair.count == 2, pair.allSatisfy({ $0.doubleValue.isFinite }),
                  (-90...90).contains(pair[1].doubleValue) else {
                throw StyleDocumentError("the style's 'center' is not [longitude, latitude]")
            }
            camera.center = GeoCoordinate(latitude: pair[1].doubleValue, longitude: pair[0].doubleValue)
        }
        camera.zoom = try number("zoom") ?? 0
        camera.bearing = try number("bearing") ?? 0
        camera.pitch = try number("pitch") ?? 0
        return camera
    }

    /// Whether a visible layer of `style` may draw a sprite image (an icon or
    /// a pattern): only then are the sprite files read.
    static func drawsSpriteImages(_ style: VectorStyle) -> Bool {
        style.layers.contains { layer in
            guard layer.isVisible else { return false }
            switch layer.kind {
            case .symbol(let symbol): return symbol.icon.image.constantValue != "" || symbol.format?.sections.contains { $0.image != nil } == true
            case .fill(let fill): return fill.pattern.constantValue != ""
            case .line(let line): return line.pattern.constantValue != ""
            case .fillExtrusion(let extrusion): return extrusion.pattern.constantValue != ""
            case .background(let background): return background.pattern.constantValue != ""
            default: return false
            }
        }
    }

    /// A `vector` source's tiles: its `tiles` template, else the archive its
    /// `url` names (`pmtiles://…`), else the TileJSON document it names.
    private static func vectorSource(_ source: VectorStyleSource, resources: any StyleResourceLoading) throws -> any VectorTileProviding {
        if source.tiles.isEmpty, let url = source.url, let tiles = try resources.vectorTiles(url: url) { return tiles }
        let set = try tileSet(of: source, resources: resources)
        return LoadedVectorTiles(loader: try resources.tileLoader(template: set.template), zoomRange: set.zooms, metadata: set.metadata,
                                 encoding: source.encoding)
    }

    /// The most bytes a TileJSON document may have.
    static let maximumTileJSONBytes = 1 << 20

    /// Where a tiled source's tiles are, and what the set says of itself: the
    /// source's own `tiles`, zooms, `scheme` and `bounds`, each falling back
    /// on the TileJSON document its `url` names (MapLibre's `loadTileJSON`:
    /// what the style states wins), then on the defaults (zooms 0–22, `xyz`,
    /// the whole world).
    private static func tileSet(of source: VectorStyleSource, resources: any StyleResourceLoading) throws
        -> (template: String, zooms: ClosedRange<Int>, metadata: TileSetMetadata) {
        let template: String
        var metadata = TileSetMetadata()
        if let first = source.tiles.first {
            template = first
        } else {
            guard let url = source.url else { throw StyleDocumentError("the source has neither 'tiles' nor 'url'") }
            guard let data = try resources.file(url, maximumBytes: maximumTileJSONBytes) else {
                throw StyleDocumentError("the TileJSON '\(url)' does not exist")
            }
            do {
                metadata = try TileSetMetadata(json: data, limit: maximumTileJSONBytes, what: "the TileJSON '\(url)'")
            } catch let error as VectorTileError {
                throw StyleDocumentError(error.message)
            }
            guard let first = metadata.tiles.first else { throw StyleDocumentError("the TileJSON '\(url)' has no 'tiles'") }
            template = StyleURLs.resolve(first, against: url)
        }
        let low = source.minimumZoom ?? metadata.minimumZoom ?? 0
        let zooms = low...max(low, source.maximumZoom ?? metadata.maximumZoom ?? 22)
        metadata.scheme = source.scheme ?? metadata.scheme
        metadata.bounds = source.bounds ?? metadata.bounds
        return (template, zooms, metadata)
    }

    /// A `raster`, `raster-dem` or `image` source.
    private static func pictureSource(_ source: VectorStyleSource, resources: any StyleResourceLoading) throws -> MapRasterSource {
        switch source.kind {
        case .raster(let options), .rasterDEM(let options):
            let set = try tileSet(of: source, resources: resources)
            let tiles = RasterTileSource(loader: try resources.tileLoader(template: set.template), options: options,
                                         scheme: set.metadata.scheme ?? .xyz, bounds: set.metadata.bounds, zoomRange: set.zooms)
            if case .rasterDEM = source.kind { return .elevation(tiles) }
            return .tiles(tiles)
        case .image(let image):
            return .image(try Self.picture(of: image, resources: resources))
        case .vector, .geojson:
            throw StyleDocumentError("a vector source cannot be drawn as pictures")
        }
    }

    /// The most bytes of an `image` or `video` source's picture file.
    static let maximumPictureBytes = 64 << 20

    /// An `image`, `video` or `canvas` source's picture: the file its `url`
    /// names, the first of a video's `urls` that is a picture (a snapshot
    /// shows a video's first frame), or the canvas the resources draw.
    private static func picture(of source: ImageStyleSource, resources: any StyleResourceLoading) throws -> ImageSource {
        let limits = RasterSourceLimits.default
        switch source.content {
        case .url(let url):
            guard let data = try resources.file(url, maximumBytes: maximumPictureBytes) else { throw StyleDocumentError("the image '\(url)' does not exist") }
            return try ImageSource(data: data, corners: source.corners, limits: limits)
        case .video(let urls):
            var reasons: [String] = []
            for url in urls {
                guard let data = try resources.file(url, maximumBytes: maximumPictureBytes) else {
                    reasons.append("'\(url)' does not exist")
                    continue
                }
                do {
                    return try ImageSource(data: data, corners: source.corners, limits: limits)
                } catch let error as VectorTileError where error.kind == .corrupt {
                    // A video file, or another format: the next URL may be a picture.
                    reasons.append("'\(url)' is no picture this renderer decodes (PNG, JPEG, GIF, WebP; video files are not decoded)")
                }
            }
            throw StyleDocumentError("no URL of the video gives a picture: " + reasons.joined(separator: "; "))
        case .canvas(let id):
            guard let picture = try resources.canvas(id: id) else {
                throw StyleDocumentError("there is no canvas '\(id)' (StyleResourceLoading.canvas(id:) gives none)")
            }
            return try ImageSource(picture: picture, corners: source.corners, limits: limits)
        }
    }

    /// A GeoJSON source's document: inline, or the file its `data` URL names.
    private static func features(of source: GeoJSONStyleSource, resources: any StyleResourceLoading) throws -> GeoJSON {
        switch source.data {
        case .inline(let document):
            return document
        case .url(let url):
            let limits = GeoJSONLimits.default
            guard let data = try resources.file(url, maximumBytes: limits.maximumByteCount) else { throw StyleDocumentError("the GeoJSON '\(url)' does not exist") }
            return try GeoJSON(data: data, limits: limits, promoteId: source.promoteId)
        }
    }
}
