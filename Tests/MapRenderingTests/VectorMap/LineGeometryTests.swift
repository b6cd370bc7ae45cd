import Raster
import XCTest
@testable import MapRendering

/// Dashes and offsets of polylines, against lengths worked out by hand.
final class LineGeometryTests: XCTestCase {
    func testDashesAlternateAlongTheLineAcrossCorners() throws {
        let line = [Point(0, 0), Point(10, 0)]
        let dashes = try XCTUnwrap(LineGeometry.dashes(of: line, closed: false, pattern: [2, 1]))
        XCTAssertEqual(dashes, [[Point(0, 0), Point(2, 0)], [Point(3, 0), Point(5, 0)], [Point(6, 0), Point(8, 0)], [Point(9, 0), Point(10, 0)]])
        // Round a corner: a dash 0…4 runs 3 along x and 1 down y.
        let corner = try XCTUnwrap(LineGeometry.dashes(of: [Point(0, 0), Point(3, 0), Point(3, 5)], closed: false, pattern: [4, 1]))
        XCTAssertEqual(corner, [[Point(0, 0), Point(3, 0), Point(3, 1)], [Point(3, 2), Point(3, 5)]])
        // An odd pattern repeats: [1] is 1 on, 1 off.
        XCTAssertEqual(LineGeometry.dashes(of: line, closed: false, pattern: [1])?.count, 5)
        // Patterns that cannot dash draw solid.
        XCTAssertNil(LineGeometry.dashes(of: line, closed: false, pattern: []))
        XCTAssertNil(LineGeometry.dashes(of: line, closed: false, pattern: [0, 2]))
        XCTAssertNil(LineGeometry.dashes(of: line, closed: false, pattern: [1, -1]))
        XCTAssertNil(LineGeometry.dashes(of: line, closed: false, pattern: [.nan, 1]))
        // A pattern needing too many dashes draws solid, counted before the work.
        XCTAssertNil(LineGeometry.dashes(of: [Point(0, 0), Point(1e6, 0)], closed: false, pattern: [0.1, 0.1], maximumDashes: 1000))
        XCTAssertEqual(LineGeometry.dashes(of: [Point(0, 0), Point(100, 0)], closed: false, pattern: [0.25, 0.25], maximumDashes: 1000)?.count, 200)
    }

    func testOffsetIsParallelToTheRightOfTheDirection() {
        // Eastwards with y down, the right is +y.
        XCTAssertEqual(LineGeometry.offset([Point(0, 0), Point(10, 0)], closed: false, by: 2), [Point(0, 2), Point(10, 2)])
        // A right-angle corner moves along the diagonal by √2 × the offset.
        let corner = LineGeometry.offset([Point(0, 0), Point(10, 0), Point(10, 10)], closed: false, by: 1)
        XCTAssertEqual(corner[1].x, 9, accuracy: 1e-12)
        XCTAssertEqual(corner[1].y, 1, accuracy: 1e-12)
        XCTAssertEqual(corner[2], Point(9, 10))
        // A closed square wound clockwise on screen shrinks inwards.
        let square = LineGeometry.offset([Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10), Point(0, 0)], closed: true, by: 1)
        XCTAssertEqual(square.count, 4)
        XCTAssertEqual(square[0].x, 1, accuracy: 1e-12)
        XCTAssertEqual(square[0].y, 1, accuracy: 1e-12)
    }
}
