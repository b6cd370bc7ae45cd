import XCTest
@testable import Raster

final class CompositingTests: XCTestCase {
    func testSourceOverStraightAlpha() throws {
        var base = try Bitmap(width: 4, height: 4, fill: RGBA(0, 0, 255))
        let overlay = try Bitmap(width: 2, height: 2, fill: RGBA(255, 0, 0, 128))
        try base.composite(overlay, at: 1, 1)
        XCTAssertEqual(base[0, 0], RGBA(0, 0, 255))
        XCTAssertEqual(base[1, 1], RGBA(128, 0, 127))
        // Over transparent, the overlay's colour stays (no darkening), alpha unchanged.
        var clear = try Bitmap(width: 2, height: 2)
        try clear.composite(overlay, at: 0, 0)
        XCTAssertEqual(clear[0, 0], RGBA(255, 0, 0, 128))
    }

    func testClippingAndExtremeOffsets() throws {
        var base = try Bitmap(width: 4, height: 4)
        let overlay = try Bitmap(width: 3, height: 3, fill: .white)
        try base.composite(overlay, at: -2, 3)
        XCTAssertEqual(base[0, 3], .white)
        XCTAssertEqual(base[1, 3], .clear)
        for (x, y) in [(Int.min, 0), (Int.max, Int.max), (0, Int.min), (Int.max - 1, -5)] {
            XCTAssertNoThrow(try base.composite(overlay, at: x, y))
        }
        XCTAssertThrowsError(try base.composite(overlay, at: 0, 0, opacity: .nan))
    }

    func testCircleAndRoundedMasks() throws {
        let square = try Bitmap(width: 40, height: 40, fill: .white)
        let circle = try square.masked(by: .circle)
        XCTAssertEqual(circle[20, 20].a, 255)
        XCTAssertEqual(circle[0, 0].a, 0)
        XCTAssertEqual(circle[0, 0].r, 255) // colour kept, alpha only
        let area = stride(from: 3, to: circle.pixels.count, by: 4).reduce(0.0) { $0 + Double(circle.pixels[$1]) } / 255
        XCTAssertEqual(area, Double.pi * 400, accuracy: 400 * .pi * 0.01)
        let rounded = try square.masked(by: .roundedRect(radius: 10))
        XCTAssertEqual(rounded[0, 0].a, 0)
        XCTAssertEqual(rounded[0, 20].a, 255)
        XCTAssertEqual(rounded[20, 0].a, 255)
        XCTAssertThrowsError(try square.masked(by: .roundedRect(radius: .nan)))
    }
}
