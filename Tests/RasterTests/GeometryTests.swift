import XCTest
@testable import Raster

final class GeometryTests: XCTestCase {
    /// A 3×2 bitmap whose pixels are all different.
    private func sample() throws -> Bitmap {
        try Bitmap(width: 3, height: 2, rgba: (0..<24).map { UInt8($0 * 10) })
    }

    func testRotationStopsWhenCancellationThrows() throws {
        struct Stop: Error {}
        let tall = try Bitmap(width: 4, height: 200, rgba: [UInt8](repeating: 200, count: 4 * 200 * 4))
        for degrees in [90.0, 30] {
            var calls = 0
            XCTAssertThrowsError(try tall.rotated(by: degrees, checkCancellation: { calls += 1; throw Stop() }), "\(degrees)°") {
                XCTAssertTrue($0 is Stop)
            }
            XCTAssertEqual(calls, 1)
        }
    }

    func testQuarterTurnsMovePixelsExactly() throws {
        let b = try sample()
        let r90 = try b.rotated(by: 90)
        XCTAssertEqual([r90.width, r90.height], [2, 3])
        // Clockwise: the bottom-left pixel becomes the top-left.
        XCTAssertEqual(r90[0, 0], b[0, 1])
        XCTAssertEqual(r90[1, 0], b[0, 0])
        XCTAssertEqual(r90[0, 2], b[2, 1])
        XCTAssertEqual(try b.rotated(by: 180), b.flipped(.horizontal).flipped(.vertical))
        XCTAssertEqual(try b.rotated(by: 270), try b.rotated(by: -90))
        XCTAssertEqual(try r90.rotated(by: 270), b)
        XCTAssertEqual(try b.rotated(by: 720), b)
    }

    func testFlipsAreExactAndInvolutions() throws {
        let b = try sample()
        let h = b.flipped(.horizontal)
        XCTAssertEqual(h[0, 0], b[2, 0])
        XCTAssertEqual(h[2, 1], b[0, 1])
        XCTAssertEqual(h.flipped(.horizontal), b)
        let v = b.flipped(.vertical)
        XCTAssertEqual(v[1, 0], b[1, 1])
        XCTAssertEqual(v.flipped(.vertical), b)
    }

    func testArbitraryRotationExpandsCanvasAndKeepsCentre() throws {
        let b = try Bitmap(width: 20, height: 10, fill: RGBA(200, 0, 0))
        let r = try b.rotated(by: 45, background: RGBA(0, 0, 255))
        XCTAssertEqual(r.width, 22) // 20·cos45 + 10·sin45 ≈ 21.2
        XCTAssertEqual(r.height, 22)
        XCTAssertEqual(r[11, 11], RGBA(200, 0, 0))
        XCTAssertEqual(r[0, 0], RGBA(0, 0, 255))
        let clear = try b.rotated(by: 30)
        XCTAssertEqual(clear[0, 0].a, 0)
        XCTAssertThrowsError(try b.rotated(by: .nan))
    }

    func testCropByPixelsAndNormalised() throws {
        let b = try sample()
        let c = try b.cropped(to: PixelRect(x: 1, y: 1, width: 2, height: 1))
        XCTAssertEqual([c.width, c.height], [2, 1])
        XCTAssertEqual(c[0, 0], b[1, 1])
        XCTAssertEqual(c[1, 0], b[2, 1])
        let n = try b.cropped(toNormalized: 0, 0.5, 1, 0.5)
        XCTAssertEqual(n, try b.cropped(to: PixelRect(x: 0, y: 1, width: 3, height: 1)))
    }

    func testBadCropsThrow() throws {
        let b = try sample()
        for rect in [PixelRect(x: 2, y: 0, width: 2, height: 1), PixelRect(x: -1, y: 0, width: 1, height: 1),
                     PixelRect(x: 0, y: 0, width: 0, height: 1), PixelRect(x: Int.max, y: 0, width: 2, height: 1),
                     PixelRect(x: 1, y: 1, width: Int.max, height: 1)] {
            XCTAssertThrowsError(try b.cropped(to: rect)) { XCTAssertTrue("\($0)".contains("outside")) }
        }
        XCTAssertThrowsError(try b.cropped(toNormalized: .nan, 0, 1, 1))
        XCTAssertThrowsError(try b.cropped(toNormalized: 0.5, 0, 0.6, 1))
        XCTAssertThrowsError(try b.cropped(toNormalized: 0, 0, 0, 1))
    }
}
