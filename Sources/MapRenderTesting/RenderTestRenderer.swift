import Foundation
import ImageCodecs
import MapRendering
import Raster

/// Draws a MapLibre render test with this package's renderer and compares it
/// with the expected image as MapLibre Native's runner does.
///
/// `local://X` (and `http://localhost:2900/X`) in a style name files of the
/// suite's `integration/` folder, as MapLibre's runners resolve them. The
/// camera is the style's own `center`, `zoom` (MapLibre's 512-point zoom:
/// ``VectorMapCamera`` takes it plus one), `bearing` and `pitch` (held to 60, MapLibre's
/// default `maxPitch`); the image is the test's `width` ×
/// `height` at its `pixelRatio`.
struct RenderTestRenderer {
    /// The suite's `integration/` folder.
    var integration: URL
    /// The comparison.
    var pixelMatch = PixelMatch()

    /// What running a test gave.
    struct Run {
        var outcome: RenderTestOutcome
        /// The image drawn (straight alpha), when one was.
        var actual: Bitmap?
        /// The suite's files the style loaded, relative to `integration/`.
        var resources: Set<String> = []
    }

    /// Runs `test`.
    func run(_ test: RenderTest) -> Run {
        var loaders: [SuiteFileLoader] = []
        do {
            let actual = try render(test, loaders: &loaders)
            let resources = Set(loaders.flatMap(\.filesRead))
            guard FileManager.default.fileExists(atPath: test.expectedImage.path) else {
                return Run(outcome: .error("the test has no expected.png"), actual: actual)
            }
            let expected = try PNGDecoder().decode(Data(contentsOf: test.expectedImage))
            guard expected.width == actual.width, expected.height == actual.height else {
                return Run(outcome: .error("drew \(actual.width)×\(actual.height) pixels, the expected image is \(expected.width)×\(expected.height)"), actual: actual)
            }
            let differing = pixelMatch.compare(PixelMatch.premultiplied(actual), PixelMatch.premultiplied(expected),
                                               width: actual.width, height: actual.height).count
            let difference = Double(differing) / Double(actual.width * actual.height)
            let outcome: RenderTestOutcome = difference <= test.allowed ? .passed(difference: difference) : .failed(difference: difference)
            return Run(outcome: outcome, actual: actual, resources: resources)
        } catch let unsupported as Unsupported {
            return Run(outcome: .unsupported(unsupported.feature))
        } catch {
            return Run(outcome: .error(String(describing: error)))
        }
    }

    /// A feature the renderer cannot express, which stops a test before drawing.
    struct Unsupported: Error {
        var feature: String
    }

    /// The test's style drawn with its camera, the loaders of its sources
    /// added to `loaders`. Throws ``Unsupported`` for what cannot be
    /// expressed, and the renderer's errors.
    private func render(_ test: RenderTest, loaders: inout [SuiteFileLoader]) throws -> Bitmap {
        let document = try JSONSerialization.jsonObject(with: test.style) as? [String: Any] ?? [:]
        let style = try VectorStyle(data: test.style)
        for warning in style.warnings {
            for kind in ["source type", "layer type", "geojson option"] {
                if let range = warning.range(of: "\(kind) '") {
                    let name = warning[range.upperBound...].prefix { $0 != "'" }
                    throw Unsupported(feature: "\(kind) \(name)")
                }
            }
        }
        var rasterSources: [String: MapRasterSource] = [:]
        var sources: [String: any VectorTileProviding] = [:]
        for (name, source) in style.sources.sorted(by: { $0.key < $1.key }) {
            if source.isPicture {
                rasterSources[name] = try rasterSource(source, loaders: &loaders)
            } else if case .geojson(let geojson) = source.kind {
                sources[name] = geojson.tiles(try features(of: geojson, loaders: &loaders))
            } else {
                let loader = try tileLoader(for: source)
                loaders.append(loader)
                sources[name] = LoadedVectorTiles(loader: loader, zoomRange: (source.minimumZoom ?? 0)...(source.maximumZoom ?? 22))
            }
        }
        let center = (document["center"] as? [NSNumber])?.map(\.doubleValue) ?? [0, 0]
        let zoom = (document["zoom"] as? NSNumber)?.doubleValue ?? 0
        guard center.count == 2 else { throw Unsupported(feature: "a 'center' that is not [longitude, latitude]") }
        // MapLibre takes any bearing and wraps it; the camera takes 0…360.
        let bearing = (document["bearing"] as? NSNumber)?.doubleValue ?? 0
        let wrapped = bearing.truncatingRemainder(dividingBy: 360)
        // MapLibre holds the pitch to the map's `maxPitch`, 60 unless set.
        let pitch = (document["pitch"] as? NSNumber)?.doubleValue ?? 0
        let camera = VectorMapCamera(center: GeoCoordinate(latitude: center[1], longitude: center[0]), zoom: zoom + 1,
                                     width: test.width, height: test.height, scale: test.pixelRatio,
                                     bearing: wrapped < 0 ? wrapped + 360 : wrapped, pitch: pitch.isFinite ? min(max(pitch, 0), 60) : 0)
        var renderer = VectorMapRenderer(sources: sources, style: style, rasterSources: rasterSources)
        if !style.sprites.isEmpty, Self.drawsSpriteImages(style) {
            let loader = SuiteFileLoader(integration: integration, template: "")
            loaders.append(loader)
            renderer.sprites = try Sprites(of: style, pixelRatio: test.pixelRatio, from: SuiteSprites(loader: loader, renderer: self))
        }
        if let template = style.glyphs {
            let loader = SuiteFileLoader(integration: integration, template: "")
            loaders.append(loader)
            renderer.glyphs = GlyphCache(provider: SuiteGlyphs(loader: loader, template: try suitePath(template, "glyphs")))
            renderer.labelsCrossEdges = true
        }
        return try renderer.render(camera)
    }

    /// A `raster`, `raster-dem` or `image` source read from the suite's files.
    private func rasterSource(_ source: VectorStyleSource, loaders: inout [SuiteFileLoader]) throws -> MapRasterSource {
        let zoomRange = (source.minimumZoom ?? 0)...max(source.minimumZoom ?? 0, source.maximumZoom ?? 22)
        switch source.kind {
        case .raster(let options), .rasterDEM(let options):
            let loader = try tileLoader(for: source)
            loaders.append(loader)
            let tiles = RasterTileSource(loader: loader, options: options, zoomRange: zoomRange)
            if case .rasterDEM = source.kind { return .elevation(tiles) }
            return .tiles(tiles)
        case .image(let image):
            let loader = SuiteFileLoader(integration: integration, template: "")
            loaders.append(loader)
            return .image(try ImageSource(data: loader.file(suitePath(image.url, "image")), corners: image.corners))
        case .vector, .geojson:
            throw Unsupported(feature: "a vector source drawn as pictures")
        }
    }

    /// The loader of the suite's files for a `tiles` template of `local://` URLs.
    private func tileLoader(for source: VectorStyleSource) throws -> SuiteFileLoader {
        guard source.url == nil else { throw Unsupported(feature: "a TileJSON 'url' source") }
        guard let template = source.tiles.first else { throw Unsupported(feature: "a source without 'tiles'") }
        let path = try suitePath(template, "tiles")
        if path.hasSuffix(".mlt") { throw Unsupported(feature: "MapLibre Tiles (.mlt)") }
        return SuiteFileLoader(integration: integration, template: path)
    }

    /// A GeoJSON source's document: inline, or the suite's file its URL names
    /// (read through a loader added to `loaders`, so it is copied with the test).
    private func features(of source: GeoJSONStyleSource, loaders: inout [SuiteFileLoader]) throws -> GeoJSON {
        switch source.data {
        case .inline(let document):
            return document
        case .url(let url):
            let loader = SuiteFileLoader(integration: integration, template: "")
            loaders.append(loader)
            return try GeoJSON(data: loader.file(suitePath(url, "GeoJSON")), promoteId: source.promoteId)
        }
    }

    /// The path under `integration/` of a `local://` (or `http://localhost:2900/`) URL.
    func suitePath(_ url: String, _ what: String) throws -> String {
        if let local = url.split(separator: "local://", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first {
            return String(local)
        } else if let served = url.split(separator: "localhost:2900/", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first {
            return String(served)
        }
        throw Unsupported(feature: "\(what) from '\(url)'")
    }

    /// Whether a visible layer of `style` may draw a sprite image (an icon
    /// or a pattern): only then are its sprite files read (and copied with a passing test).
    private static func drawsSpriteImages(_ style: VectorStyle) -> Bool {
        style.layers.contains { layer in
            guard layer.isVisible else { return false }
            switch layer.kind {
            case .symbol(let symbol): return symbol.icon.image.constantValue != ""
            case .fill(let fill): return fill.pattern.constantValue != ""
            case .background(let background): return background.pattern.constantValue != ""
            default: return false
            }
        }
    }

    /// A style's sprite files from the suite, as `local://` URLs name them.
    private struct SuiteSprites: SpriteProviding {
        let loader: SuiteFileLoader
        let renderer: RenderTestRenderer

        func spriteFile(_ url: String, maximumBytes: Int) throws -> Data {
            let data = try loader.file(renderer.suitePath(url, "sprite"))
            guard data.count <= maximumBytes else { throw SpriteError(file: url, "the file is \(data.count) bytes, over the limit of \(maximumBytes)") }
            return data
        }
    }

}
