import Foundation
import MapRendering
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit
@testable import URLSchemeServer

/// The map-server routes (/tiles, /data, /styles, /fonts) of a real server on
/// a loopback port, drawing from the Helsinki PMTiles fixture.
final class TileRoutesTests: XCTestCase {
    /// The Helsinki OpenMapTiles archive (zooms 0–14 around 24.94 E, 60.17 N).
    static let archive = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MapRenderingTests/Fixtures/tiles/helsinki-openmaptiles.pmtiles")
    /// A z14 tile with streets in it.
    private let tile = "14/9327/4742"

    private func fixture(styles: [String: Data] = [:], configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> (ServerFixture, VectorTileSource) {
        let source = try VectorTileSource.open(Self.archive)
        var sources = MapTileSources()
        sources.register("hel", source)
        let environment = URLSchemeKitEnvironment(tileSources: sources, imageCache: QueryKeyedURLCache(memoryCapacity: 8 << 20, diskCapacity: 0, directory: nil),
                                                  httpCache: nil)
        return (try ServerFixture(environment: environment, test: self, styles: styles, configure: configure), source)
    }

    private func decode(_ data: Data) throws -> Bitmap {
        try ImageDecoder.decode(data).bitmap
    }

    func testARasterTileIsTheTilesSquareOfTheMapWithoutTheCornerCredit() async throws {
        let (fixture, _) = try fixture()
        let (png, response) = try await fixture.get("/tiles/hel/\(tile).png")
        XCTAssertEqual(response.statusCode, 200, String(decoding: png, as: UTF8.self))
        XCTAssertEqual(response.value(forHTTPHeaderField: "Content-Type"), "image/png")
        XCTAssertEqual(response.value(forHTTPHeaderField: "Cache-Control"), "public, max-age=86400")
        let bitmap = try decode(png)
        XCTAssertEqual([bitmap.width, bitmap.height], [256, 256])
        // The same square through /map, centred on the tile at its zoom: the same picture, but for the credit in its corner.
        let center = TilePath(z: 14, x: 9327, y: 4742, scale: 1, fileExtension: "png").center
        let mapQuery = "latitude=\(center.latitude)&longitude=\(center.longitude)&zoom=14&width=256&height=256&tiles=hel"
        let (credited, _) = try await fixture.get("/map?" + mapQuery)
        let (uncredited, _) = try await fixture.get("/map?" + mapQuery + "&attribution=none")
        XCTAssertEqual(uncredited, png, "a tile is map:// with attribution=none")
        XCTAssertNotEqual(credited, png, "map:// draws the credit by default")
        let corner = try decode(credited)
        var cornerDiffers = false, restSame = true
        for y in 0..<256 { for x in 0..<256 where corner[x, y] != bitmap[x, y] { if x > 100 && y > 230 { cornerDiffers = true } else { restSame = false } } }
        XCTAssertTrue(cornerDiffers && restSame, "only the bottom-right credit differs")
        // Not one colour: streets are drawn.
        XCTAssertGreaterThan(Set((0..<256).map { bitmap[$0, 128] }).count, 3)

        let (retina, _) = try await fixture.get("/tiles/hel/\(tile)@2x.jpg")
        let big = try decode(retina)
        XCTAssertEqual([big.width, big.height], [512, 512])
        XCTAssertEqual(Array(retina.prefix(2)), [0xFF, 0xD8], "a JPEG")

        let tag = try XCTUnwrap(response.value(forHTTPHeaderField: "ETag"))
        let (_, revalidated) = try await fixture.get("/tiles/hel/\(tile).png", headers: ["If-None-Match": tag])
        XCTAssertEqual(revalidated.statusCode, 304)
    }

    func testBadTilePathsAreNamed() async throws {
        let (fixture, _) = try fixture()
        let cases: [(String, Int, String)] = [
            ("/tiles/hel/3/8/0.png", 400, "tile column x '8' must be a whole number from 0 to 7"),
            ("/tiles/hel/21/0/0.png", 400, "tile zoom '21' must be a whole number from 0 to 20"),
            ("/tiles/hel/1/0/-1.png", 400, "tile row y '-1'"),
            ("/tiles/hel/1/0/0@9x.png", 400, "density '9x'"),
            ("/tiles/hel/1/0/0.gif", 404, "not '.gif'"),
            ("/tiles/city/1/0/0.png", 404, "no tile source 'city'; served: hel"),
            ("/tiles/a.b/1/0/0.png", 404, "no tile source 'a.b'"),
            ("/data/hel/1/0/0@2x.pbf", 400, "vector tiles have none"),
            ("/fonts/hel/Noto/19968-20223.pbf", 404, "no glyphs Noto/19968-20223.pbf"),
            ("/styles/hel/sprite.json", 404, "serves no sprite file"),
        ]
        for (target, status, message) in cases {
            let (body, response) = try await fixture.get(target)
            XCTAssertEqual(response.statusCode, status, target)
            XCTAssertTrue(String(decoding: body, as: UTF8.self).contains(message), "\(target): \(String(decoding: body, as: UTF8.self))")
            XCTAssertEqual(response.value(forHTTPHeaderField: "Cache-Control"), "no-store", target)
        }
    }

    func testTileJSONNamesTheTilesByTheHostAsked() async throws {
        let (fixture, source) = try fixture()
        let (data, response) = try await fixture.get("/tiles/hel.json")
        XCTAssertEqual(response.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertEqual(response.value(forHTTPHeaderField: "Vary"), "Host")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(json["tiles"] as? [String], ["http://127.0.0.1:\(fixture.port)/tiles/hel/{z}/{x}/{y}.png"])
        XCTAssertEqual(json["attribution"] as? String, source.attribution)
        XCTAssertEqual((json["bounds"] as? [Double])?.count, 4)

        let (vector, _) = try await fixture.get("/data/hel.json")
        let vectorJSON = try XCTUnwrap(JSONSerialization.jsonObject(with: vector) as? [String: Any])
        XCTAssertEqual(vectorJSON["tiles"] as? [String], ["http://127.0.0.1:\(fixture.port)/data/hel/{z}/{x}/{y}.pbf"])
        XCTAssertEqual(vectorJSON["maxzoom"] as? Int, 14)
        XCTAssertTrue((vectorJSON["vector_layers"] as? [[String: Any]])?.contains { $0["id"] as? String == "transportation" } ?? false)

        // Forwarded headers are not believed unless trusted; a Host that is no host is not used.
        let client = try fixture.client()
        client.send("GET /tiles/hel.json HTTP/1.1\r\nHost: maps.example:81\r\nX-Forwarded-Host: evil.example\r\nX-Forwarded-Proto: https\r\n\r\n")
        XCTAssertTrue(String(decoding: try XCTUnwrap(client.readAnswer()).body, as: UTF8.self).contains("\"http:\\/\\/maps.example:81\\/tiles\\/hel\\/"))
        client.send("GET /tiles/hel.json HTTP/1.1\r\nHost: a\"b<c\r\n\r\n")
        XCTAssertTrue(String(decoding: try XCTUnwrap(client.readAnswer()).body, as: UTF8.self).contains("127.0.0.1:\(fixture.port)\\/tiles"))
    }

    func testForwardedHeadersWhenTrustedAndThePublicURLAlways() async throws {
        let (trusting, _) = try fixture { $0.trustsForwardedHeaders = true }
        let client = try trusting.client()
        client.send("GET /data/hel.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Host: maps.example, inner\r\nX-Forwarded-Proto: https\r\n\r\n")
        let answer = try XCTUnwrap(client.readAnswer())
        XCTAssertTrue(String(decoding: answer.body, as: UTF8.self).contains("https:\\/\\/maps.example\\/data\\/hel\\/"), String(decoding: answer.body, as: UTF8.self))
        XCTAssertEqual(answer.headers["vary"], "Host, X-Forwarded-Host, X-Forwarded-Proto")

        let (published, _) = try fixture { $0.publicURL = "https://cdn.example/maps"; $0.trustsForwardedHeaders = true }
        let other = try published.client()
        other.send("GET /styles/hel/style.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Host: evil.example\r\n\r\n")
        let style = try XCTUnwrap(other.readAnswer())
        XCTAssertNil(style.headers["vary"], "one answer whatever the headers")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: style.body) as? [String: Any])
        let sources = try XCTUnwrap(json["sources"] as? [String: [String: Any]])
        XCTAssertEqual(sources.values.compactMap { $0["url"] as? String }, ["https://cdn.example/maps/data/hel.json"])
        let layers = try XCTUnwrap(json["layers"] as? [[String: Any]])
        XCTAssertFalse(layers.isEmpty)
        XCTAssertTrue(layers.contains { ($0["layout"] as? [String: Any])?["text-field"] != nil }, "text layers kept for GL JS")
        XCTAssertEqual(json["glyphs"] as? String, "https://cdn.example/maps/fonts/hel/{fontstack}/{range}.pbf", "the built-in glyphs, served here")
        let (glyphs, glyphResponse) = try await published.get("/fonts/hel/Noto%20Sans%20Regular/0-255.pbf")
        XCTAssertEqual(glyphResponse.statusCode, 200)
        XCTAssertEqual(glyphs, try BuiltInGlyphs().glyphRange(fontStack: "Noto Sans Regular", range: "0-255", limits: .default))
    }

    func testVectorTilesAreTheArchivesBytesGzippedWhenAccepted() async throws {
        let (fixture, source) = try fixture()
        let archive = try XCTUnwrap(source.tiles as? PMTilesArchive)
        let coordinate = TileCoordinate(z: 14, x: 9327, y: 4742)
        let stored = try XCTUnwrap(try archive.storedTileData(at: coordinate, cancellation: RenderCancellation()))
        let plain = try XCTUnwrap(try archive.tileData(at: coordinate))
        let client = try fixture.client()
        client.send("GET /data/hel/\(tile).pbf HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip, deflate\r\n\r\n")
        let gzipped = try XCTUnwrap(client.readAnswer())
        XCTAssertEqual(gzipped.status, 200)
        XCTAssertEqual(gzipped.headers["content-type"], "application/x-protobuf")
        XCTAssertEqual(Array(gzipped.body), stored)
        if stored.starts(with: [0x1F, 0x8B]) {
            XCTAssertEqual(gzipped.headers["content-encoding"], "gzip")
            XCTAssertEqual(gzipped.headers["vary"], "Accept-Encoding")
        }
        client.send("GET /data/hel/\(tile).pbf HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip;q=0\r\n\r\n")
        let inflated = try XCTUnwrap(client.readAnswer())
        XCTAssertEqual(Array(inflated.body), plain, "gzip refused: the tile inflated")
        XCTAssertNil(inflated.headers["content-encoding"])
        XCTAssertNotEqual(inflated.headers["etag"], gzipped.headers["etag"])
        client.send("GET /data/hel/14/0/0.pbf HTTP/1.1\r\nHost: x\r\n\r\n")
        let empty = try XCTUnwrap(client.readAnswer())
        XCTAssertEqual(empty.status, 204, "no tile there: empty, and cacheable")
        XCTAssertEqual(empty.headers["cache-control"], "public, max-age=86400")
    }

    func testAStyleGivenIsServedWithItsLocalSpritesAndGlyphs() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiles-style-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("fonts/Open Sans"), withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        try Data([1, 2, 3]).write(to: folder.appendingPathComponent("fonts/Open Sans/0-255.pbf"))
        try Data("{}".utf8).write(to: folder.appendingPathComponent("sprite@2x.json"))
        let style = """
        {"version": 8, "sources": {"omt": {"type": "vector", "url": "pmtiles://x.pmtiles"}},
         "glyphs": "file://\(folder.path)/fonts/{fontstack}/{range}.pbf", "sprite": "file://\(folder.path)/sprite",
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#fff"}},
                    {"id": "names", "type": "symbol", "source": "omt", "source-layer": "place", "layout": {"text-field": "{name}"}}]}
        """
        let (fixture, _) = try fixture(styles: ["hel": Data(style.utf8)])
        let (body, _) = try await fixture.get("/styles/hel/style.json")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: body) as? [String: Any])
        let base = "http://127.0.0.1:\(fixture.port)"
        XCTAssertEqual(json["glyphs"] as? String, "\(base)/fonts/hel/{fontstack}/{range}.pbf")
        XCTAssertEqual(json["sprite"] as? String, "\(base)/styles/hel/sprite")
        XCTAssertEqual((json["layers"] as? [Any])?.count, 2, "with glyphs the text layer stays")
        let (glyphs, glyphResponse) = try await fixture.get("/fonts/hel/Open%20Sans/0-255.pbf")
        XCTAssertEqual(glyphResponse.statusCode, 200)
        XCTAssertEqual(glyphs, Data([1, 2, 3]))
        let (sprite, _) = try await fixture.get("/styles/hel/sprite@2x.json")
        XCTAssertEqual(sprite, Data("{}".utf8))
        let (_, outside) = try await fixture.get("/fonts/hel/..%2F..%2Fetc/0-255.pbf")
        XCTAssertEqual(outside.statusCode, 404, "a font stack cannot leave the folder")
        let (_, badRange) = try await fixture.get("/fonts/hel/Open%20Sans/1-2.pbf")
        XCTAssertEqual(badRange.statusCode, 400)
    }

    func testTileserverGLStaticURLIsTheMapOneZoomUp() async throws {
        let (fixture, _) = try fixture()
        let (png, response) = try await fixture.get("/styles/hel/static/24.944,60.17,13/300x200@2x.png")
        XCTAssertEqual(response.statusCode, 200, String(decoding: png, as: UTF8.self))
        let (same, _) = try await fixture.get("/map?latitude=60.17&longitude=24.944&zoom=14.0&width=300&height=200&scale=2&tiles=hel")
        XCTAssertEqual(png, same, "MapLibre's zoom 13 is map://'s 14")
        let bitmap = try decode(png)
        XCTAssertEqual([bitmap.width, bitmap.height], [600, 400])
        let (turned, turnedResponse) = try await fixture.get("/styles/hel/static/24.944,60.17,13@-90,0/120x80.jpg")
        XCTAssertEqual(turnedResponse.statusCode, 200, String(decoding: turned, as: UTF8.self))
        let (pitched, pitchedResponse) = try await fixture.get("/styles/hel/static/24.944,60.17,13@0,30/120x80.png")
        XCTAssertEqual(pitchedResponse.statusCode, 400)
        XCTAssertTrue(String(decoding: pitched, as: UTF8.self).contains("pitch 30 is not supported"))
        let (tooBig, tooBigResponse) = try await fixture.get("/styles/hel/static/24.944,60.17,13/5000x80.png")
        XCTAssertEqual(tooBigResponse.statusCode, 400)
        XCTAssertTrue(String(decoding: tooBig, as: UTF8.self).contains("width"), String(decoding: tooBig, as: UTF8.self))
        let (_, badZoom) = try await fixture.get("/styles/hel/static/24.944,60.17,20/100x80.png")
        XCTAssertEqual(badZoom.statusCode, 400)
    }

    func testServeOptionsReadThePublicURLAndTrustProxy() throws {
        let configuration = try ServeOptions.configuration(arguments: ["--public-url", "https://maps.example/x/", "--trust-proxy"], environment: [:])
        XCTAssertEqual(configuration.publicURL, "https://maps.example/x")
        XCTAssertTrue(configuration.trustsForwardedHeaders)
        XCTAssertFalse(try ServeOptions.configuration(arguments: [], environment: [:]).trustsForwardedHeaders, "never trusted by default")
        XCTAssertTrue(try ServeOptions.configuration(arguments: [], environment: ["URLSCHEME_TRUST_PROXY": "1"]).trustsForwardedHeaders)
        XCTAssertThrowsError(try ServeOptions.configuration(arguments: ["--public-url", "ftp://x"], environment: [:])) { error in
            XCTAssertTrue("\(error)".hasPrefix("--public-url ftp://x: expected an http(s) URL"), "\(error)")
        }
    }
}

/// The slippy-map page at `/` and the Leaflet files it loads.
final class ViewerPageTests: XCTestCase {
    func testTheViewerLoadsLeafletFromTheGivenFolderAndNothingElseFromIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("leaflet-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        try Data("/* leaflet */".utf8).write(to: folder.appendingPathComponent("leaflet.js"))
        try Data("secret".utf8).write(to: folder.appendingPathComponent("other.txt"))
        var sources = MapTileSources()
        sources.register("hel", try VectorTileSource.open(TileRoutesTests.archive))
        let environment = URLSchemeKitEnvironment(tileSources: sources, imageCache: nil, httpCache: nil)
        let fixture = try ServerFixture(environment: environment, test: self) { $0.leafletDirectory = folder.path }
        let (page, response) = try await fixture.get("/")
        XCTAssertEqual(response.value(forHTTPHeaderField: "Content-Type"), "text/html; charset=utf-8")
        let html = String(decoding: page, as: UTF8.self)
        XCTAssertTrue(html.contains("<script src=\"/leaflet/leaflet.js\"></script>"))
        XCTAssertTrue(html.contains("const names = [\"hel\"];"))
        let (script, _) = try await fixture.get("/leaflet/leaflet.js")
        XCTAssertEqual(script, Data("/* leaflet */".utf8))
        for target in ["/leaflet/other.txt", "/leaflet/leaflet.css", "/leaflet/../leaflet/other.txt"] {
            let (_, refused) = try await fixture.get(target)
            XCTAssertEqual(refused.statusCode, 404, target)
        }

        let bare = try ServerFixture(environment: environment, test: self)
        let (help, _) = try await bare.get("/")
        XCTAssertTrue(String(decoding: help, as: UTF8.self).contains("libjs-leaflet"), "without Leaflet the page says how to get it")
        XCTAssertThrowsError(try ServeOptions.configuration(arguments: ["--leaflet", folder.appendingPathComponent("none").path], environment: [:]))
    }
}
