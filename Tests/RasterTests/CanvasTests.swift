import XCTest
@testable import Raster

final class CanvasTests: XCTestCase {
    /// Total coverage painted on a transparent canvas, in pixels (alpha / 255 summed).
    private func coverage(_ canvas: Canvas) -> Double {
        stride(from: 3, to: canvas.bitmap.pixels.count, by: 4).reduce(0.0) { $0 + Double(canvas.bitmap.pixels[$1]) / 255 }
    }

    private func area(_ points: [Point]) -> Double {
        var sum = 0.0
        for i in 0..<points.count {
            let a = points[i], b = points[(i + 1) % points.count]
            sum += a.x * b.y - b.x * a.y
        }
        return abs(sum) / 2
    }

    func testCoverageOfRandomPolygonsEqualsTheirArea() throws {
        var random = UInt64(7)
        func next() -> Double {
            random ^= random << 13; random ^= random >> 7; random ^= random << 17
            return Double(random % 10_000) / 10_000
        }
        for trial in 0..<20 {
            // Star-shaped around their centre (so simple): 5–40 vertices at jittered,
            // increasing angles all the way round, at random radii.
            let n = 5 + trial % 36
            let center = Point(60 + next() * 8, 60 + next() * 8), radius = 15 + next() * 35
            let angles = (0..<n).map { (Double($0) + 0.8 * next()) / Double(n) * 2 * .pi }
            let points = angles.map { Point(center.x + cos($0) * radius * (0.4 + 0.6 * next()), center.y + sin($0) * radius * (0.4 + 0.6 * next())) }
            var canvas = try Canvas(width: 128, height: 128)
            try canvas.fill(Path(polygon: points), color: .white)
            let expected = area(points)
            XCTAssertEqual(coverage(canvas), expected, accuracy: expected * 0.005, "trial \(trial)")
        }
    }

    func testPolygonsSharingAnEdgeLeaveNoSeam() throws {
        // A square split along a slanted line into two polygons, filled together.
        let left = [Point(10.3, 10.2), Point(30.7, 10.2), Point(22.1, 50.9), Point(10.3, 50.9)]
        let right = [Point(30.7, 10.2), Point(60.6, 10.2), Point(60.6, 50.9), Point(22.1, 50.9)]
        var canvas = try Canvas(width: 70, height: 60, background: .white)
        var both = Path(polygon: left)
        both.append(Path(polygon: right))
        let fill = RGBA(20, 60, 140)
        try canvas.fill(both, color: fill)
        for y in 11..<50 {
            for x in 11..<60 {
                XCTAssertEqual(canvas.bitmap[x, y], fill, "seam at (\(x), \(y))")
            }
        }
    }

    func testNonZeroAndEvenOddDifferOnANestedSquare() throws {
        var path = Path.rectangle(x: 0, y: 0, width: 20, height: 20)
        path.append(Path.rectangle(x: 5, y: 5, width: 10, height: 10))  // same direction: winding 2 inside
        var nonZero = try Canvas(width: 20, height: 20)
        try nonZero.fill(path, color: .black, rule: .nonZero)
        var evenOdd = try Canvas(width: 20, height: 20)
        try evenOdd.fill(path, color: .black, rule: .evenOdd)
        XCTAssertEqual(nonZero.bitmap[10, 10].a, 255)
        XCTAssertEqual(evenOdd.bitmap[10, 10].a, 0)
        XCTAssertEqual(evenOdd.bitmap[2, 2].a, 255)
        XCTAssertEqual(coverage(evenOdd), 300, accuracy: 0.5)
    }

    func testStrokeAreasFollowWidthCapsAndJoins() throws {
        func strokedArea(_ path: Path, _ style: StrokeStyle) throws -> Double {
            var canvas = try Canvas(width: 100, height: 60)
            try canvas.stroke(path, color: .white, style: style)
            return coverage(canvas)
        }
        let line = Path(polyline: [Point(20, 20.5), Point(60, 20.5)])
        XCTAssertEqual(try strokedArea(line, StrokeStyle(width: 4, cap: .butt)), 160, accuracy: 1)
        XCTAssertEqual(try strokedArea(line, StrokeStyle(width: 4, cap: .square)), 44 * 4, accuracy: 1)
        XCTAssertEqual(try strokedArea(line, StrokeStyle(width: 4, cap: .round)), 160 + .pi * 4, accuracy: 1)
        // A hairpin: the two legs overlap, and must merge rather than cancel.
        let hairpin = Path(polyline: [Point(10, 30), Point(80, 32), Point(10, 34)])
        for join in [StrokeStyle.Join.round, .bevel, .miter] {
            var canvas = try Canvas(width: 100, height: 60)
            try canvas.stroke(hairpin, color: .white, style: StrokeStyle(width: 3, join: join, cap: .butt))
            XCTAssertEqual(canvas.bitmap[40, 32].a, 255, "\(join): overlap cancelled")
        }
        XCTAssertThrowsError(try strokedArea(line, StrokeStyle(width: .nan)))
    }

    func testDegenerateInputIsDefinedNeverACrash() throws {
        var canvas = try Canvas(width: 10, height: 10)
        XCTAssertThrowsError(try canvas.fill(Path(polygon: [Point(0, 0), Point(.nan, 3), Point(5, 5)]), color: .black)) { error in
            XCTAssertTrue("\(error)".contains("non-finite"))
        }
        try canvas.fill(Path(), color: .black)
        try canvas.fill(Path(polygon: [Point(1, 1)]), color: .black)
        try canvas.fill(Path(polygon: [Point(-50, -50), Point(-40, -50), Point(-40, -40)]), color: .black)
        try canvas.fill(Path(polygon: [Point(-1e12, -1e12), Point(1e12, -1e12), Point(1e12, 1e12), Point(-1e12, 1e12)]), color: .black)
        XCTAssertEqual(canvas.bitmap[5, 5], .black, "a shape around the whole canvas covers it")
        var empty = try Canvas(width: 0, height: 0)
        try empty.fill(Path.circle(center: Point(0, 0), radius: 5), color: .black)
    }

    func testAHundredThousandVertexPolygonRenders() throws {
        let n = 100_000
        let points = (0..<n).map { i -> Point in
            let t = Double(i) / Double(n) * 2 * .pi
            let r = 100 + 20 * sin(t * 400)
            return Point(128 + r * cos(t), 128 + r * sin(t))
        }
        var canvas = try Canvas(width: 256, height: 256)
        try canvas.fill(Path(polygon: points), color: .white)
        XCTAssertEqual(coverage(canvas), area(points), accuracy: area(points) * 0.005)
    }
}
