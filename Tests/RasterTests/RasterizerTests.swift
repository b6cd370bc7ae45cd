import XCTest
@testable import Raster

final class RasterizerTests: XCTestCase {
    /// Total alpha of a canvas in pixel units (coverage 255 = 1 pixel).
    private func coveredArea(_ canvas: Canvas) -> Double {
        let bitmap = canvas.bitmap
        var total = 0
        for i in stride(from: 3, to: bitmap.pixels.count, by: 4) { total += Int(bitmap.pixels[i]) }
        return Double(total) / 255
    }

    /// Shoelace area of a simple polygon.
    private func polygonArea(_ points: [Point]) -> Double {
        var sum = 0.0
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            sum += a.x * b.y - b.x * a.y
        }
        return abs(sum) / 2
    }

    func testRandomStarPolygonsCoverTheirExactArea() throws {
        var random = TestRandom(seed: 7)
        for _ in 0..<20 {
            // Star-shaped (hence simple) polygons with random radii around a centre.
            let cx = random.double(in: 20...44), cy = random.double(in: 20...44)
            let n = Int(random.double(in: 3...40))
            let points = (0..<n).map { i -> Point in
                let angle = Double(i) / Double(n) * 2 * .pi
                let r = random.double(in: 4...18)
                return Point(cx + r * cos(angle), cy + r * sin(angle))
            }
            var canvas = try Canvas(width: 64, height: 64)
            try canvas.fill(polygons: [points], color: .black)
            let expected = polygonArea(points)
            XCTAssertEqual(coveredArea(canvas), expected, accuracy: expected * 0.005)
        }
    }

    func testSharedEdgeFilledTogetherLeavesNoSeam() throws {
        var canvas = try Canvas(width: 32, height: 32, background: .white)
        // Two triangles splitting a square along a diagonal, same winding.
        let a = Path(polygon: [Point(3.3, 2.7), Point(28.1, 2.7), Point(28.1, 29.4)])
        let b = Path(polygon: [Point(3.3, 2.7), Point(28.1, 29.4), Point(3.3, 29.4)])
        let fill = RGBA(30, 60, 90)
        try canvas.fill([a, b], color: fill)
        let bitmap = canvas.bitmap
        for y in 4..<28 {
            for x in 5..<27 { XCTAssertEqual(bitmap[x, y], fill, "seam at (\(x), \(y))") }
        }
    }

    func testEvenOddMakesHoleNonZeroDoesNot() throws {
        let outer = [Point(0, 0), Point(20, 0), Point(20, 20), Point(0, 20)]
        let inner = [Point(5, 5), Point(15, 5), Point(15, 15), Point(5, 15)] // same winding
        var evenOdd = try Canvas(width: 20, height: 20)
        try evenOdd.fill(polygons: [outer, inner], color: .black, rule: .evenOdd)
        XCTAssertEqual(coveredArea(evenOdd), 300, accuracy: 0.5)
        var nonZero = try Canvas(width: 20, height: 20)
        try nonZero.fill(polygons: [outer, inner], color: .black, rule: .nonZero)
        XCTAssertEqual(coveredArea(nonZero), 400, accuracy: 0.5)
    }

    func testPolygonsPartlyOffCanvasAreClipped() throws {
        var canvas = try Canvas(width: 10, height: 10)
        try canvas.fill(polygons: [[Point(-50, -50), Point(5, -50), Point(5, 50), Point(-50, 50)]], color: .black)
        XCTAssertEqual(coveredArea(canvas), 50, accuracy: 0.01)
        // A triangle crossing both side edges and the bottom.
        var wide = try Canvas(width: 10, height: 10)
        try wide.fill(polygons: [[Point(-10, 0), Point(20, 0), Point(5, 30)]], color: .black)
        XCTAssertGreaterThan(coveredArea(wide), 60)
        XCTAssertLessThanOrEqual(coveredArea(wide), 100.01)
    }

    func testCircleAreaIsPiRSquared() throws {
        var canvas = try Canvas(width: 64, height: 64)
        let circle = Path.circle(center: Point(32, 32), radius: 20)
        try canvas.fill(circle, color: .black)
        // Exact against the flattened outline; within flattening error (chords) of πr².
        let flattened = try circle.flattened()[0].points
        XCTAssertEqual(coveredArea(canvas), polygonArea(flattened), accuracy: polygonArea(flattened) * 0.005)
        XCTAssertEqual(coveredArea(canvas), Double.pi * 400, accuracy: Double.pi * 400 * 0.01)
    }

    func testQuadraticCurveAreaIsTwoThirdsOfItsTriangle() throws {
        // The region between a parabola arc and its chord is 2/3 of the control triangle.
        var path = Path()
        path.move(to: Point(4, 40))
        path.quad(to: Point(60, 40), control: Point(32, 4))
        path.close()
        var canvas = try Canvas(width: 64, height: 64)
        try canvas.fill(path, color: .black)
        let triangle = 0.5 * 56 * 36
        // Exact against the flattened outline; chords lose area/n² of the true 2/3.
        let flattened = try path.flattened()[0].points
        XCTAssertEqual(coveredArea(canvas), polygonArea(flattened), accuracy: polygonArea(flattened) * 0.005)
        XCTAssertEqual(coveredArea(canvas), triangle * 2 / 3, accuracy: triangle * 2 / 3 * 0.01)
    }

    func testPentagramCentreFilledOnlyUnderNonZero() throws {
        let points = (0..<5).map { i -> Point in
            let angle = Double(i * 2) / 5 * 2 * .pi - .pi / 2
            return Point(32 + 28 * cos(angle), 32 + 28 * sin(angle))
        }
        var nonZero = try Canvas(width: 64, height: 64)
        try nonZero.fill(polygons: [points], color: .black, rule: .nonZero)
        var evenOdd = try Canvas(width: 64, height: 64)
        try evenOdd.fill(polygons: [points], color: .black, rule: .evenOdd)
        XCTAssertEqual(nonZero.bitmap[32, 33].a, 255)
        XCTAssertEqual(evenOdd.bitmap[32, 33].a, 0)
        XCTAssertEqual(evenOdd.bitmap[32, 8].a, 255) // a point of the star
    }

    func testHugePolygonFillsWithoutTrouble() throws {
        let n = 100_000
        let points = (0..<n).map { i -> Point in
            let angle = Double(i) / Double(n) * 2 * .pi
            let r = 30 + 2 * sin(angle * 50)
            return Point(32 + r * cos(angle), 32 + r * sin(angle))
        }
        var canvas = try Canvas(width: 64, height: 64)
        try canvas.fill(polygons: [points], color: .black)
        XCTAssertEqual(coveredArea(canvas), polygonArea(points.map { Point(max(0, min(64, $0.x)), max(0, min(64, $0.y))) }), accuracy: 40)
    }

    func testDegenerateInputIsDefined() throws {
        var canvas = try Canvas(width: 8, height: 8)
        XCTAssertNoThrow(try canvas.fill(Path(), color: .black))
        XCTAssertNoThrow(try canvas.fill(polygons: [[Point(1, 1)], [], [Point(1, 1), Point(1, 1)]], color: .black))
        XCTAssertThrowsError(try canvas.fill(polygons: [[Point(0, 0), Point(.nan, 3), Point(4, 4)]], color: .black)) { error in
            XCTAssertTrue("\(error)".contains("not finite"))
        }
        XCTAssertThrowsError(try canvas.fill(Path.circle(center: Point(.infinity, 0), radius: 3), color: .black))
        XCTAssertThrowsError(try canvas.fill(polygons: [[Point(-1e300, 0), Point(1e300, 0), Point(0, 1e300)]], color: .black))
        try canvas.fill(polygons: [[Point(-1e12, 0), Point(1e12, 0), Point(0, 1e12)]], color: .black)
        var empty = try Canvas(width: 0, height: 0)
        XCTAssertNoThrow(try empty.fill(Path.rect(x: 0, y: 0, width: 5, height: 5), color: .black))
        XCTAssertEqual(coveredArea(canvas), 64, accuracy: 0.01)
    }
}

/// A tiny deterministic generator for tests (SplitMix64).
struct TestRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func double(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
}
