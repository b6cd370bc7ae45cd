import Raster
import XCTest
@testable import MapRendering

/// Fills as MapLibre draws them, flat and under pitch: triangles cut at pixel
/// centres, the outline's fringe measured to a (perspective-correct) `v_pos`.
final class MapLibreFillTests: XCTestCase {
    /// A 40 × 40 canvas with the square (5…35, 5…20.3) filled cyan, its
    /// corners at `depths` (left ones, right ones), with an outline.
    func draw(leftDepth: Double, rightDepth: Double) throws -> Bitmap {
        var canvas = try Canvas(width: 40, height: 40, rows: 0..<40)
        let ring = [Point(5, 5), Point(35, 5), Point(35, 20.3), Point(5, 20.3)]
        canvas.fillAsMapLibre(rings: [ring], depths: [[leftDepth, rightDepth, rightDepth, leftDepth]], color: RGBA(0, 255, 255),
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

    /// A translucent fill's outline blends over the fill's own edge pixels (no
    /// depth was written to keep it off), and past its tile square nothing is drawn.
    func testATranslucentFillsOutlineDarkensItsEdgeWithinItsTile() throws {
        var canvas = try Canvas(width: 40, height: 40, rows: 0..<40)
        // The left edge at x = 12.09, as in MapLibre's within/* tests; the tile ends at x = 30.
        let ring = [Point(12.09, 5), Point(35, 5), Point(35, 30), Point(12.09, 30)]
        canvas.fillAsMapLibre(rings: [ring], tiles: [PixelSquare(minX: 0, minY: 0, maxX: 30, maxY: 40)],
                              color: RGBA(0, 0, 0, 128), outline: nil, antialias: true)
        let image = canvas.bitmap
        // Column 11 (centre 0.59 px out): the outline alone, 1 − smoothstep(0.59) of half opacity.
        let outside = 1 - 0.59 * 0.59 * (3 - 2 * 0.59)
        XCTAssertEqual(Double(image[11, 20].a), 128 * outside, accuracy: 2)
        // Column 12 (0.41 px in): the fill, then the outline over it.
        let inside = 1 - 0.41 * 0.41 * (3 - 2 * 0.41)
        XCTAssertEqual(Double(image[12, 20].a), 128 + 128 * inside * (1 - 128.0 / 255), accuracy: 2)
        XCTAssertEqual(image[20, 20].a, 128, "the fill alone inside")
        // The right edge lies in the tile's buffer: no outline at column 34 or 35.
        XCTAssertEqual(image[34, 20].a, 128)
        XCTAssertEqual(image[35, 20].a, 0)
    }

    /// An opaque fill without an outline colour keeps its outline off its own pixels.
    func testAnOpaqueFillsOutlineStaysOutsideIt() throws {
        var canvas = try Canvas(width: 40, height: 40, rows: 0..<40)
        canvas.fillAsMapLibre(rings: [[Point(12.09, 5), Point(35, 5), Point(35, 30), Point(12.09, 30)]],
                              color: RGBA(0, 0, 255), outline: RGBA(255, 0, 0, 128), antialias: false)
        XCTAssertEqual(canvas.bitmap[11, 20].a, 0, "no outline without fill-antialias")
        var outlined = try Canvas(width: 40, height: 40, rows: 0..<40)
        outlined.fillAsMapLibre(rings: [[Point(12.09, 5), Point(35, 5), Point(35, 30), Point(12.09, 30)]],
                                color: RGBA(0, 0, 255), outline: nil, antialias: true)
        XCTAssertEqual(outlined.bitmap[12, 20], RGBA(0, 0, 255))
        XCTAssertGreaterThan(outlined.bitmap[11, 20].a, 0)
    }
}
