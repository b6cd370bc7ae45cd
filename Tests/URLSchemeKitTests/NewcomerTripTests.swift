import XCTest
import ImageCodecs
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 41's newcomer, replayed: each trip that used to pass in silence (a
/// `200`, exit 0, nothing said) driven through the built `urlscheme` as they
/// drove it, now answered on standard error.
final class NewcomerTripTests: XCTestCase {
    static let tiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MapRenderingTests/Fixtures/tiles")
    static let archive = tiles.appendingPathComponent("helsinki-openmaptiles.pmtiles").path
    static let map = "map://?latitude=60.170&longitude=24.945&zoom=15&width=200&height=150&tiles=hel"

    /// A style of their own with a `circle` layer, a `fill-pattern`, the typo
    /// `line-colour` and Protomaps' `buildings` on an OpenMapTiles archive.
    static let style = """
        {
          "version": 8,
          "sources": {"hel": {"type": "vector", "url": "pmtiles://hel.pmtiles"}},
          "layers": [
            {"id": "bg", "type": "background", "paint": {"background-color": "#f8f4f0"}},
            {"id": "pois", "type": "circle", "source": "hel", "source-layer": "poi"},
            {"id": "parks", "type": "fill", "source": "hel", "source-layer": "park", "paint": {"fill-pattern": "dots", "fill-color": "green"}},
            {"id": "houses", "type": "fill", "source": "hel", "source-layer": "buildings", "paint": {"fill-color": "#ccc"}},
            {"id": "roads-casing", "type": "line", "source": "hel", "source-layer": "transportation",
             "paint": {"line-colour": "#999", "line-width": 3}}
          ]
        }
        """

    /// Trips 1, 2 and 8: every warning printed once, with the style's file
    /// name, before the status line; `--strict` makes them an error.
    func testAStylesWarningsArePrintedWithItsFileName() throws {
        _ = try CLIBinary.require()
        let directory = try makeTemporaryDirectory()
        try Data(Self.style.utf8).write(to: directory.appendingPathComponent("my.json"))
        let drawn = try ToolRun(["get", Self.map, "--no-cache", "--tiles", "hel=\(Self.archive),style=my.json", "-o", "map.png"], in: directory)
        XCTAssertEqual(drawn.status, 0, drawn.stderr)
        let lines = drawn.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(lines.dropLast()), [
            "urlscheme: warning: my.json: layer 'pois': layer type 'circle' is not supported",
            "urlscheme: warning: my.json: layer 'parks': paint property 'fill-pattern' is not supported",
            "urlscheme: warning: my.json: layer 'roads-casing': paint property 'line-colour' is not supported; did you mean 'line-color'?",
            "urlscheme: warning: my.json: layer 'houses': source-layer 'buildings' is not in the tiles, so the layer draws nothing; "
                + "did you mean 'building'? (the tiles have aerodrome_label, aeroway, boundary, building, housenumber, landcover, landuse, "
                + "mountain_peak, park, place, poi, transportation, transportation_name, water, water_name, waterway)",
        ])
        XCTAssertTrue(lines.last?.hasPrefix("200 image/png ") == true, drawn.stderr)

        let strict = try ToolRun(["get", Self.map, "--no-cache", "--strict", "--tiles", "hel=\(Self.archive),style=my.json", "-o", "strict.png"], in: directory)
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.stderr.hasSuffix("urlscheme: --tiles hel: the style has 4 warnings, and --strict makes them errors\n"), strict.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("strict.png").path))

        // The built-in style has nothing to warn of: --strict passes.
        let builtin = try ToolRun(["get", Self.map, "--no-cache", "--strict", "--tiles", "hel=\(Self.archive)", "-o", "builtin.png"], in: directory)
        XCTAssertEqual(builtin.status, 0, builtin.stderr)
        XCTAssertFalse(builtin.stderr.contains("warning"), builtin.stderr)
    }

    /// Trip 4: a style error names the style's file, line and column, then the
    /// layer and property, in one sentence; so does a JSON syntax error.
    func testStyleErrorsNameTheFileLineAndColumn() throws {
        _ = try CLIBinary.require()
        let directory = try makeTemporaryDirectory()
        try Data(Self.style.replacingOccurrences(of: #""line-width": 3"#, with: #""line-width": "wide""#).utf8)
            .write(to: directory.appendingPathComponent("my.json"))
        let wide = try ToolRun(["get", Self.map, "--no-cache", "--tiles", "hel=\(Self.archive),style=my.json"], in: directory)
        XCTAssertEqual(wide.status, 1)
        XCTAssertEqual(wide.stderr, "urlscheme: my.json:10:53: layer 'roads-casing': paint 'line-width': 'wide' is not a valid value\n")

        try Data(Self.style.replacingOccurrences(of: #""line-width": 3"#, with: #""line-width": 3,"#).utf8)
            .write(to: directory.appendingPathComponent("comma.json"))
        let comma = try ToolRun(["get", Self.map, "--no-cache", "--tiles", "hel=\(Self.archive),style=comma.json"], in: directory)
        XCTAssertEqual(comma.status, 1)
        XCTAssertEqual(comma.stderr, "urlscheme: comma.json:10:55: the style is not valid JSON: a member name expected\n")
    }

    /// Trip 5: a missing archive is named once, as given, in our words; an
    /// MBTiles file is named as not read, with the command that converts it.
    func testFileErrorsNameThePathOnceAndMBTilesTheConversion() throws {
        _ = try CLIBinary.require()
        let directory = try makeTemporaryDirectory()
        try FileManager.default.copyItem(atPath: Self.tiles.appendingPathComponent("helsinki-openmaptiles.mbtiles").path,
                                         toPath: directory.appendingPathComponent("hel.mbtiles").path)
        let missing = try ToolRun(["get", Self.map, "--no-cache", "--tiles", "hel=hel.pmtiles"], in: directory)
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "urlscheme: --tiles hel: hel.pmtiles: no such file\n")

        let mbtiles = try ToolRun(["get", Self.map, "--no-cache", "--tiles", "hel=hel.mbtiles"], in: directory)
        XCTAssertEqual(mbtiles.status, 1)
        XCTAssertEqual(mbtiles.stderr, "urlscheme: --tiles hel: hel.mbtiles is an MBTiles file, which urlscheme does not read; convert it once with "
                       + "'pmtiles convert hel.mbtiles hel.pmtiles' (https://github.com/protomaps/go-pmtiles) and give hel.pmtiles\n")
    }
}
