import XCTest
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MapRendering
@testable import URLSchemeKit

/// A style file's sprites and glyphs, beside it on disk or on a server,
/// drawn by `map://` through a real URLSession: `@2x` images at scale 2, the
/// style's own glyph ranges for labels, and what cannot be loaded named in
/// the warnings.
final class MapStyleResourcesTests: XCTestCase {
    static let glyphs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MapRenderingTests/Fixtures/maplibre-render-tests/glyphs")

    /// A one-image sprite `name` in `folder`: a 4×4 (8×8 for `@2x`) square of `color`.
    func writeSprite(_ name: String, in folder: URL, color: RGBA, highDensity: Bool) throws {
        let side = highDensity ? 8 : 4, ratio = highDensity ? 2 : 1
        let suffix = highDensity ? "@2x" : ""
        let index = #"{"tile": {"x": 0, "y": 0, "width": \#(side), "height": \#(side), "pixelRatio": \#(ratio)}}"#
        try Data(index.utf8).write(to: folder.appendingPathComponent(name + suffix + ".json"))
        try PNGEncoder().encode(Bitmap(width: side, height: side, fill: color)).write(to: folder.appendingPathComponent(name + suffix + ".png"))
    }

    func style(sprite: String, glyphs: String, labels: Bool) -> String {
        let text = labels ? ##", {"id": "names", "type": "symbol", "source": "hel", "source-layer": "transportation_name", "layout": {"symbol-placement": "line", "text-field": "{name:latin}", "text-font": ["Open Sans Semibold", "Arial Unicode MS Bold"], "text-size": 16, "text-allow-overlap": true}, "paint": {"text-color": "#000000"}}"## : ""
        return #"""
        {"version": 8, "sprite": "\#(sprite)", "glyphs": "\#(glyphs)",
         "sources": {"hel": {"type": "vector", "url": "pmtiles://anything"}},
         "layers": [{"id": "ground", "type": "background", "paint": {"background-pattern": "tile"}}\#(text)]}
        """#
    }

    func session(_ source: VectorTileSource) -> URLSession {
        var sources = MapTileSources()
        sources.register("hel", source)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(tileSources: sources, imageCache: nil, httpCache: nil))
        return URLSession(configuration: configuration)
    }

    func map(_ session: URLSession, scale: Int = 1, size: Int = 64) async throws -> Bitmap {
        let query = "latitude=60.17&longitude=24.945&zoom=15&width=\(size)&height=\(size)&scale=\(scale)&tiles=hel"
        let (data, response) = try await session.data(from: try XCTUnwrap(URL(string: "map://?" + query)))
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200, String(decoding: data, as: UTF8.self))
        return try ImageDecoder.decode(data).bitmap
    }

    /// A relative `sprite` is read from the style's folder: the pattern fills
    /// the map, its `@2x` image at scale 2; the same style given as bytes
    /// (no folder) draws no pattern and says why.
    func testRelativeSpriteIsDrawnAtEachPixelRatio() async throws {
        let folder = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sprites"), withIntermediateDirectories: true)
        try writeSprite("sprites/look", in: folder, color: RGBA(255, 0, 255), highDensity: false)
        try writeSprite("sprites/look", in: folder, color: RGBA(0, 255, 255), highDensity: true)
        let styleFile = folder.appendingPathComponent("style.json")
        try Data(style(sprite: "sprites/look", glyphs: "none/{fontstack}/{range}.pbf", labels: false).utf8).write(to: styleFile)
        let archive = VectorMapURLTests.archive("openmaptiles")

        let source = try VectorTileSource.open(archive, style: .file(styleFile))
        XCTAssertEqual(source.lightStyle.warnings.filter { $0.contains("sprite") }, [], "the sprite loads")
        let session = self.session(source)
        let standard = try await map(session)
        XCTAssertEqual(standard[10, 10], RGBA(255, 0, 255), "the 1x image at scale 1")
        XCTAssertEqual(standard[40, 20], RGBA(255, 0, 255))
        let high = try await map(session, scale: 2)
        XCTAssertEqual(high.width, 128)
        XCTAssertEqual(high[20, 20], RGBA(0, 255, 255), "the @2x image at scale 2")

        let bytes = try VectorTileSource.open(archive, style: .json(Data(contentsOf: styleFile)))
        XCTAssertTrue(bytes.lightStyle.warnings.contains { $0.contains("sprite 'sprites/look' is not loaded: a relative path needs the style's folder") },
                      "\(bytes.lightStyle.warnings)")
        let bare = try await map(self.session(bytes))
        XCTAssertNotEqual(bare[10, 10], RGBA(255, 0, 255), "no sprite, no pattern")
    }

    /// `glyphs` relative to the style: labels are drawn with the style's
    /// font, not the built-in glyphs; an http(s) sprite or glyphs URL is named
    /// as not loaded, and the map still draws, its labels from the built-in glyphs.
    func testStyleGlyphsDrawLabelsAndRemoteURLsAreNamed() async throws {
        let folder = try makeTemporaryDirectory()
        try FileManager.default.copyItem(at: Self.glyphs, to: folder.appendingPathComponent("fonts"))
        try writeSprite("sprite", in: folder, color: RGBA(255, 255, 255), highDensity: false)
        let withFonts = folder.appendingPathComponent("fonts.json"), without = folder.appendingPathComponent("builtin.json")
        try Data(style(sprite: "sprite", glyphs: "fonts/{fontstack}/{range}.pbf", labels: true).utf8).write(to: withFonts)
        try Data(style(sprite: "sprite", glyphs: "https://example.invalid/{fontstack}/{range}.pbf", labels: true).utf8).write(to: without)
        let archive = VectorMapURLTests.archive("openmaptiles")

        let styled = try VectorTileSource.open(archive, style: .file(withFonts))
        let glyphs = try XCTUnwrap(styled.resources.glyphs, "the style's glyphs are loaded")
        XCTAssertNotNil(glyphs.glyph(UInt32(("A" as Unicode.Scalar).value), fontStack: ["Open Sans Semibold", "Arial Unicode MS Bold"]))
        let fallback = try VectorTileSource.open(archive, style: .file(without))
        XCTAssertTrue(fallback.resources.glyphs?.provider is BuiltInGlyphs, "the built-in glyphs stand in")
        XCTAssertTrue(fallback.lightStyle.warnings.contains { $0.contains("glyphs 'https://example.invalid/{fontstack}/{range}.pbf' are not loaded: only files are read") },
                      "\(fallback.lightStyle.warnings)")

        let drawn = try await map(session(styled), size: 256)
        let builtin = try await map(session(fallback), size: 256)
        // Ink above the attribution (the bottom 24 rows).
        let dark = { (bitmap: Bitmap) in (0..<bitmap.height - 24).reduce(0) { sum, y in sum + (0..<bitmap.width).filter { bitmap[$0, y].r < 128 }.count } }
        XCTAssertGreaterThan(dark(drawn), 50, "labels are drawn")
        XCTAssertGreaterThan(dark(builtin), 50, "labels are drawn from the built-in glyphs")
        XCTAssertTrue(drawn.pixels != builtin.pixels, "the style's glyphs, not the built-in ones")
        XCTAssertEqual(glyphs.errors, [])
    }

    /// With a session's configuration, `http(s)` sprites and glyphs are
    /// fetched from their server (here python3's `http.server` on loopback):
    /// the pattern and the style's font are drawn as from files.
    func testHTTPSpritesAndGlyphsAreFetchedWithASessionsConfiguration() async throws {
        let site = try makeTemporaryDirectory(), folder = try makeTemporaryDirectory()
        try FileManager.default.copyItem(at: Self.glyphs, to: site.appendingPathComponent("fonts"))
        try writeSprite("sprite", in: site, color: RGBA(255, 0, 255), highDensity: false)
        let server = try LoopbackFileServer(root: site, test: self)
        let styleFile = folder.appendingPathComponent("style.json")
        try Data(style(sprite: server.url("/sprite"), glyphs: server.url("/fonts/{fontstack}/{range}.pbf"), labels: true).utf8).write(to: styleFile)
        let archive = VectorMapURLTests.archive("openmaptiles")

        let source = try VectorTileSource.open(archive, style: .file(styleFile), configuration: .ephemeral)
        XCTAssertEqual(source.lightStyle.warnings.filter { $0.contains("sprite") || $0.contains("glyphs") }, [], "both load")
        let glyphs = try XCTUnwrap(source.resources.glyphs)
        XCTAssertNotNil(glyphs.glyph(UInt32(("A" as Unicode.Scalar).value), fontStack: ["Open Sans Semibold", "Arial Unicode MS Bold"]))
        let drawn = try await map(session(source), size: 256)
        XCTAssertEqual(drawn[3, 3], RGBA(255, 0, 255), "the served sprite's pattern")
        XCTAssertEqual(glyphs.errors, [])
        let paths = server.requests.map(\.path)
        XCTAssertTrue(paths.contains("/sprite.json") && paths.contains("/sprite.png"), "\(paths)")
        XCTAssertTrue(paths.contains { $0.hasPrefix("/fonts/Open%20Sans%20Semibold") }, "\(paths)")

        // Without a configuration only files are read, and the style is told so.
        let filesOnly = try VectorTileSource.open(archive, style: .file(styleFile))
        XCTAssertTrue(filesOnly.resources.glyphs?.provider is BuiltInGlyphs, "the built-in glyphs stand in")
        XCTAssertTrue(filesOnly.lightStyle.warnings.contains { $0.contains("are not loaded: only files are read") }, "\(filesOnly.lightStyle.warnings)")
    }
}
