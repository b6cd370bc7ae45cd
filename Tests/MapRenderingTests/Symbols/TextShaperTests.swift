import XCTest
@testable import MapRendering

/// Shaping against positions worked out by hand from MapLibre's `shaping.ts`
/// (`determineLineBreaks`, `shapeLines`, `justifyLine`, `align`).
final class TextShaperTests: XCTestCase {
    /// Letters advance 10 pixels, a space 5 (at the 24-pixel glyph size).
    static func glyph(_ codePoint: UInt32) -> SDFGlyph? {
        codePoint == 32 ? SDFGlyph(id: 32, width: 0, height: 0, left: 0, top: 0, advance: 5, bitmap: [])
            : SDFGlyph(id: codePoint, width: 1, height: 1, left: 0, top: 0, advance: 10, bitmap: [UInt8](repeating: 0, count: 49))
    }

    func shaper(maxWidth: Double, anchor: StyleTextAnchor = .center, justify: StyleTextJustify = .center,
                spacing: Double = 0, translate: (Double, Double) = (0, 0)) -> TextShaper {
        TextShaper(glyph: Self.glyph, maxWidth: maxWidth, lineHeight: 1.2 * 24, spacing: spacing, anchor: anchor, justify: justify, translate: translate)
    }

    func text(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    func testBalancedBreaksCentred() throws {
        // Total 70 px over text-max-width 2 ems (48): two lines, target 35. Breaking after
        // "aa bb" (40) then "cc" (20) costs 25 + 112.5, less than after "aa" (225 + 50).
        let shaped = try XCTUnwrap(shaper(maxWidth: 48).shape(text("aa bb cc")))
        XCTAssertEqual(shaped.lineCount, 2)
        XCTAssertEqual(shaped.glyphs.map(\.x), [-22.5, -12.5, -2.5, 2.5, 12.5, -10, 0])
        let ys = shaped.glyphs.map(\.y)
        for (y, expected) in zip(ys, [-31.4, -31.4, -31.4, -31.4, -31.4, -2.6, -2.6]) { XCTAssertEqual(y, expected, accuracy: 1e-9) }
        XCTAssertEqual(shaped.left, -22.5)
        XCTAssertEqual(shaped.right, 22.5)
        XCTAssertEqual(shaped.top, -28.8, accuracy: 1e-9)
        XCTAssertEqual(shaped.bottom, 28.8, accuracy: 1e-9)
    }

    func testArabicShapedThenEachLineReordered() throws {
        // "سلام" is one line, drawn right to left in its presentation forms: meem, lam-alef, seen.
        let word = try XCTUnwrap(shaper(maxWidth: 2400).shape(text("سلام")))
        XCTAssertEqual(word.glyphs.map(\.glyph.id), [0xFEE1, 0xFEFC, 0xFEB3])
        XCTAssertEqual(word.glyphs.map(\.x), [-15, -5, 5])
        // Lines are broken on the logical text, then each is reordered: "אב" first (on top), "abc (1)" second.
        let mixed = try XCTUnwrap(shaper(maxWidth: 0).shape(text("אב abc")))
        XCTAssertEqual(mixed.lineCount, 2)
        XCTAssertEqual(mixed.glyphs.map(\.glyph.id), [0x5D1, 0x5D0, 0x61, 0x62, 0x63])
        XCTAssertLessThan(mixed.glyphs[0].y, mixed.glyphs[2].y)
        // A bracket read right to left is drawn mirrored.
        let bracket = try XCTUnwrap(shaper(maxWidth: 2400).shape(text("א(ב)")))
        XCTAssertEqual(bracket.glyphs.map(\.glyph.id), [0x28, 0x5D1, 0x29, 0x5D0])
    }

    func testTopLeftAnchorJustifiesLeftWithOffset() throws {
        let shaped = try XCTUnwrap(shaper(maxWidth: 48, anchor: .topLeft, justify: StyleTextAnchor.topLeft.justification,
                                          translate: (24, -12)).shape(text("aa bb cc")))
        XCTAssertEqual(shaped.glyphs.map(\.x), [24, 34, 44, 49, 59, 24, 34])
        XCTAssertEqual(shaped.glyphs[0].y, -2.6 - 12, accuracy: 1e-9)
        XCTAssertEqual(shaped.glyphs[5].y, 26.2 - 12, accuracy: 1e-9)
        XCTAssertEqual(shaped.left, 24)
        XCTAssertEqual(shaped.top, -12)
        XCTAssertEqual(shaped.bottom, 57.6 - 12, accuracy: 1e-9)
    }

    func testLetterSpacingAndRightJustify() throws {
        // One line: "ab" with 2.4 px spacing is 22.4 wide; right-justified, right-anchored.
        let shaped = try XCTUnwrap(shaper(maxWidth: 240, anchor: .right, justify: .right, spacing: 2.4).shape(text("ab")))
        XCTAssertEqual(shaped.glyphs[0].x, -22.4, accuracy: 1e-9)
        XCTAssertEqual(shaped.glyphs[1].x, -10, accuracy: 1e-9)
        XCTAssertEqual(shaped.left, -22.4, accuracy: 1e-9)
        XCTAssertEqual(shaped.right, 0, accuracy: 1e-9)
    }

    func testNewlineForcesBreakAndZeroWidthBreaksEverywhere() throws {
        XCTAssertEqual(shaper(maxWidth: 2400).breakLines(text("a\nb")).count, 2)
        XCTAssertEqual(shaper(maxWidth: 0).breakLines(text("aa bb cc")).count, 3, "MapLibre's target width 0 breaks at every space")
        XCTAssertEqual(shaper(maxWidth: 2400).breakLines(text("aa bb cc")).count, 1)
    }

    func testRadialOffset() {
        let r = 24.0, h = r / 2.0.squareRoot()
        XCTAssertEqual(TextShaper.radialOffset(r, anchor: .top).y, r - 7)
        XCTAssertEqual(TextShaper.radialOffset(r, anchor: .bottomLeft).x, h)
        XCTAssertEqual(TextShaper.radialOffset(r, anchor: .bottomLeft).y, -h + 7)
        XCTAssertEqual(TextShaper.radialOffset(r, anchor: .right).x, -r)
    }
}
