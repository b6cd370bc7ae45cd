import Raster
import XCTest
@testable import MapRendering

/// The polyline work under line labels, against values worked out by hand.
final class LabelPathTests: XCTestCase {
    func assertPoints(_ actual: [Point], _ expected: [(Double, Double)], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(actual.count, expected.count, "\(actual)", file: file, line: line)
        for (a, e) in zip(actual, expected) {
            XCTAssertEqual(a.x, e.0, accuracy: 1e-9, file: file, line: line)
            XCTAssertEqual(a.y, e.1, accuracy: 1e-9, file: file, line: line)
        }
    }

    /// A line leaving and re-entering the box gives two pieces cut at its edges.
    func testClipCutsAtTheBoxEdges() {
        let line = [Point(-10, 5), Point(10, 5), Point(10, 20), Point(5, 20), Point(5, 8)]
        let pieces = LabelPath.clip(line, minX: 0, minY: 0, maxX: 16, maxY: 16)
        XCTAssertEqual(pieces.count, 2)
        assertPoints(pieces[0], [(0, 5), (10, 5), (10, 16)])
        assertPoints(pieces[1], [(5, 16), (5, 8)])
        XCTAssertEqual(LabelPath.clip([Point(-5, -5), Point(-1, -9)], minX: 0, minY: 0, maxX: 16, maxY: 16).count, 0)
    }

    /// Pieces meeting end to end, in either direction, become one line; a
    /// piece whose ends meet nothing stays apart.
    func testJoinLinksPiecesInAnyDirection() {
        let a = [Point(0, 0), Point(10, 0)]
        let b = [Point(20, 5), Point(10.2, 0.1)]      // reversed, ends 0.22 px from a's end
        let c = [Point(-10, 0), Point(0, 0)]
        let far = [Point(50, 50), Point(60, 50)]
        let joined = LabelPath.join([a, b, far, c])
        XCTAssertEqual(joined.count, 2)
        assertPoints(joined[0], [(-10, 0), (0, 0), (10, 0), (20, 5)])
        assertPoints(joined[1], [(50, 50), (60, 50)])
    }

    func testPointAtADistanceAndItsDirection() {
        let path = LabelPath([Point(0, 0), Point(3, 4), Point(3, 14)])
        XCTAssertEqual(path.length, 15)
        let (p, angle) = path.point(at: 10)
        XCTAssertEqual(p.x, 3, accuracy: 1e-12)
        XCTAssertEqual(p.y, 9, accuracy: 1e-12)
        XCTAssertEqual(angle, .pi / 2, accuracy: 1e-12)
        XCTAssertEqual(path.point(at: 2.5).angle, atan2(4, 3), accuracy: 1e-12)
        XCTAssertEqual(path.reversed.point(at: 0).point, Point(3, 14))
    }

    /// A right angle is too sharp for 45°; a curve of 10° steps 10 px apart
    /// passes when the window holds two of them, not when it holds five.
    func testBendsGentlyAddsTurnsWithinTheWindow() {
        let corner = LabelPath([Point(0, 0), Point(20, 0), Point(20, 20)])
        XCTAssertFalse(corner.bendsGently(from: 0, to: 40, window: 10, maximumTurn: .pi / 4))
        XCTAssertTrue(corner.bendsGently(from: 0, to: 15, window: 10, maximumTurn: .pi / 4))   // the corner lies past the text
        var points = [Point(0, 0)]
        var angle = 0.0
        for _ in 0..<8 {
            points.append(Point(points.last!.x + 10 * cos(angle), points.last!.y + 10 * sin(angle)))
            angle += 10 * .pi / 180
        }
        let curve = LabelPath(points)
        XCTAssertTrue(curve.bendsGently(from: 0, to: curve.length, window: 15, maximumTurn: .pi / 4))
        XCTAssertFalse(curve.bendsGently(from: 0, to: curve.length, window: 45, maximumTurn: .pi / 4))
    }
}
