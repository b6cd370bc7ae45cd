import XCTest
@testable import Raster

final class BitmapTests: XCTestCase {
    func testStraightAlphaBytesRoundTripUnchanged() throws {
        let bytes: [UInt8] = [10, 20, 30, 40, 255, 0, 0, 128, 1, 2, 3, 0, 9, 9, 9, 255]
        let bitmap = try Bitmap(width: 2, height: 2, rgba: bytes)
        XCTAssertEqual(bitmap.pixels, bytes)
        XCTAssertEqual(bitmap[1, 0], RGBA(255, 0, 0, 128))
        XCTAssertEqual(bitmap[0, 1], RGBA(1, 2, 3, 0))
        XCTAssertFalse(bitmap.isOpaque)
    }

    func testFillAndOpacity() throws {
        let bitmap = try Bitmap(width: 3, height: 2, fill: RGBA(1, 2, 3))
        XCTAssertTrue(bitmap.isOpaque)
        XCTAssertEqual(bitmap[2, 1], RGBA(1, 2, 3))
    }

    func testBadSizesThrowNamingTheProblem() {
        XCTAssertThrowsError(try Bitmap(width: -1, height: 2)) { error in
            XCTAssertTrue("\(error)".contains("negative"), "\(error)")
        }
        XCTAssertThrowsError(try Bitmap(width: 1 << 20, height: 1 << 20))
        XCTAssertThrowsError(try Bitmap(width: 2, height: 2, rgba: [0, 0, 0])) { error in
            XCTAssertEqual(error as? RasterError, .bufferSizeMismatch(expected: 16, actual: 3))
        }
        XCTAssertNoThrow(try Bitmap(width: 0, height: 5))
    }

    func testHexColours() {
        XCTAssertEqual(RGBA(hex: "#ff8000"), RGBA(255, 128, 0))
        XCTAssertEqual(RGBA(hex: "FF800080"), RGBA(255, 128, 0, 128))
        XCTAssertNil(RGBA(hex: "red"))
        XCTAssertNil(RGBA(hex: "12345"))
        XCTAssertEqual(RGBA(255, 128, 0).hex, "ff8000")
        XCTAssertEqual(RGBA(1, 2, 3, 4).hex, "01020304")
    }
}
