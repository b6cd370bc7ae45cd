import XCTest
import Raster
@testable import MapRendering

/// Icons and text in one collision index, each symbol's placed together as
/// MapLibre's `placeLayerBucketPart` places them.
final class SymbolJointPlacementTests: XCTestCase {
    let a = GlyphPBF.square(65, side: 4, left: 3, top: -15, advance: 10)
    let camera = VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 3, width: 128, height: 128)

    private func snapshot(layout: String, above: String = "") throws -> (bitmap: Bitmap, labels: [VectorMapLabel]) {
        var (folder, renderer) = try SDFTextDrawerTests.styled(a, points: [[0, 0]], layout: layout, above: above)
        defer { try? FileManager.default.removeItem(at: folder) }
        renderer.sprites = try SymbolIconTests.sprites()
        return try renderer.snapshot(camera)
    }

    /// Whether the 4 × 4 icon (red, blue top-left) is drawn at the image's centre.
    private func iconDrawn(_ bitmap: Bitmap) -> Bool { bitmap[65, 65] == RGBA(255, 0, 0) }

    func testTextAvoidsAnotherSymbolsIcon() throws {
        // The icon layer above is placed first; the text under it at the same point collides.
        let icon = #", {"id": "icon", "type": "symbol", "source": "points", "layout": {"icon-image": "box"}}"#
        let (bitmap, labels) = try snapshot(layout: "\"text-size\": 24", above: icon)
        XCTAssertTrue(iconDrawn(bitmap))
        XCTAssertEqual(labels.count, 0)
    }

    func testTextMayCoverItsOwnIcon() throws {
        let (bitmap, labels) = try snapshot(layout: "\"text-size\": 24, \"icon-image\": \"box\", \"icon-offset\": [0, 0]")
        XCTAssertEqual(labels.count, 1)
        XCTAssertTrue(iconDrawn(bitmap) || bitmap[65, 65] != .white, "the icon is placed under its text")
    }

    func testIconIsDroppedWithItsText() throws {
        // Text above, an em and a half below the point; the symbol under it has its icon at
        // the point (clear) and its text in the same place (taken): the icon is not drawn
        // without its text (`text-optional` would allow it; it is not read).
        let above = #", {"id": "first", "type": "symbol", "source": "points", "layout": {"text-field": "A", "text-font": ["Test Font"], "text-size": 24, "text-offset": [0, 1.5]}}"#
        let (bitmap, labels) = try snapshot(layout: "\"text-size\": 24, \"text-offset\": [0, 1.5], \"icon-image\": \"box\"", above: above)
        XCTAssertEqual(labels.map(\.layerID), ["first"])
        XCTAssertFalse(iconDrawn(bitmap), "the icon is dropped with its text")
    }

    func testTextNeedsItsIconUnlessIconOptional() throws {
        // An icon above at the point takes the place of the symbol's icon: its text
        // (clear, below) is dropped with it, unless the icon is optional.
        let above = #", {"id": "first", "type": "symbol", "source": "points", "layout": {"icon-image": "box"}}"#
        let required = try snapshot(layout: "\"text-size\": 24, \"text-offset\": [0, 1.5], \"icon-image\": \"box\"", above: above)
        XCTAssertEqual(required.labels.count, 0)
        let optional = try snapshot(layout: "\"text-size\": 24, \"text-offset\": [0, 1.5], \"icon-image\": \"box\", \"icon-optional\": true",
                                    above: above)
        XCTAssertEqual(optional.labels.count, 1)
    }
}
