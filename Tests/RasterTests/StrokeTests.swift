import XCTest
@testable import Raster

final class StrokeTests: XCTestCase {
    private func area(_ path: Path, _ style: StrokeStyle, size: Int = 64) throws -> Double {
        var canvas = try Canvas(width: size, height: size)
        try canvas.stroke(path, color: .black, style: style)
        let pixels = canvas.bitmap.pixels
        return stride(from: 3, to: pixels.count, by: 4).reduce(0.0) { $0 + Double(pixels[$1]) } / 255
    }

    func testCapsAddTheRightArea() throws {
        let line = Path(polyline: [Point(20, 30.5), Point(40, 30.5)])
        XCTAssertEqual(try area(line, StrokeStyle(width: 4, cap: .butt)), 80, accuracy: 0.5)
        XCTAssertEqual(try area(line, StrokeStyle(width: 4, cap: .square)), 96, accuracy: 0.5)
        XCTAssertEqual(try area(line, StrokeStyle(width: 4, cap: .round)), 80 + 4 * .pi, accuracy: 1.5)
    }

    func testJoinsOnARightAngle() throws {
        let corner = Path(polyline: [Point(10, 40), Point(40, 40), Point(40, 10)])
        let butt = 2 * 30 * 4.0 // two 30 px arms, 4 px wide, overlapping in a 2×2 quarter at the corner
        let miter = try area(corner, StrokeStyle(width: 4, join: .miter))
        let bevel = try area(corner, StrokeStyle(width: 4, join: .bevel))
        let round = try area(corner, StrokeStyle(width: 4, join: .round))
        // Arms overlap in a 2×2 square inside the corner; outside, the join adds a
        // 2×2 square (miter), a quarter disc (round) or a triangle (bevel).
        XCTAssertEqual(miter, butt - 4 + 4, accuracy: 1)
        XCTAssertEqual(round, butt - 4 + .pi, accuracy: 1)
        XCTAssertEqual(bevel, butt - 4 + 2, accuracy: 1)
        XCTAssertGreaterThan(miter, round)
        XCTAssertGreaterThan(round, bevel)
    }

    func testClosedSquareOutline() throws {
        let square = Path.rect(x: 10, y: 10, width: 30, height: 30)
        // A closed miter-joined outline 2 px wide: 32² − 28².
        XCTAssertEqual(try area(square, StrokeStyle(width: 2, join: .miter)), 32 * 32 - 28 * 28, accuracy: 1)
    }

    /// Strokes leave out the segments that cannot reach the canvas. Random
    /// polylines wandering far off a small canvas draw the same pixels there
    /// as on a canvas big enough to hold all of them (nothing left out), for
    /// every join and cap, thin and wide, open and closed.
    func testSegmentsOffTheCanvasAreLeftOutWithoutChangingThePixels() throws {
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func random(_ range: ClosedRange<Double>) -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Double(seed >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        let (width, height, margin) = (40, 28, 140)
        let styles = [StrokeStyle(width: 0.5, join: .bevel, cap: .butt), StrokeStyle(width: 1.5, join: .round, cap: .round),
                      StrokeStyle(width: 6, join: .miter, cap: .square, miterLimit: 4), StrokeStyle(width: 9, join: .round, cap: .square)]
        for trial in 0..<16 {
            // Far points, and points just outside the edges, whose strokes reach in.
            let points = (0..<14).map { i in
                i % 2 == 0 ? Point(random(-120...160), random(-120...150)) : Point(random(-7...47), random(-7...35))
            }
            let path = trial % 3 == 0 ? Path(polygon: points) : Path(polyline: points)
            let moved = trial % 3 == 0 ? Path(polygon: points.map { Point($0.x + Double(margin), $0.y + Double(margin)) })
                : Path(polyline: points.map { Point($0.x + Double(margin), $0.y + Double(margin)) })
            for style in styles {
                var small = try Canvas(width: width, height: height, background: .white)
                try small.stroke(path, color: RGBA(30, 60, 200), style: style)
                var whole = try Canvas(width: width + 2 * margin + 40, height: height + 2 * margin + 40, background: .white)
                try whole.stroke(moved, color: RGBA(30, 60, 200), style: style)
                let (a, b) = (small.bitmap, whole.bitmap)
                var worst = 0
                for y in 0..<height {
                    for x in 0..<width {
                        let p = a[x, y], q = b[x + margin, y + margin]
                        let red = abs(Int(p.r) - Int(q.r)), green = abs(Int(p.g) - Int(q.g)), blue = abs(Int(p.b) - Int(q.b))
                        worst = max(worst, red, green, blue)
                    }
                }
                XCTAssertLessThanOrEqual(worst, 1, "trial \(trial), width \(style.width), \(style.join)")
            }
        }
    }

    /// A hairline (a stroke at most 0.8 px wide) puts its area on the canvas:
    /// length × width at every angle, within 2 % and the rounding of its
    /// ~80 edge pixels to 8-bit coverage.
    func testHairlinesCoverTheirArea() throws {
        for width in [0.3, 0.5, 0.8] {
            for degrees in stride(from: 0.0, to: 180, by: 15) {
                let angle = degrees * .pi / 180
                let (dx, dy) = (cos(angle) * 20, sin(angle) * 20)
                let line = Path(polyline: [Point(32.3 - dx, 32.1 - dy), Point(32.3 + dx, 32.1 + dy)])
                XCTAssertEqual(try area(line, StrokeStyle(width: width)), 40 * width, accuracy: 40 * width * 0.02 + 0.3, "\(degrees)° at \(width) px")
            }
        }
    }

    /// Hairlines against the outlined stroke they stand in for: random
    /// polylines (turns of every angle) at 0.5 and 0.8 px, drawn both ways.
    /// Every pixel's coverage within 72 levels (the joins and caps, which the
    /// hairline leaves out, differ most: 65 at 0.8 px, 106 it would be at 1 px,
    /// which is why wider strokes are outlined); the total within 6 %.
    func testHairlinesMatchTheOutlinedStroke() throws {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ range: ClosedRange<Double>) -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Double(seed >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        for trial in 0..<12 {
            var points = [Point(random(8...56), random(8...56))]
            for _ in 0..<12 {
                let last = points[points.count - 1]
                points.append(Point(min(60, max(4, last.x + random(-9...9))), min(60, max(4, last.y + random(-9...9)))))
            }
            let path = trial % 2 == 0 ? Path(polyline: points) : Path(polygon: points)
            for style in [StrokeStyle(width: 0.5, join: .bevel), StrokeStyle(width: 0.8, join: .round, cap: .round)] {
                var hairline = try Canvas(width: 64, height: 64), outlined = try Canvas(width: 64, height: 64)
                try hairline.stroke([path], color: .black, style: style)
                try outlined.strokeOutlines(try path.flattened(), color: .black, style: style)
                let (a, b) = (hairline.bitmap.pixels, outlined.bitmap.pixels)
                var worst = 0, totalA = 0, totalB = 0
                for i in stride(from: 3, to: a.count, by: 4) {
                    worst = max(worst, abs(Int(a[i]) - Int(b[i])))
                    totalA += Int(a[i]); totalB += Int(b[i])
                }
                XCTAssertLessThanOrEqual(worst, 72, "trial \(trial), width \(style.width)")
                XCTAssertEqual(Double(totalA), Double(totalB), accuracy: Double(totalB) * 0.06, "trial \(trial), width \(style.width)")
            }
        }
    }

    /// A hairline's coordinates are checked like a fill's, and one reaching
    /// ±1e12 px costs no more than the pixels it crosses.
    func testHairlineCoordinatesAreCheckedAndFarEndsAreCheap() throws {
        var canvas = try Canvas(width: 16, height: 16)
        let thin = StrokeStyle(width: 0.5)
        XCTAssertThrowsError(try canvas.stroke(Path(polyline: [Point(1, 1), Point(.nan, 4)]), color: .black, style: thin))
        XCTAssertThrowsError(try canvas.stroke(Path(polyline: [Point(1, 1), Point(2e12, 4)]), color: .black, style: thin))
        XCTAssertEqual(try area(Path(polyline: [Point(-1e12, 8.5), Point(1e12, 8.5)]), thin, size: 16), 8, accuracy: 0.1)
        XCTAssertEqual(try area(Path(polyline: [Point(-1e12, -1e12), Point(1e12, 1e12)]), thin, size: 16), 16 * 2.squareRoot() * 0.5, accuracy: 0.2)
    }

    func testBadStylesAndDegenerateInput() throws {
        var canvas = try Canvas(width: 8, height: 8)
        let line = Path(polyline: [Point(0, 0), Point(5, 5)])
        XCTAssertThrowsError(try canvas.stroke(line, color: .black, style: StrokeStyle(width: 0)))
        XCTAssertThrowsError(try canvas.stroke(line, color: .black, style: StrokeStyle(width: .nan)))
        XCTAssertThrowsError(try canvas.stroke(line, color: .black, style: StrokeStyle(width: 1, miterLimit: .infinity)))
        XCTAssertNoThrow(try canvas.stroke(Path(polyline: [Point(3, 3), Point(3, 3)]), color: .black, style: StrokeStyle(width: 2)))
        XCTAssertNoThrow(try canvas.stroke(Path(), color: .black, style: StrokeStyle(width: 2)))
        // A hairpin (180° turn) with a miter join falls back to bevel rather than a spike.
        XCTAssertNoThrow(try canvas.stroke(Path(polyline: [Point(1, 4), Point(6, 4), Point(1, 4)]), color: .black, style: StrokeStyle(width: 2)))
    }

    /// A canvas drawn as bands of rows (as a vector map draws them on several
    /// threads) and joined is byte for byte the canvas drawn whole: fills,
    /// outlined strokes and hairlines crossing band edges, and text.
    func testBandsJoinToTheWholeCanvas() throws {
        let (width, height) = (2000, 200)
        XCTAssertEqual(Canvas.bandRows(width: width), 65)
        var generator = SystemRandomNumberGenerator()
        func random(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &generator) }
        var shapes: [[Point]] = []
        for _ in 0..<40 {
            var points = [Point(random(0...2000), random(-20...220))]
            for _ in 0..<8 { points.append(Point(points[points.count - 1].x + random(-90...90), points[points.count - 1].y + random(-60...60))) }
            shapes.append(points)
        }
        func draw(_ canvas: inout Canvas) throws {
            try canvas.fill(polygons: Array(shapes[0..<10]), color: RGBA(200, 30, 30, 160))
            try canvas.stroke(polylines: shapes[10..<25].map { ($0, false) }, color: RGBA(20, 90, 200, 255),
                              style: StrokeStyle(width: 3.5, join: .round, cap: .round))
            try canvas.stroke(polylines: shapes[25..<40].map { ($0, true) }, color: .black, style: StrokeStyle(width: 0.6))
            canvas.draw(text: "band edge", at: 900, 58, color: .black, halo: .white)
        }
        var whole = try Canvas(width: width, height: height, background: .white)
        try draw(&whole)
        var bands = try [0..<65, 65..<195, 195..<200].map { try Canvas(width: width, height: height, rows: $0, background: .white) }
        for i in bands.indices { try draw(&bands[i]) }
        XCTAssertEqual(try Canvas(joining: &bands).bitmap.pixels, whole.bitmap.pixels)
        XCTAssertTrue(bands.isEmpty)
        var gap = [try Canvas(width: width, height: height, rows: 0..<65), try Canvas(width: width, height: height, rows: 66..<200)]
        XCTAssertThrowsError(try Canvas(joining: &gap))
    }

    private static func randomColor(_ generator: inout SystemRandomNumberGenerator) -> RGBA {
        RGBA(UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
             UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator))
    }

    /// Premultiplied destinations: no channel above alpha.
    private static func randomPremultipliedPixels(_ count: Int, _ generator: inout SystemRandomNumberGenerator) -> [UInt32] {
        (0..<count).map { _ in
            let a = UInt32.random(in: 0...255, using: &generator)
            return (0..<3).reduce(a << 24) { $0 | UInt32.random(in: 0...a, using: &generator) << (8 * UInt32($1)) }
        }
    }

    /// `new` is `old` under `source` at `coverage` by the per-pixel formula:
    /// source-over of the premultiplied colour scaled by coverage, d · (255 − a) / 255 rounded.
    private static func assertBlended(_ old: UInt32, into new: UInt32, source: SIMD4<UInt32>, coverage: UInt32,
                                      file: StaticString = #filePath, line: UInt = #line) {
        let c = coverage + (coverage >> 7)
        for channel in 0..<4 {
            let s = (source[channel] * c) >> 8, inverse = 255 - ((source[3] * c) >> 8)
            let d = (old >> (8 * UInt32(channel))) & 0xFF
            let expected = min(255, s + (d * inverse + 127) / 255)
            XCTAssertEqual((new >> (8 * UInt32(channel))) & 0xFF, expected, "channel \(channel) of \(old) under \(source) at \(coverage)",
                           file: file, line: line)
        }
    }

    /// Blending runs of pixels (four at a time in 16-bit lanes) gives, for every
    /// pixel, colour and coverage, what the per-pixel formula gives: source-over
    /// of the premultiplied colour scaled by coverage, d · (255 − a) / 255 rounded.
    func testBlendingRunsMatchesThePerPixelFormula() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let color = Self.randomColor(&generator)
            let source = Canvas.premultiplied(color)
            let coverage = UInt32.random(in: 0...255, using: &generator)
            let count = Int.random(in: 1...13, using: &generator)
            var words = Self.randomPremultipliedPixels(count, &generator)
            let before = words
            words.withUnsafeMutableBufferPointer { Canvas.blend(source, coverage: coverage, into: $0.baseAddress!, count: count) }
            for (old, new) in zip(before, words) { Self.assertBlended(old, into: new, source: source, coverage: coverage) }
        }
    }

    /// Blending eight pixels each at its own coverage (a fill's edge pixels)
    /// gives every pixel what the per-pixel formula gives.
    func testBlendingEightPixelsAtTheirOwnCoverageMatchesThePerPixelFormula() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let color = Self.randomColor(&generator)
            let source = Canvas.premultiplied(color)
            var coverages = SIMD8<UInt32>()
            for lane in 0..<8 { coverages[lane] = [0, 255, UInt32.random(in: 0...255, using: &generator)].randomElement(using: &generator)! }
            var words = Self.randomPremultipliedPixels(8, &generator)
            let before = words
            words.withUnsafeMutableBufferPointer { Canvas.blend(source, coverages: coverages, into: $0.baseAddress!) }
            for lane in 0..<8 { Self.assertBlended(before[lane], into: words[lane], source: source, coverage: coverages[lane]) }
        }
    }

    /// A one-pixel hairline outline of a 20×10 rectangle covers its perimeter's
    /// length in pixel area (no joins added); widths outside (0, 1] throw.
    func testHairlineOutlineCoversItsLength() throws {
        var canvas = try Canvas(width: 40, height: 30)
        let ring = [Point(10.5, 10.5), Point(30.5, 10.5), Point(30.5, 20.5), Point(10.5, 20.5)]
        try canvas.strokeHairlines(polylines: [(ring, true)], color: .black, width: 1)
        let pixels = canvas.bitmap.pixels
        let area = stride(from: 3, to: pixels.count, by: 4).reduce(0.0) { $0 + Double(pixels[$1]) } / 255
        XCTAssertEqual(area, 60, accuracy: 1.5)
        XCTAssertThrowsError(try canvas.strokeHairlines(polylines: [(ring, true)], color: .black, width: 1.5))
        XCTAssertThrowsError(try canvas.strokeHairlines(polylines: [(ring, true)], color: .black, width: 0))
    }
}
