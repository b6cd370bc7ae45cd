import XCTest
@testable import MapRendering

/// `interpolate-hcl`, `interpolate-lab` and a legacy function's `colorSpace`,
/// against values MapLibre's style specification computes.
final class StyleColorSpaceTests: XCTestCase {
    private func background(_ color: String, atZoom zoom: Double) throws -> StyleColor {
        let style = try VectorStyle(json: #"{"version": 8, "sources": {}, "layers": [{"id": "b", "type": "background", "paint": {"background-color": \#(color)}}]}"#)
        XCTAssertEqual(style.warnings, [])
        guard case .background(let background)? = style.layers.first?.kind else { throw FixtureError("no background layer") }
        return background.color.value(atZoom: zoom)
    }

    private func assertColor(_ color: StyleColor, _ red: Double, _ green: Double, _ blue: Double, accuracy: Double = 2,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(color.red * 255, red, accuracy: accuracy, "red", file: file, line: line)
        XCTAssertEqual(color.green * 255, green, accuracy: accuracy, "green", file: file, line: line)
        XCTAssertEqual(color.blue * 255, blue, accuracy: accuracy, "blue", file: file, line: line)
    }

    func testLabAndHclMidpointsDifferFromRGB() throws {
        // Midway from red to blue: RGB gives (127.5, 0, 127.5); Lab and HCL the style specification's values.
        let stops = #"["linear"], ["zoom"], 0, "rgb(255, 0, 0)", 10, "rgb(0, 0, 255)"]"#
        assertColor(try background(#"["interpolate", \#(stops)"#, atZoom: 5), 127.5, 0, 127.5)
        assertColor(try background(#"["interpolate-lab", \#(stops)"#, atZoom: 5), 193, 0, 136)
        // HCL takes the hue the short way, through magenta: chroma.js's LCH mix (D65 white) gives
        // (250, 0, 128); the specification's D50 white moves it a few units.
        assertColor(try background(#"["interpolate-hcl", \#(stops)"#, atZoom: 5), 250, 0, 128, accuracy: 8)
        // The ends are the stops themselves.
        assertColor(try background(#"["interpolate-hcl", \#(stops)"#, atZoom: 0), 255, 0, 0)
        assertColor(try background(#"["interpolate-lab", \#(stops)"#, atZoom: 10), 0, 0, 255)
    }

    func testALegacyFunctionsColorSpaceIsRead() throws {
        let function = #"{"stops": [[0, "rgb(255, 0, 0)"], [10, "rgb(0, 0, 255)"]], "colorSpace": "lab"}"#
        assertColor(try background(function, atZoom: 5), 193, 0, 136)
        XCTAssertThrowsError(try background(#"{"stops": [[0, "red"], [1, "blue"]], "colorSpace": "cmyk"}"#, atZoom: 0)) { error in
            XCTAssertTrue(String(describing: error).contains("colorSpace"), String(describing: error))
        }
    }
}
