import XCTest
@testable import Raster

/// Triangles drawn as a GPU draws them: pixel centres, one owner per shared
/// edge, each triangle blended on its own.
final class ShadedTrianglesTests: XCTestCase {
    private func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, u: Double = 1) -> ShadedTriangles {
        var mesh = ShadedTriangles()
        mesh.vertices = [.init(x: x0, y: y0, u: u, v: 0), .init(x: x1, y: y0, u: u, v: 0),
                         .init(x: x1, y: y1, u: u, v: 0), .init(x: x0, y: y1, u: u, v: 0)]
        mesh.indices = [0, 1, 2, 0, 2, 3]
        return mesh
    }

    func testTrianglesSharingAnEdgeBlendEachPixelOnce() throws {
        // The diagonal passes through pixel centres; translucent black must
        // come out the same on it as off it.
        var canvas = try Canvas(width: 8, height: 8, background: .white)
        try canvas.draw(square(0.5, 0.5, 6.5, 6.5), color: RGBA(0, 0, 0, 128)) { u, _, _ in u }
        let bitmap = canvas.bitmap
        let inside = bitmap[3, 2].r
        XCTAssertEqual(Int(inside), 127, accuracy: 1)
        for i in 1...5 { XCTAssertEqual(bitmap[i, i].r, inside, "diagonal pixel \(i)") }
        XCTAssertEqual(bitmap[0, 0].r, inside, "a centre on the top and left edges is inside")
        XCTAssertEqual(bitmap[6, 6].r, 255, "a centre on the bottom and right edges is not")
        XCTAssertEqual(bitmap[7, 3].r, 255)
    }

    func testOverlappingTrianglesBlendTwice() throws {
        var canvas = try Canvas(width: 8, height: 8, background: .white)
        var mesh = square(0, 0, 8, 8)
        let other = square(0, 0, 4, 8)
        mesh.vertices += other.vertices
        mesh.indices += other.indices.map { $0 + 4 }
        try canvas.draw(mesh, color: RGBA(0, 0, 0, 128)) { u, _, _ in u }
        let bitmap = canvas.bitmap
        XCTAssertEqual(Int(bitmap[6, 4].r), 127, accuracy: 1)
        XCTAssertEqual(Int(bitmap[2, 4].r), 63, accuracy: 1)
    }

    func testShadeIsInterpolatedAndTheClipHolds() throws {
        var canvas = try Canvas(width: 8, height: 1, background: .white)
        var mesh = ShadedTriangles(clip: (0, 0, 6, 1))
        // u runs 0 → 1 from x = 0 to x = 8: the pixel at column c gets (c + 0.5) / 8.
        mesh.vertices = [.init(x: 0, y: 0, u: 0, v: 0), .init(x: 8, y: 0, u: 1, v: 0),
                         .init(x: 8, y: 1, u: 1, v: 0), .init(x: 0, y: 1, u: 0, v: 0)]
        mesh.indices = [0, 1, 2, 0, 2, 3]
        try canvas.draw(mesh, color: .black) { u, _, _ in u }
        let bitmap = canvas.bitmap
        for column in 0..<6 {
            XCTAssertEqual(Double(bitmap[column, 0].r), 255 * (1 - (Double(column) + 0.5) / 8), accuracy: 1, "column \(column)")
        }
        XCTAssertEqual(bitmap[6, 0].r, 255, "clipped")
        var bad = ShadedTriangles()
        bad.indices = [0, 1, 2]
        XCTAssertThrowsError(try canvas.draw(bad, color: .black) { u, _, _ in u }, "indices past the vertices are refused")
    }
}
