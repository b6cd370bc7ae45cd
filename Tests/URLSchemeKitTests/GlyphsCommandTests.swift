import XCTest
import ImageCodecs
import Raster

/// `urlscheme glyphs FONT.ttf OUT` run as a user runs it: glyph ranges made
/// from a font, then a style drawn with them by `urlscheme render`, beside
/// the same style drawn with fontnik's ranges of the same font.
final class GlyphsCommandTests: XCTestCase {
    func testMadeGlyphsDrawALabelAsFontniksDo() throws {
        let root = try makeTemporaryDirectory()
        let font = RenderCommandTests.fixtures.appendingPathComponent("fonts/OpenSans-Semibold.ttf")
        let made = try ToolRun(["glyphs", font.path, root.appendingPathComponent("ours").path, "--ranges", "0-255"])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(made.stderr.hasPrefix("urlscheme: 1 glyph ranges, 191 glyphs of 'Open Sans Semibold' in "), made.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("ours/Open Sans Semibold/0-255.pbf").path))
        // fontnik's ranges of the same font, under the same font stack name.
        try FileManager.default.createDirectory(at: root.appendingPathComponent("fontnik"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: RenderCommandTests.fixtures.appendingPathComponent("maplibre-render-tests/glyphs/Open Sans Semibold,Arial Unicode MS Bold"),
                                        to: root.appendingPathComponent("fontnik/Open Sans Semibold"))

        func render(_ glyphs: String) throws -> Bitmap {
            let style = ##"""
            {"version": 8, "center": [0, 0], "zoom": 2, "glyphs": "\##(glyphs)/{fontstack}/{range}.pbf",
             "sources": {"place": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
             "layers": [
              {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
              {"id": "name", "type": "symbol", "source": "place",
               "layout": {"text-field": "Helsinki 59°", "text-font": ["Open Sans Semibold"], "text-size": 20}}]}
            """##
            let styleFile = root.appendingPathComponent("style-\(glyphs).json"), output = root.appendingPathComponent("\(glyphs).png")
            try Data(style.utf8).write(to: styleFile)
            let run = try ToolRun(["render", styleFile.path, "-o", output.path, "--size", "200x60", "--no-cache"])
            XCTAssertEqual(run.status, 0, run.stderr)
            return try PNGDecoder().decode(Data(contentsOf: output))
        }
        let ours = try render("ours"), fontnik = try render("fontnik")
        var dark = 0, differing = 0
        for y in 0..<ours.height {
            for x in 0..<ours.width {
                let a = ours[x, y], b = fontnik[x, y]
                if a.r < 128 { dark += 1 }
                if max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b))) > 64 { differing += 1 }
            }
        }
        XCTAssertGreaterThan(dark, 150, "the label is drawn with the made glyphs")
        XCTAssertLessThan(differing, dark / 10, "as fontnik's glyphs draw it: \(differing) pixels differ, \(dark) dark")
    }

    func testBadFontsAndOptionsAreOneLineNamingThem() throws {
        let root = try makeTemporaryDirectory()
        let notAFont = root.appendingPathComponent("font.ttf")
        try Data("not a font at all".utf8).write(to: notAFont)
        let bad = try ToolRun(["glyphs", notAFont.path, root.appendingPathComponent("out").path])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.hasPrefix("urlscheme: \(notAFont.path): not a TrueType font we read: "), bad.stderr)
        let missing = try ToolRun(["glyphs", root.appendingPathComponent("none.ttf").path, root.path])
        XCTAssertEqual(missing.stderr, "urlscheme: \(root.appendingPathComponent("none.ttf").path): no such file or not readable\n")
        let ranges = try ToolRun(["glyphs", notAFont.path, root.path, "--ranges", "300-20"])
        XCTAssertEqual(ranges.status, 2)
        XCTAssertTrue(ranges.stderr.hasPrefix("urlscheme: --ranges 300-20: expected FIRST-LAST"), ranges.stderr)
        let font = RenderCommandTests.fixtures.appendingPathComponent("fonts/OpenSans-Semibold.ttf")
        let name = try ToolRun(["glyphs", font.path, root.path, "--name", "../up"])
        XCTAssertEqual(name.status, 2)
        XCTAssertTrue(name.stderr.hasPrefix("urlscheme: --name '../up': a font stack name is a folder name"), name.stderr)
    }
}
