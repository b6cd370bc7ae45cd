import XCTest
import Raster
@testable import MapRendering

/// CSS colour parsing against values worked out from the CSS Color 4 definitions.
final class StyleColorTests: XCTestCase {
    private func assertColor(_ css: String, _ r: Double, _ g: Double, _ b: Double, _ a: Double = 1,
                             file: StaticString = #filePath, line: UInt = #line) {
        guard let color = StyleColor(css: css) else { return XCTFail("'\(css)' did not parse", file: file, line: line) }
        for (value, expected, channel) in [(color.red, r, "r"), (color.green, g, "g"), (color.blue, b, "b"), (color.alpha, a, "a")] {
            XCTAssertEqual(value, expected, accuracy: 1e-9, "\(css) \(channel)", file: file, line: line)
        }
    }

    func testEveryFormMapLibreAccepts() {
        assertColor("#f0c", 1, 0, 0.8)
        assertColor("#F0C8", 1, 0, 0.8, 0x88 / 255)
        assertColor("#11aa33", 0x11 / 255, 0xaa / 255, 0x33 / 255)
        assertColor("#11aa3380", 0x11 / 255, 0xaa / 255, 0x33 / 255, 0x80 / 255)
        assertColor("rgb(255, 128, 0)", 1, 128 / 255, 0)
        assertColor("rgba(255,0,0,0.25)", 1, 0, 0, 0.25)
        assertColor("rgba(100%, 50%, 0%, 50%)", 1, 0.5, 0, 0.5)
        assertColor("rgb(0 128 255 / 0.5)", 0, 128 / 255, 1, 0.5)
        assertColor("rgb(300, -5, 0)", 1, 0, 0)  // clamped
        assertColor("hsl(120, 100%, 25%)", 0, 0.5, 0)
        assertColor("hsla(240deg, 100%, 50%, 0.3)", 0, 0, 1, 0.3)
        assertColor("hsl(0 0% 83% / 20%)", 0.83, 0.83, 0.83, 0.2)
        assertColor("hsl(-120, 100%, 50%)", 0, 0, 1)  // hue wraps: -120° is 240°
        // Saturation and lightness without `%` are fractions, clamped, as MapLibre Native's parser reads them.
        assertColor("hsla(0, 0, 0, 0)", 0, 0, 0, 0)
        assertColor("hsl(120, 1, 0.25)", 0, 0.5, 0)
        assertColor("steelblue", 70 / 255, 130 / 255, 180 / 255)
        assertColor("  RED ", 1, 0, 0)
        assertColor("transparent", 0, 0, 0, 0)
    }

    func testRefusesWhatCSSRefuses() {
        for css in ["", "#12345", "#ggg", "rgb(1, 2)", "rgb(1, 2, 3, 4, 5)", "rgb(10%, 20, 30)", "rgb(1 2 3, 4)", "rgb(1, 2, 3 / 4)",
                    "hsl(10%, 20%, 30%)", "rgb(1,2,3", "rgb(nan, 0, 0)", "rgb(1e999, 0, 0)", "notacolour", "#"] {
            XCTAssertNil(StyleColor(css: css), css)
        }
    }

    func testEightBitConversion() {
        XCTAssertEqual(StyleColor(css: "#aad3df")?.rgba, RGBA(170, 211, 223))
        XCTAssertEqual(StyleColor(css: "rgba(0, 0, 0, 0.5)")?.rgba, RGBA(0, 0, 0, 128))
    }

    func testToStringAsMapLibre() {
        // MapLibre: Color.parse('rgba(26, 207, 26, .73)').toString() == "rgba(26,207,26,0.73)".
        XCTAssertEqual(StyleColor(css: "rgba(26, 207, 26, .73)")?.cssString, "rgba(26,207,26,0.73)")
        XCTAssertEqual(StyleColor(css: "purple")?.cssString, "rgba(128,0,128,1)")
    }
}
