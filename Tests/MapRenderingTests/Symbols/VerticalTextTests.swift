import XCTest
@testable import MapRendering
import Raster

/// Vertical writing (`text-writing-mode`) against MapLibre's rules and
/// positions worked out by hand from its `shaping.ts` and `quads.ts`.
final class VerticalTextTests: XCTestCase {
    func text(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    /// CJK characters advance a full em, Latin ones 10 pixels, a space 5.
    static func glyph(_ codePoint: UInt32) -> SDFGlyph? {
        let advance = codePoint == 32 ? 5 : codePoint >= 0x2E80 ? 24 : 10
        return SDFGlyph(id: codePoint, width: 1, height: 1, left: 0, top: 0, advance: advance, bitmap: [UInt8](repeating: 0, count: 49))
    }

    func shaper(placement: Bool, anchor: StyleTextAnchor = .center) -> TextShaper {
        TextShaper(glyph: Self.glyph, maxWidth: 240, lineHeight: 1.2 * 24, spacing: 0, anchor: anchor, justify: .left,
                   translate: (0, 0), vertical: true, verticalPlacement: placement)
    }

    func testOrientationOfCharacters() {
        XCTAssertTrue(VerticalText.hasUprightOrientation(0x30DE), "katakana マ stands")
        XCTAssertTrue(VerticalText.hasUprightOrientation(0x6C23), "the ideograph 氣 stands")
        XCTAssertTrue(VerticalText.hasUprightOrientation(0xAC00), "Hangul stands")
        XCTAssertFalse(VerticalText.hasUprightOrientation(0x30FC), "the prolonged sound mark ー turns")
        XCTAssertFalse(VerticalText.hasUprightOrientation(0xFF08), "a fullwidth parenthesis turns")
        XCTAssertTrue(VerticalText.hasRotatedOrientation(0x61), "a Latin letter turns")
        XCTAssertFalse(VerticalText.hasRotatedOrientation(0x3002), "the ideographic full stop is neutral")
        XCTAssertFalse(VerticalText.allowsVerticalWritingMode(text("Mapbox")))
        XCTAssertTrue(VerticalText.allowsVerticalWritingMode(text("Mapbox マップ")))
        XCTAssertTrue(VerticalText.isComplexShaping(0x0646))
    }

    func testPunctuationTakesVerticalFormsBesideCJK() {
        XCTAssertEqual(VerticalText.verticalizePunctuation(text("氣—到（身）。")), text("氣︱到︵身︶︒"))
        XCTAssertEqual(VerticalText.verticalizePunctuation(text("“氣”…")), text("﹁氣﹂︙"))
        // Between Latin letters a mark keeps its form: the word turns as a whole.
        XCTAssertEqual(VerticalText.verticalizePunctuation(text("a.b")), text("a.b"))
        XCTAssertEqual(VerticalText.verticalizePunctuation(text("身.")), text("身・"))
    }

    func testVerticalShapingAdvancesOneEmPerUprightCharacter() throws {
        // A point label: every character stands (a Latin one too), each one em along the line.
        let shaped = try XCTUnwrap(shaper(placement: true).shape(text("一a二")))
        XCTAssertEqual(shaped.glyphs.map(\.upright), [true, true, true])
        // 72 long, left-justified, centred on the anchor: shifted by half.
        XCTAssertEqual(shaped.glyphs.map(\.x), [-36, -12, 12])
        XCTAssertEqual(shaped.glyphs.map(\.y), [-17, -17, -17])
        // A line label: only the ideographs stand; the letter advances by its own width.
        let line = try XCTUnwrap(shaper(placement: false).shape(text("一a二")))
        XCTAssertEqual(line.glyphs.map(\.upright), [true, false, true])
        XCTAssertEqual(line.glyphs.map(\.x), [-29, -5, 5])
        // Punctuation is shaped in its vertical form.
        XCTAssertEqual(try XCTUnwrap(shaper(placement: true).shape(text("一。"))).glyphs.map(\.glyph.id), [0x4E00, 0xFE12])
    }

    func testVerticalLabelTurnsTheBoxAndKeepsUprightGlyphsUnturned() throws {
        let shaped = try XCTUnwrap(shaper(placement: true).shape(text("一二")))
        XCTAssertEqual(shaped.left, -24)
        XCTAssertEqual(shaped.top, -14.4, accuracy: 1e-9)
        let label = shaped.verticalLabel()
        // The box turned a quarter clockwise: as tall as the text was long.
        XCTAssertEqual(label.left, -14.4, accuracy: 1e-9)
        XCTAssertEqual(label.right, 14.4, accuracy: 1e-9)
        XCTAssertEqual(label.top, -24)
        XCTAssertEqual(label.bottom, 24)
        // Each glyph one under the other: pen x −halfAdvance − 17 − y, pen y x − 7 (MapLibre's turned quad).
        XCTAssertEqual(label.glyphs.map(\.x), [-12, -12])
        XCTAssertEqual(label.glyphs.map(\.y), [-31, -7])
        XCTAssertEqual(label.glyphs.map(\.sideways), [false, false])
        // Arabic stays in the line, turned with it.
        let mixed = try XCTUnwrap(shaper(placement: true).shape(text("一\u{0646}"))).verticalLabel()
        XCTAssertEqual(mixed.glyphs.map(\.sideways), [false, true])
    }

    func testSidewaysGlyphIsDrawnTurnedAQuarter() throws {
        // A 1 × 3 bar of full field drawn sideways lies across three columns and one row.
        let bar = SDFGlyph(id: 1, width: 1, height: 3, left: 0, top: 0, advance: 1,
                           bitmap: [UInt8](repeating: 255, count: (1 + 2 * SDFGlyph.border) * (3 + 2 * SDFGlyph.border)))
        func ink(sideways: Bool) throws -> (columns: Int, rows: Int) {
            var canvas = try Canvas(width: 40, height: 40, background: .white)
            let text = ShapedText(glyphs: [.init(glyph: bar, x: 0, y: 0, sideways: sideways)], left: 0, top: 0, right: 1, bottom: 3, lineCount: 1)
            let paint = SDFTextDrawer.Paint(fontScale: 4, pixelRatio: 1, color: RGBA(0, 0, 0), halo: nil, haloWidth: 0, haloBlur: 0)
            try SDFTextDrawer.draw(text, at: Point(20, 20), angle: 0, paint: paint, halo: false, on: &canvas)
            var columns = Set<Int>(), rows = Set<Int>()
            for y in 0..<40 { for x in 0..<40 where canvas.bitmap[x, y].r < 128 { columns.insert(x); rows.insert(y) } }
            return (columns.count, rows.count)
        }
        let upright = try ink(sideways: false), turned = try ink(sideways: true)
        XCTAssertGreaterThan(upright.rows, upright.columns)
        XCTAssertEqual(turned.columns, upright.rows)
        XCTAssertEqual(turned.rows, upright.columns)
    }

    func testSteepLinesTakeTheVerticalLabelReadingDownwards() throws {
        let down = LineGlyphPlacer(line: [Point(50, 0), Point(50, 100)], anchor: Point(50, 50), segment: 0)
        let up = LineGlyphPlacer(line: [Point(50, 100), Point(50, 0)], anchor: Point(50, 50), segment: 0)
        let flat = LineGlyphPlacer(line: [Point(0, 50), Point(100, 50)], anchor: Point(50, 50), segment: 0)
        XCTAssertTrue(down.isSteep(under: [-10, 10]))
        XCTAssertTrue(up.isSteep(under: [-10, 10]))
        XCTAssertFalse(flat.isSteep(under: [-10, 10]))
        XCTAssertFalse(down.isSteep(under: [-80, 10]), "a glyph off the line: no label at all")
        // Down the view the first glyph is above the last; up it the line is walked backwards.
        let downwards = try XCTUnwrap(down.placeVertically([-10, 10]))
        XCTAssertEqual(downwards.map(\.point.y), [40, 60])
        XCTAssertEqual(downwards[0].angle, .pi / 2, accuracy: 1e-9)
        let flipped = try XCTUnwrap(up.placeVertically([-10, 10]))
        XCTAssertEqual(flipped.map(\.point.y), [40, 60])
        XCTAssertEqual(cos(flipped[0].angle), 0, accuracy: 1e-9)
        XCTAssertEqual(sin(flipped[0].angle), 1, accuracy: 1e-9)
    }
}
