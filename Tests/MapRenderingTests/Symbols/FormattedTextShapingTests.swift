import XCTest
@testable import MapRendering
import Raster

/// `format` sections shaped against positions worked out by hand from
/// MapLibre's `shapeLines` (line content height, baseline offsets, image
/// metrics, `align` by block height when lines differ in height).
final class FormattedTextShapingTests: XCTestCase {
    func shaper(maxWidth: Double = 2400) -> TextShaper {
        TextShaper(glyph: TextShaperTests.glyph, maxWidth: maxWidth, lineHeight: 1.2 * 24, spacing: 0, anchor: .center, justify: .center,
                   translate: (0, 0))
    }

    func text(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    func testScaledSectionsShareTheLargestBaseline() throws {
        // "ab" at 1.5, "c" at 0.5: advances 15, 15, 5 (35 long, centred: indent 17.5).
        // The line is 36 high (1.5 em): "c" sits (1.5 − 0.5) · 24 = 24 lower. The line's
        // height 43.2 is not the layer's 28.8, so the block is centred by its height:
        // shift −43.2 / 2 + 17.
        let red = RGBA(255, 0, 0)
        let sections = [FormattedTextSection(scale: 1.5, fontStack: ["F"], color: red), FormattedTextSection(scale: 0.5, fontStack: ["F"], color: nil)]
        let shaped = try XCTUnwrap(shaper().shape(text("abc"), sections: sections, sectionOf: [0, 0, 1], textSize: 24) { c, _ in
            TextShaperTests.glyph(c)
        })
        XCTAssertEqual(shaped.glyphs.map(\.x), [-17.5, -2.5, 12.5])
        for (y, expected) in zip(shaped.glyphs.map(\.y), [-21.6, -21.6, 2.4]) { XCTAssertEqual(y, expected, accuracy: 1e-9) }
        XCTAssertEqual(shaped.glyphs.map(\.scale), [1.5, 1.5, 0.5])
        XCTAssertEqual(shaped.glyphs.map(\.color), [red, red, nil])
        XCTAssertEqual(shaped.top, -21.6, accuracy: 1e-9)
        XCTAssertEqual(shaped.bottom, 21.6, accuracy: 1e-9)
        XCTAssertEqual(shaped.right - shaped.left, 35, accuracy: 1e-9)
    }

    func testImagesGrowTheLineAndAllowBreaks() throws {
        // A 20 × 30 image after "a" (text 24 px: image scale 1): the line holds 30, the
        // image 6 taller than an em pushes the next line down; "a" sits 6 lower than
        // the image's top; x: "a" 0, image 10, line 30 long, centred.
        let sheet = try Bitmap(width: 20, height: 30, fill: RGBA(0, 0, 255))
        let image = SpriteImage(name: "i", x: 0, y: 0, width: 20, height: 30, pixelRatio: 1, sdf: false, stretchX: [], stretchY: [],
                                content: nil, sheet: sheet)
        let sections = [FormattedTextSection(scale: 1, fontStack: ["F"], color: nil),
                        FormattedTextSection(scale: 1, fontStack: ["F"], color: nil, image: image)]
        let one = try XCTUnwrap(shaper().shape([97, 0xE000], sections: sections, sectionOf: [0, 1], textSize: 24) { c, _ in
            TextShaperTests.glyph(c)
        })
        XCTAssertEqual(one.glyphs.map(\.x), [-15, -5])
        // Block 34.8 high (28.8 + 6): shifted by −17.4 + 17.
        for (y, expected) in zip(one.glyphs.map(\.y), [-11.4, -17.4]) { XCTAssertEqual(y, expected, accuracy: 1e-9) }
        XCTAssertNotNil(one.glyphs[1].image)
        XCTAssertEqual(one.bottom - one.top, 34.8, accuracy: 1e-9)
        // At text-size 48 the image is half as large in glyph pixels.
        let half = try XCTUnwrap(shaper().shape([97, 0xE000], sections: sections, sectionOf: [0, 1], textSize: 48) { c, _ in
            TextShaperTests.glyph(c)
        })
        XCTAssertEqual(half.glyphs[1].scale, 0.5)
        // "a", image, "b" with room for about one item a line: a break after the image (no space needed).
        let broken = try XCTUnwrap(shaper(maxWidth: 15).shape([97, 0xE000, 98], sections: sections, sectionOf: [0, 1, 0], textSize: 24) { c, _ in
            TextShaperTests.glyph(c)
        })
        XCTAssertGreaterThanOrEqual(broken.lineCount, 2)
        XCTAssertLessThan(broken.glyphs[1].y, broken.glyphs[2].y, "b goes on a line below the image")
    }
}
