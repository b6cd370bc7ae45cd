import XCTest
import Raster
@testable import MapRendering

/// Anchors along lines, glyphs set on them and lines joined, against values
/// worked out by hand from MapLibre's `get_anchors.ts`, `check_max_angle.ts`,
/// `clip_line.ts`, `merge_lines.ts` and `projection.ts`.
final class LineAnchorsTests: XCTestCase {
    func options(spacing: Double, labelWidth: Double = 0, hasText: Bool = false, maxAngle: Double = 45) -> LineAnchors.Options {
        LineAnchors.Options(spacing: spacing, labelWidth: labelWidth, boxScale: 1, hasText: hasText, maxAngle: maxAngle * .pi / 180, overscaling: 1)
    }

    func testAnchorsStartTwoEmsIntoALinesOwnEnd() {
        // Offset: (0 / 2 + 2 × 24) × 1 = 48, then every 1000 while the label fits.
        let anchors = LineAnchors.anchors([Point(100, 100), Point(8000, 100)], options(spacing: 1000))
        XCTAssertEqual(anchors.map(\.x), [148, 1148, 2148, 3148, 4148, 5148, 6148, 7148])
        XCTAssertEqual(anchors.first, LineAnchors.Anchor(x: 148, y: 100, angle: 0, segment: 0))
    }

    func testAnchorsStartHalfASpacingIntoALineContinuedFromAnotherTile() {
        let anchors = LineAnchors.anchors([Point(0, 100), Point(8000, 100)], options(spacing: 1000))
        XCTAssertEqual(anchors.map(\.x), [500, 1500, 2500, 3500, 4500, 5500, 6500, 7500])
    }

    func testLongLabelsWidenTheSpacingAndMustFitOnTheLine() {
        // Label 900 long, spacing 1000: 1000 - 900 < 250, so the spacing becomes 1150; the first
        // anchor 450 + 48 along, the next (1648) leaves no 450 before the 2000-long line ends.
        let anchors = LineAnchors.anchors([Point(100, 100), Point(2100, 100)], options(spacing: 1000, labelWidth: 900))
        XCTAssertEqual(anchors.map(\.x), [598])
        // Too short for the label at all: one try at the middle, which fails too.
        XCTAssertEqual(LineAnchors.anchors([Point(100, 100), Point(900, 100)], options(spacing: 1000, labelWidth: 900)), [])
    }

    func testTextMaxAngleRejectsASharpCornerUnderTheLabel() {
        let line = [Point(1000, 1000), Point(2000, 1000), Point(2000, 2000)]
        XCTAssertNil(LineAnchors.centerAnchor(line, options(spacing: 0, labelWidth: 400, hasText: true, maxAngle: 45)))
        XCTAssertEqual(LineAnchors.centerAnchor(line, options(spacing: 0, labelWidth: 400, hasText: true, maxAngle: 100)),
                       LineAnchors.Anchor(x: 2000, y: 1000, angle: .pi / 2, segment: 1))
        // Icons alone are not held to it.
        XCTAssertNotNil(LineAnchors.centerAnchor(line, options(spacing: 0, labelWidth: 400, hasText: false, maxAngle: 45)))
    }

    func testClipCutsAtTheTileEdgeWithRoundedPoints() {
        XCTAssertEqual(LineAnchors.clip([[Point(-100, 100), Point(100, 201)]], extent: 8192), [[Point(0, 151), Point(100, 201)]])
        XCTAssertEqual(LineAnchors.clip([[Point(-100, 100), Point(-10, 201)]], extent: 8192), [])
    }

    func testGlyphsFollowTheLineAndFlipToStayUpright() throws {
        let rightwards = LineGlyphPlacer(line: [Point(0, 0), Point(100, 0)], anchor: Point(50, 0), segment: 0)
        let placed = try XCTUnwrap(rightwards.place([-10, 10], keepUpright: true))
        XCTAssertEqual(placed.map(\.point), [Point(40, 0), Point(60, 0)])
        XCTAssertEqual(cos(placed[0].angle), 1, accuracy: 1e-9)
        // Drawn leftwards: flipped, so the first glyph is still on the left and upright.
        let leftwards = LineGlyphPlacer(line: [Point(100, 0), Point(0, 0)], anchor: Point(50, 0), segment: 0)
        let flipped = try XCTUnwrap(leftwards.place([-10, 10], keepUpright: true))
        XCTAssertEqual(flipped.map(\.point), [Point(40, 0), Point(60, 0)])
        XCTAssertEqual(cos(flipped[0].angle), 1, accuracy: 1e-9)
        // Without keep-upright it reads upside down, right to left.
        let unflipped = try XCTUnwrap(leftwards.place([-10, 10], keepUpright: false))
        XCTAssertEqual(unflipped.map(\.point), [Point(60, 0), Point(40, 0)])
        XCTAssertEqual(cos(unflipped[0].angle), -1, accuracy: 1e-9)
        // A glyph past the line's end hides the label.
        XCTAssertNil(rightwards.place([-10, 60], keepUpright: true))
    }

    func testGlyphsTurnAtTheLinesBends() throws {
        let bent = LineGlyphPlacer(line: [Point(0, 0), Point(50, 0), Point(50, 50)], anchor: Point(40, 0), segment: 0)
        let placed = try XCTUnwrap(bent.place([20], keepUpright: false))
        XCTAssertEqual(placed[0].point.x, 50, accuracy: 1e-9)
        XCTAssertEqual(placed[0].point.y, 10, accuracy: 1e-9)
        XCTAssertEqual(placed[0].angle, .pi / 2, accuracy: 1e-9)
    }

    func testLinesOfOneTextMeetingEndToStartAreJoined() {
        let merged = LineSymbolAnchors.merged([
            (0, "Main", [[Point(0, 0), Point(10, 0)]]),
            (1, "Side", [[Point(10, 0), Point(10, 10)]]),
            (2, "Main", [[Point(20, 0), Point(30, 0)]]),
            (3, "Main", [[Point(10, 0), Point(20, 0)]]),
        ])
        XCTAssertEqual(merged[0], [[Point(0, 0), Point(10, 0), Point(20, 0), Point(30, 0)]])
        XCTAssertEqual(merged[1], [[Point(10, 0), Point(10, 10)]])
        XCTAssertNil(merged[2])
        XCTAssertNil(merged[3])
    }
}

/// Collision circles against boxes and circles, as MapLibre's `GridIndex` tests them.
final class LabelCollisionCircleTests: XCTestCase {
    func testCirclesMissABoxTheirBoundsWouldHit() {
        var index = LabelCollisionIndex(width: 200, height: 200)
        index.insert([LabelBox(minX: 100, minY: 100, maxX: 150, maxY: 150)])
        // The circle's bounding box overlaps the box's corner; the circle does not.
        XCTAssertFalse(index.collides(circles: [(Point(93, 93), 9)]))
        XCTAssertTrue(index.collides(circles: [(Point(95, 120), 6)]))
        index.insert(circles: [(Point(40, 40), 10)])
        XCTAssertTrue(index.collides(circles: [(Point(55, 40), 6)]))
        XCTAssertFalse(index.collides(circles: [(Point(55, 40), 4)]))
        // A box over a circle's bounds' corner clears the circle.
        XCTAssertFalse(index.collides([LabelBox(minX: 48, minY: 48, maxX: 60, maxY: 60)]))
        XCTAssertTrue(index.collides([LabelBox(minX: 45, minY: 35, maxX: 60, maxY: 45)]))
    }
}

extension LineAnchorsTests {
    func testATinySpacingOnALongLineIsBoundedInTries() {
        // Every place lies outside the (100-unit) tile, at a spacing of a ten-thousandth of a
        // unit: no anchor, and not 10⁸ tries.
        let start = Date()
        let anchors = LineAnchors.anchors([Point(100, 100), Point(8000, 100), Point(8000, 8000)], options(spacing: 0.0001), extent: 100)
        XCTAssertEqual(anchors, [])
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
    }
}
