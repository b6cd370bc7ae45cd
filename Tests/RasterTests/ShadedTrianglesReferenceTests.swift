import XCTest
@testable import Raster

/// The triangle loop skips work for speed (the run of centres inside found
/// from its ends, pixels at full alpha filled without shading, blends rounded
/// without libm); these tests hold it to the plain computation, byte for byte.
final class ShadedTrianglesReferenceTests: XCTestCase {
    /// A ramp like a casing's feather: 0 within √(u² + v²) = 0.2, at least 1
    /// from 0.5 to 0.6 (w only raising it there), 0 again from 0.9.
    private static func ramp(_ u: Double, _ v: Double, _ w: Double) -> Double {
        let r = (u * u + v * v).squareRoot()
        return min(r - 0.2, 0.9 - r) / 0.3 * (1 + 0.1 * w * w)
    }

    /// What ``ramp(_:_:_:)`` surely is by u² + v², with a margin for rounding.
    private static let rampBounds = ShadedTriangles.RadialBounds(zeroWithin: 0.04 * (1 - 1e-9), fullFrom: 0.25 * (1 + 1e-9),
                                                                 fullTo: 0.36 * (1 - 1e-9), zeroFrom: 0.81 * (1 + 1e-9))

    /// Each triangle drawn pixel by pixel over the whole canvas: the edge
    /// functions, the top-left rule, the barycentric interpolation and the
    /// source-over blend written out plainly, rounded by `rounded()`.
    private func reference(_ mesh: ShadedTriangles, color: RGBA, width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let alpha = Double(color.a) / 255
        let source = [Double(color.r) / 255 * alpha, Double(color.g) / 255 * alpha, Double(color.b) / 255 * alpha, alpha]
        for t in 0..<mesh.triangleCount {
            var a = mesh.vertices[Int(mesh.indices[3 * t])], b = mesh.vertices[Int(mesh.indices[3 * t + 1])]
            let c = mesh.vertices[Int(mesh.indices[3 * t + 2])]
            var area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
            guard area != 0 else { continue }
            if area < 0 { swap(&a, &b); area = -area }
            func edge(_ p: ShadedTriangles.Vertex, _ q: ShadedTriangles.Vertex, _ x: Double, _ y: Double) -> (inside: Bool, value: Double) {
                let dx = q.x - p.x, dy = q.y - p.y
                let w = dx * (y - p.y) - dy * (x - p.x)
                return (w > 0 || (w == 0 && (dy < 0 || (dy == 0 && dx > 0))), w)
            }
            for y in 0..<height {
                for x in 0..<width {
                    let px = Double(x) + 0.5, py = Double(y) + 0.5
                    guard px >= mesh.clip.minX, px <= mesh.clip.maxX, py >= mesh.clip.minY, py <= mesh.clip.maxY else { continue }
                    let e0 = edge(b, c, px, py), e1 = edge(c, a, px, py), e2 = edge(a, b, px, py)
                    guard e0.inside, e1.inside, e2.inside else { continue }
                    let inverse = 1 / area
                    let wa = e0.value * inverse, wb = e1.value * inverse, wc = e2.value * inverse
                    let coverage = Self.ramp(wa * a.u + wb * b.u + wc * c.u, wa * a.v + wb * b.v + wc * c.v, wa * a.w + wb * b.w + wc * c.w)
                    guard coverage > 0 else { continue }
                    let k = min(1, coverage), keep = 1 - source[3] * k
                    for channel in 0..<4 {
                        let i = (y * width + x) * 4 + channel
                        pixels[i] = UInt8(min(255, (source[channel] * k * 255 + Double(pixels[i]) * keep).rounded()))
                    }
                }
            }
        }
        return pixels
    }

    /// The index of the first byte where `a` and `b` differ, nil when they are the same.
    private func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int? {
        a.count == b.count ? a.indices.first(where: { a[$0] != b[$0] }) : min(a.count, b.count)
    }

    func testTheLoopMatchesTheReferenceOnRandomMeshes() throws {
        var random = TestRandom(seed: 0x5EED)
        func integer(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
        let width = 37, height = 29
        var settled = 0
        for round in 0..<24 {
            // Clips and vertices on half pixels, so centres fall exactly on edges and vertices.
            var mesh = ShadedTriangles(clip: (Double(integer(-8...12)) / 4, Double(integer(-8...12)) / 4,
                                              Double(integer(100...160)) / 4, Double(integer(80...130)) / 4))
            for _ in 0..<24 {
                mesh.vertices.append(.init(x: Double(integer(-10...85)) / 2, y: Double(integer(-10...65)) / 2,
                                           u: random.double(in: -1...1), v: random.double(in: -1...1), w: random.double(in: -3...3)))
            }
            // Some rounds as a line's vertices are: u 0, v ±1.
            if round % 3 == 0 {
                for i in mesh.vertices.indices { (mesh.vertices[i].u, mesh.vertices[i].v) = (0, i % 2 == 0 ? 1 : -1) }
            }
            mesh.indices = (0..<30).map { _ in Int32(integer(0...23)) }
            // Every other round opaque: full pixels are then written, not blended.
            let color = RGBA(UInt8(integer(0...255)), UInt8(integer(0...255)), UInt8(integer(0...255)),
                             round % 2 == 0 ? 255 : UInt8(integer(1...254)))
            let expected = reference(mesh, color: color, width: width, height: height)
            XCTAssertGreaterThan(expected.filter { $0 != 0 }.count, 100, "round \(round) draws something")
            for bounds in [ShadedTriangles.RadialBounds.none, Self.rampBounds] {
                var canvas = try Canvas(width: width, height: height)
                try canvas.draw(mesh, color: color, bounds: bounds, shade: Self.ramp)
                XCTAssertNil(firstDifference(canvas.pixels, expected), "round \(round), bounds \(bounds): first differing byte")
            }
            // In bands of rows, as the vector map draws: the same bytes.
            var top = try Canvas(width: width, height: height, rows: 0..<13), bottom = try Canvas(width: width, height: height, rows: 13..<height)
            try top.draw(mesh, color: color, bounds: Self.rampBounds, shade: Self.ramp)
            try bottom.draw(mesh, color: color, bounds: Self.rampBounds, shade: Self.ramp)
            XCTAssertNil(firstDifference(top.pixels + bottom.pixels, expected), "round \(round) in two bands: first differing byte")
            var shaded = 0
            var canvas = try Canvas(width: width, height: height)
            try canvas.draw(mesh, color: color, bounds: Self.rampBounds) { u, v, w in
                shaded += 1
                return Self.ramp(u, v, w)
            }
            var all = 0
            canvas = try Canvas(width: width, height: height)
            try canvas.draw(mesh, color: color) { u, v, w in
                all += 1
                return Self.ramp(u, v, w)
            }
            settled += all - shaded
        }
        XCTAssertGreaterThan(settled, 1000, "pixels the bounds settle are drawn without calling the shader")
    }

    func testTheBlendRoundsHalvesAwayFromZeroAsRoundedDoes() {
        // keep 0.5 over an odd byte is an exact half: 2k + 1 → k + 1.
        for destination in stride(from: 1, through: 255, by: 2) {
            XCTAssertEqual(Int(Canvas.channel(0, over: UInt8(destination), keeping: 0.5)), (destination + 1) / 2, "\(destination) × 0.5")
        }
        var random = TestRandom(seed: 42)
        for _ in 0..<50_000 {
            let source = random.double(in: 0...1), keep = random.double(in: 0...1)
            let destination = UInt8(random.next() % 256)
            let expected = UInt8(min(255, (source * 255 + Double(destination) * keep).rounded()))
            XCTAssertEqual(Canvas.channel(source, over: destination, keeping: keep), expected)
        }
    }
}
