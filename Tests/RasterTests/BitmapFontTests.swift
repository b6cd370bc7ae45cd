import XCTest
@testable import Raster

final class BitmapFontTests: XCTestCase {
    func testTextIsTheFontsGlyphsScaledIntoBlocks() throws {
        let font = BitmapFont.fixed6x13
        var canvas = try Canvas(width: 20, height: 30, background: .white)
        canvas.drawText("A", x: 1, y: 2, scale: 2, color: .black)
        for gy in 0..<font.cellHeight {
            for gx in 0..<font.cellWidth {
                let expected = font.isSet("A", x: gx, y: gy) ? RGBA.black : RGBA.white
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    XCTAssertEqual(canvas.bitmap[1 + gx * 2 + dx, 2 + gy * 2 + dy], expected, "glyph pixel (\(gx), \(gy))")
                }
            }
        }
        // The crossbar of 'A' (row 7 of misc-fixed 6x13) is set across the glyph.
        XCTAssertTrue((1...4).allSatisfy { font.isSet("A", x: $0, y: 7) })
        XCTAssertEqual(font.size(of: "Natural Earth", scale: 2).width, 13 * 6 * 2)
    }

    func testAHaloSurroundsTheStrokesAndUnknownCharactersDrawAsQuestionMarks() throws {
        var canvas = try Canvas(width: 12, height: 16, background: .white)
        canvas.drawText("!", x: 0, y: 0, color: .black, halo: RGBA(255, 0, 0))
        // '!' is a vertical bar at column 2 of its cell: its neighbours are halo.
        XCTAssertEqual(canvas.bitmap[2, 4], .black)
        XCTAssertEqual(canvas.bitmap[1, 4], RGBA(255, 0, 0))
        XCTAssertEqual(canvas.bitmap[3, 4], RGBA(255, 0, 0))
        XCTAssertEqual(canvas.bitmap[5, 4], .white)
        for x in 0..<6 {
            for y in 0..<13 { XCTAssertEqual(BitmapFont.fixed6x13.isSet("é", x: x, y: y), BitmapFont.fixed6x13.isSet("?", x: x, y: y)) }
        }
    }

    func testTextOutsideTheBitmapIsClippedNotACrash() throws {
        var canvas = try Canvas(width: 10, height: 10)
        canvas.drawText("Hello", x: -7, y: -5, scale: 3, color: .black, halo: .white)
        canvas.drawText("Hello", x: 8, y: 8, scale: 3, color: .black)
        canvas.drawText("", x: 0, y: 0, color: .black)
        var empty = try Canvas(width: 0, height: 0)
        empty.drawText("x", x: 0, y: 0, color: .black)
    }
}
