import Raster
import XCTest
@testable import MapRendering

/// Fills under pitch as MapLibre draws them: triangles cut at pixel centres,
/// the outline's fringe measured to a perspective-correct `v_pos`.
final class FillUnderPitchTests: XCTestCase {
    /// A 40 × 40 canvas with the square (5…35, 5…20.3) filled cyan, its
    /// corners at `depths` (left ones, right ones), with an outline.
    func draw(leftDepth: Double, rightDepth: Double) throws -> Bitmap {
        var canvas = try Canvas(width: 40, height: 40, rows: 0..<40)
        let ring = [Point(5, 5), Point(35, 5), Point(35, 20.3), Point(5, 20.3)]
        canvas.fillUnderPitch(rings: [ring], depths: [[leftDepth, rightDepth, rightDepth, leftDepth]], color: RGBA(0, 255, 255),
                              outline: nil, antialias: true)
        return canvas.bitmap
    }

    func testTrianglesAreCutAtPixelCentres() throws {
        let image = try draw(leftDepth: 1, rightDepth: 1)
        XCTAssertEqual(image[20, 19].a, 255)
        XCTAssertEqual(image[20, 10], RGBA(0, 255, 255))
    }

    func testTheFringeFollowsAnEdgeSeenFlat() throws {
        // Row 20's centre is 0.2 px below the bottom edge: 1 − smoothstep(0.2) = 0.896.
        let image = try draw(leftDepth: 1, rightDepth: 1)
        XCTAssertEqual(Double(image[20, 20].a), 255 * 0.896, accuracy: 1.5)
        XCTAssertEqual(image[20, 21].a, 0, "a pixel past the line's two-pixel width")
    }

    func testTheFringeFadesAlongAnEdgeSeenInPerspective() throws {
        // The right end ten times as deep: mid-edge the varying lies far along
        // the edge from the pixel, so no fringe; at the near end it is there.
        let image = try draw(leftDepth: 1, rightDepth: 10)
        XCTAssertEqual(image[20, 20].a, 0)
        XCTAssertGreaterThan(image[5, 20].a, 0)
    }
}
