import XCTest
@testable import MapRendering
import Raster

/// `text-variable-anchor` and `text-variable-anchor-offset` placed as MapLibre
/// places them: the text shaped about the point, the label moved off it by half
/// its padded box and the anchor's offset, anchors tried in order, and with
/// overlap allowed a second round that may overlap.
final class VariableAnchorPlacementTests: XCTestCase {
    /// "A": advance 10 at 24 px, so a label 10 × 24 pixels at text-size 24.
    let a = GlyphPBF.square(65, side: 4, left: 3, top: -15, advance: 10)
    let camera = VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 3, width: 128, height: 128)

    private func labels(points: Int, layout: String) throws -> [VectorMapLabel] {
        let (folder, renderer) = try SDFTextDrawerTests.styled(a, points: Array(repeating: [0, 0], count: points), layout: layout)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try renderer.snapshot(camera).labels
    }

    private func drawnAt(_ label: VectorMapLabel) -> Point? {
        if case .sdf(_, _, _, let at) = label.layout { return at }
        return nil
    }

    func testPaddingMovesTheLabelOffThePoint() throws {
        // `left` with 3 pixels of padding: the padded box starts at the point, so the
        // text 3 pixels right of it (MapLibre's shift is half the padded width).
        let placed = try labels(points: 1, layout: "\"text-size\": 24, \"text-padding\": 3, \"text-variable-anchor\": [\"left\"]")
        let label = try XCTUnwrap(placed.first)
        XCTAssertEqual(label.boxes[0].minX - label.anchor.x, 3, accuracy: 1e-9)
        let at = try XCTUnwrap(drawnAt(label))
        XCTAssertEqual(at.x - label.anchor.x, 5 + 3, accuracy: 1e-9, "the text's centre: half its width and the padding right")
        XCTAssertEqual(at.y, label.anchor.y, accuracy: 1e-9)
    }

    func testAllowOverlapTriesEveryAnchorClearFirst() throws {
        // Five labels at one point, overlap allowed, each an em off the point: the
        // first four take the four anchors in turn (each clear of those before), the
        // fifth overlaps at the first anchor.
        let placed = try labels(points: 5, layout: """
            "text-size": 24, "text-padding": 0, "text-allow-overlap": true, "text-radial-offset": 1,
            "text-variable-anchor": ["left", "right", "top", "bottom"]
            """)
        XCTAssertEqual(placed.count, 5)
        guard placed.count == 5 else { return }
        let p = placed[0].anchor
        let sides = placed.map { label -> String in
            let box = label.boxes[0]
            let cx = (box.minX + box.maxX) / 2, cy = (box.minY + box.maxY) / 2
            if cx > p.x + 1 { return "left" }
            if cx < p.x - 1 { return "right" }
            return cy > p.y ? "top" : "bottom"
        }
        XCTAssertEqual(sides, ["left", "right", "top", "bottom", "left"])
    }

    func testAnchorOffsetsInEms() throws {
        // `right` 1 em right of its place: the text ends 24 pixels right of the point.
        let right = try XCTUnwrap(labels(points: 1, layout: """
            "text-size": 24, "text-padding": 0, "text-variable-anchor-offset": ["right", [1, 0]]
            """).first)
        XCTAssertEqual(right.boxes[0].maxX - right.anchor.x, 24, accuracy: 1e-9)
        // `top` 1 em down: less MapLibre's baseline offset of 7 pixels at 24 px.
        let top = try XCTUnwrap(labels(points: 1, layout: """
            "text-size": 24, "text-padding": 0, "text-variable-anchor-offset": ["top", [0, 1]]
            """).first)
        XCTAssertEqual(top.boxes[0].minY - top.anchor.y, 24 - 7, accuracy: 1e-9)
        XCTAssertEqual((top.boxes[0].minX + top.boxes[0].maxX) / 2, top.anchor.x, accuracy: 1e-9)
    }

    func testAnchorOffsetsReplaceVariableAnchors() throws {
        // Both given: `text-variable-anchor-offset` wins (MapLibre's `getTextVariableAnchorOffset`).
        let label = try XCTUnwrap(labels(points: 1, layout: """
            "text-size": 24, "text-padding": 0, "text-variable-anchor": ["left"],
            "text-variable-anchor-offset": ["right", [0, 0]]
            """).first)
        XCTAssertEqual(label.boxes[0].maxX, label.anchor.x, accuracy: 1e-9)
    }
}
