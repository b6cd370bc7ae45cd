import XCTest
@testable import MapRendering

/// The cluster index's KD-tree finds exactly what a scan of every point finds.
final class GeoJSONPointTreeTests: XCTestCase {
    func testRangeAndRadiusQueriesMatchAFullScan() {
        var state: UInt64 = 7
        func random() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24)
        }
        // Enough points for several levels of leaves, some repeated exactly.
        var xs = (0..<2000).map { _ in random() }, ys = (0..<2000).map { _ in random() }
        xs += xs[0..<100]
        ys += ys[0..<100]
        let tree = GeoJSONPointTree(xs: xs, ys: ys)
        for _ in 0..<50 {
            let (x, y, radius) = (random(), random(), random() * 0.1)
            let scanned = Set(xs.indices.filter { i in
                let dx = xs[i] - x, dy = ys[i] - y
                return dx * dx + dy * dy <= radius * radius
            }.map(Int32.init))
            XCTAssertEqual(Set(tree.within(x, y, radius: radius)), scanned)
            let (minX, minY) = (random() * 0.8, random() * 0.8)
            let (maxX, maxY) = (minX + random() * 0.2, minY + random() * 0.2)
            let boxed = Set(xs.indices.filter { xs[$0] >= minX && xs[$0] <= maxX && ys[$0] >= minY && ys[$0] <= maxY }.map(Int32.init))
            XCTAssertEqual(Set(tree.range(minX: minX, minY: minY, maxX: maxX, maxY: maxY)), boxed)
        }
        XCTAssertEqual(tree.range(minX: 0, minY: 0, maxX: 1, maxY: 1).count, 2100, "each point once")
    }
}
