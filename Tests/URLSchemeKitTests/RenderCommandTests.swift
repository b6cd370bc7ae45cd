import XCTest
import ImageCodecs
import MapRendering
import Raster

/// `urlscheme render STYLE.json` run as a user runs it: a style beside its
/// archive, with a GeoJSON source and glyphs on a real HTTP server on loopback.
final class RenderCommandTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MapRenderingTests/Fixtures")

    func testRendersAStyleFromFilesAndHTTP() throws {
        let root = try makeTemporaryDirectory()
        let site = root.appendingPathComponent("site"), styles = root.appendingPathComponent("styles")
        for folder in [site, styles] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("tiles/helsinki-openmaptiles.pmtiles"),
                                        to: styles.appendingPathComponent("hel.pmtiles"))
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("maplibre-render-tests/glyphs"), to: site.appendingPathComponent("fonts"))
        try Data(#"{"type": "Point", "coordinates": [24.945, 60.17]}"#.utf8).write(to: site.appendingPathComponent("pins.geojson"))
        let server = try LoopbackFileServer(root: site, test: self)
        let style = ##"""
        {"version": 8, "center": [24.945, 60.17], "zoom": 14, "bearing": 30,
         "glyphs": "\##(server.url("/fonts"))/{fontstack}/{range}.pbf",
         "sources": {"hel": {"type": "vector", "url": "pmtiles://hel.pmtiles"},
                     "pins": {"type": "geojson", "data": "\##(server.url("/pins.geojson"))"}},
         "layers": [
          {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
          {"id": "names", "type": "symbol", "source": "hel", "source-layer": "transportation_name",
           "layout": {"symbol-placement": "line", "text-field": "{name:latin}", "text-font": ["Open Sans Semibold", "Arial Unicode MS Bold"]}},
          {"id": "pin", "type": "circle", "source": "pins", "paint": {"circle-radius": 6, "circle-color": "#ff0000"}}]}
        """##
        let styleFile = styles.appendingPathComponent("style.json")
        try Data(style.utf8).write(to: styleFile)
        let output = root.appendingPathComponent("map.png")

        let run = try ToolRun(["render", styleFile.path, "-o", output.path, "--size", "200x120", "--no-cache"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let bitmap = try PNGDecoder().decode(Data(contentsOf: output))
        XCTAssertEqual([bitmap.width, bitmap.height], [200, 120])
        // The 6-point pin covers the middle four pixels, turned or not.
        let isRed = { (pixel: RGBA) in pixel.r > 200 && pixel.g < 80 && pixel.b < 80 }
        XCTAssertTrue([bitmap[99, 59], bitmap[100, 60], bitmap[95, 60], bitmap[104, 59]].allSatisfy(isRed),
                      "the GeoJSON pin from the server, at the style's centre under its bearing")
        XCTAssertTrue(server.requests.contains { $0.path.hasPrefix("/fonts/Open%20Sans%20Semibold") }, "\(server.requests.map(\.path))")
        let dark = (0..<bitmap.height).reduce(0) { sum, y in sum + (0..<bitmap.width).filter { bitmap[$0, y].r < 100 }.count }
        XCTAssertGreaterThan(dark, 30, "labels from the served glyphs")

        let moved = try ToolRun(["render", styleFile.path, "-o", output.path, "--size", "200x120", "--no-cache", "--center", "24.9,60.17"])
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertFalse(isRed(try PNGDecoder().decode(Data(contentsOf: output))[100, 60]), "--center moves the camera off the pin")

        let badSize = try ToolRun(["render", styleFile.path, "--size", "0x10"])
        XCTAssertEqual(badSize.status, 2)
        XCTAssertEqual(badSize.stderr, "urlscheme: --size 0x10: not WIDTHxHEIGHT, each from 1 to 4096\n")
        try FileManager.default.removeItem(at: styles.appendingPathComponent("hel.pmtiles"))
        let missing = try ToolRun(["render", styleFile.path, "--no-cache"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("hel.pmtiles"), missing.stderr)
    }

    /// A source whose `url` is a TileJSON document on a server (as
    /// OpenMapTiles and MapTiler styles name theirs), its `tiles` relative to
    /// the document: drawn as the archive the tiles came from is drawn.
    func testATileJSONSourceOverHTTPDrawsAsItsArchive() throws {
        let root = try makeTemporaryDirectory()
        let site = root.appendingPathComponent("site")
        let archiveFile = root.appendingPathComponent("hel.pmtiles")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("tiles/helsinki-openmaptiles.pmtiles"), to: archiveFile)
        let archive = try PMTilesArchive(url: archiveFile)
        for x in 4662...4664 {
            for y in 2370...2372 {
                guard let bytes = try archive.tileData(at: TileCoordinate(z: 13, x: x, y: y)) else { continue }
                let file = site.appendingPathComponent("v3/13/\(x)/\(y).pbf")
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(bytes).write(to: file)
            }
        }
        try Data(#"{"tilejson": "3.0.0", "tiles": ["{z}/{x}/{y}.pbf"], "minzoom": 13, "maxzoom": 13}"#.utf8)
            .write(to: site.appendingPathComponent("v3/tiles.json"))
        let server = try LoopbackFileServer(root: site, test: self)
        func style(_ source: String) -> String {
            ##"""
            {"version": 8, "center": [24.945, 60.17], "zoom": 13.3,
             "sources": {"hel": {"type": "vector", \##(source)}},
             "layers": [
              {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
              {"id": "water", "type": "fill", "source": "hel", "source-layer": "water", "paint": {"fill-color": "#0000ff"}},
              {"id": "roads", "type": "line", "source": "hel", "source-layer": "transportation", "paint": {"line-color": "#000000"}}]}
            """##
        }
        var drawn: [Bitmap] = []
        for (name, source) in [("archive", #""url": "pmtiles://hel.pmtiles", "maxzoom": 13"#),
                               ("tilejson", #""url": "\#(server.url("/v3/tiles.json"))""#)] {
            let styleFile = root.appendingPathComponent("\(name).json"), output = root.appendingPathComponent("\(name).png")
            try Data(style(source).utf8).write(to: styleFile)
            let run = try ToolRun(["render", styleFile.path, "-o", output.path, "--size", "160x120", "--no-cache"])
            XCTAssertEqual(run.status, 0, run.stderr)
            drawn.append(try PNGDecoder().decode(Data(contentsOf: output)))
        }
        let blank = try Bitmap(width: 160, height: 120, fill: RGBA(255, 255, 255))
        XCTAssertTrue(drawn[0].pixels != blank.pixels, "the archive draws roads or water")
        XCTAssertTrue(drawn[0].pixels == drawn[1].pixels, "the TileJSON's tiles draw as the archive's")
        XCTAssertTrue(server.requests.contains { $0.path == "/v3/tiles.json" }, "\(server.requests.map(\.path))")
        XCTAssertTrue(server.requests.contains { $0.path.hasPrefix("/v3/13/") }, "tiles relative to the TileJSON")
    }
}
