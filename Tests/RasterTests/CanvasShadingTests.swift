import XCTest
@testable import Raster

/// `Canvas.shade`: a per-pixel colour blended source-over, clipped to the
/// canvas and to the rows a band holds.
final class CanvasShadingTests: XCTestCase {
    func testShadedPixelsBlendOverWhatIsThereAndStayInside() throws {
        var canvas = try Canvas(width: 4, height: 4, background: RGBA(0, 0, 255))
        // Half-transparent red (premultiplied), asked for more than the canvas holds.
        var asked: [(Int, Int)] = []
        canvas.shade(columns: -2..<2, rows: 1..<9) { x, y in
            asked.append((x, y))
            return SIMD4<Float>(0.5, 0, 0, 0.5)
        }
        XCTAssertEqual(asked.count, 2 * 3, "only the pixels on the canvas")
        let bitmap = canvas.bitmap
        XCTAssertEqual(bitmap[0, 2], RGBA(128, 0, 128))
        XCTAssertEqual(bitmap[1, 3], RGBA(128, 0, 128))
        XCTAssertEqual(bitmap[2, 2], RGBA(0, 0, 255), "outside the columns")
        XCTAssertEqual(bitmap[0, 0], RGBA(0, 0, 255), "outside the rows")
    }

    func testABandShadesOnlyItsRowsAndNaNIsNothing() throws {
        var band = try Canvas(width: 2, height: 8, rows: 4..<6)
        var rows = Set<Int>()
        band.shade(columns: 0..<2, rows: 0..<8) { _, y in
            rows.insert(y)
            return y == 5 ? SIMD4<Float>(.nan, 0, 0, .nan) : SIMD4<Float>(0, 1, 0, 1)
        }
        XCTAssertEqual(rows, [4, 5])
        let bitmap = band.bitmap
        XCTAssertEqual(bitmap[0, 0], RGBA(0, 255, 0))
        XCTAssertEqual(bitmap[1, 1], RGBA(0, 0, 0, 0))
    }
}
