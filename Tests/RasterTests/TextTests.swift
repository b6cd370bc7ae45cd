import XCTest
@testable import Raster

final class TextTests: XCTestCase {
    func testGlyphTableCoversPrintableASCII() {
        let font = FixedFont.fixed6x13
        XCTAssertEqual(font.rows.count, 95 * 13)
        // "A" has pixels, " " has none, "|" is a vertical bar in one column.
        XCTAssertTrue((0..<13).contains { y in (0..<6).contains { font.isSet("A", $0, y) } })
        XCTAssertFalse((0..<13).contains { y in (0..<6).contains { font.isSet(" ", $0, y) } })
        let size = font.size(of: "ab\ncde")
        XCTAssertEqual([size.width, size.height], [18, 26])
    }

    func testDrawsTextWithHaloClipped() throws {
        var canvas = try Canvas(width: 40, height: 20, background: RGBA(0, 0, 255))
        canvas.draw(text: "Hi", at: 2, 2, color: .white, halo: .black)
        let bitmap = canvas.bitmap
        let white = bitmap.pixels.indices.filter { $0 % 4 == 0 && bitmap.pixels[$0] == 255 }.count
        let black = (0..<(40 * 20)).filter { bitmap[$0 % 40, $0 / 40] == .black }.count
        XCTAssertGreaterThan(white, 10)
        XCTAssertGreaterThan(black, white)
        XCTAssertEqual(bitmap[39, 19], RGBA(0, 0, 255))
        // Off-canvas, huge offsets and non-ASCII are fine.
        canvas.draw(text: "é€\u{0}", at: -3, 15, color: .white)
        canvas.draw(text: "x", at: Int.max, Int.min, color: .white, halo: .black)
        canvas.draw(text: "", at: 0, 0, color: .white)
    }
}
