import Foundation
import Raster
import XCTest
@testable import MapRendering

/// `icon-text-fit`: the icon stretched around its text (MapLibre's
/// `fitIconToText`), a sprite's `stretchX`/`stretchY` parts alone stretching
/// (`getIconQuads`), and symbols drawn under the layers a style puts above them.
final class IconTextFitTests: XCTestCase {
    /// A 10 × 10 image stretching in its middle 4 pixels both ways.
    static func ninePart(content: [Double]? = nil) throws -> SpriteImage {
        SpriteImage(name: "n", x: 0, y: 0, width: 10, height: 10, pixelRatio: 1, sdf: false, stretchX: [3...7], stretchY: [3...7],
                    content: content, sheet: try Bitmap(width: 10, height: 10, fill: RGBA(255, 0, 0)))
    }

    func testBothFitsTheTextBoxGrownByThePadding() throws {
        let image = try Self.ninePart()
        let text = ShapedText(glyphs: [], left: -30, top: -10, right: 30, bottom: 10, lineCount: 1)
        var box = IconQuads(image, offset: [0, 0], anchor: .center)
        XCTAssertEqual([box.left, box.top, box.right, box.bottom], [-5, -5, 5, 5])
        box.fit(image, to: text, .both, padding: [1, 2, 3, 4], offset: [1, 0], fontScale: 0.5)
        XCTAssertEqual([box.left, box.top, box.right, box.bottom], [-18, -6, 18, 8])
        // Width only: the height stays the image's, centred on the text.
        var wide = IconQuads(image, offset: [0, 0], anchor: .center)
        wide.fit(image, to: text, .width, padding: [0, 0, 0, 0], offset: [0, 0], fontScale: 1)
        XCTAssertEqual([wide.left, wide.top, wide.right, wide.bottom], [-30, -5, 30, 5])
        XCTAssertNil(wide.collisionPadding)
    }

    func testNinePartQuadsKeepTheCornersAtTheirPixelSize() throws {
        let image = try Self.ninePart()
        var box = IconQuads(image, offset: [0, 0], anchor: .center)
        box.fit(image, to: ShapedText(glyphs: [], left: -20, top: -15, right: 20, bottom: 15, lineCount: 1), .both,
                padding: [0, 0, 0, 0], offset: [0, 0], fontScale: 1)
        let quads = box.quads(image, stretched: true)
        XCTAssertEqual(quads.count, 9)
        // The top-left corner: 3 pixels and the border pixel, unscaled.
        let corner = quads[0].corners(size: 1)
        XCTAssertEqual([corner.topLeft.x, corner.topLeft.y, corner.bottomRight.x, corner.bottomRight.y], [-21, -16, -17, -12])
        XCTAssertEqual([quads[0].texX, quads[0].texY, quads[0].texWidth, quads[0].texHeight], [-1, -1, 4, 4])
        // The middle: the 4 stretching pixels fill what the corners leave.
        let middle = quads[4].corners(size: 1)
        XCTAssertEqual([middle.topLeft.x, middle.topLeft.y, middle.bottomRight.x, middle.bottomRight.y], [-17, -12, 17, 12])
        XCTAssertEqual([quads[4].texX, quads[4].texWidth], [3, 4])
        // Not stretched (no icon-text-fit): one quad, the whole image and its border.
        XCTAssertEqual(IconQuads(image, offset: [0, 0], anchor: .center).quads(image, stretched: false).count, 1)
    }

    func testContentPadsTheCollisionBoxAndNarrowsTheStretch() throws {
        let image = try Self.ninePart(content: [2, 2, 8, 8])
        var box = IconQuads(image, offset: [0, 0], anchor: .center)
        box.fit(image, to: ShapedText(glyphs: [], left: -20, top: -15, right: 20, bottom: 15, lineCount: 1), .both,
                padding: [0, 0, 0, 0], offset: [0, 0], fontScale: 1)
        let padding = try XCTUnwrap(box.collisionPadding)
        XCTAssertEqual([padding.left, padding.top, padding.right, padding.bottom], [2, 2, 2, 2])
        // The content box (pixels 2…8) spans the text: the 2 fixed pixels before the stretch inside it sit left of the text.
        let corner = box.quads(image, stretched: true)[0].corners(size: 1)
        XCTAssertEqual([corner.topLeft.x, corner.bottomRight.x], [-23, -19])
    }

    func testProportionalContentKeepsItsAspectRatio() throws {
        // A square content box fitted to a 40 × 30 text: proportional both ways, the
        // height wins and the width narrows to 30 (the left edge from −20 to −15).
        var image = try Self.ninePart(content: [2, 2, 8, 8])
        image.textFitWidth = .proportional
        image.textFitHeight = .proportional
        var box = IconQuads(image, offset: [0, 0], anchor: .center)
        box.fit(image, to: ShapedText(glyphs: [], left: -20, top: -15, right: 20, bottom: 15, lineCount: 1), .both,
                padding: [0, 0, 0, 0], offset: [0, 0], fontScale: 1)
        let corner = box.quads(image, stretched: true)[0].corners(size: 1)
        XCTAssertEqual([corner.topLeft.x, corner.bottomRight.x], [-18, -14])
        XCTAssertEqual(try SpriteSheet.readIndex(Data(#"{"a": {"x": 0, "y": 0, "width": 1, "height": 1, "textFitWidth": "proportional"}}"#.utf8), file: "s.json",
                                                 limits: .default).first?.textFitWidth, .proportional)
        XCTAssertThrowsError(try SpriteSheet.readIndex(Data(#"{"a": {"x": 0, "y": 0, "width": 1, "height": 1, "textFitHeight": "wide"}}"#.utf8),
                                                       file: "s.json", limits: .default)) { error in
            XCTAssertTrue(String(describing: error).contains("'textFitHeight' is stretchOrShrink, stretchOnly or proportional"), "\(error)")
        }
    }

    /// A label 'A' (the 4-pixel square glyph of ``SDFTextDrawerTests``, advance 10) at
    /// (0, 0) with the icon "box" of ``SymbolIconTests`` and `layout`, under the layers `above`.
    func render(layout: String, above: String = "") throws -> Bitmap {
        let a = GlyphPBF.square(65, side: 4, left: 3, top: -15, advance: 10)
        var (folder, renderer) = try SDFTextDrawerTests.styled(a, points: [[0, 0]], layout: #""text-size": 24, "icon-image": "box", "# + layout,
                                                               above: above)
        defer { try? FileManager.default.removeItem(at: folder) }
        renderer.sprites = try SymbolIconTests.sprites()
        return try renderer.render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 3, width: 64, height: 64))
    }

    func testIconIsStretchedAroundTheLabel() throws {
        // The text's box at 24 px: 10 wide (the advance), 28.8 high (one line of 1.2 em),
        // grown by the padding to 30 × 32.8 about the point (32, 32).
        let fitted = try render(layout: #""icon-text-fit": "both", "icon-text-fit-padding": [2, 10, 2, 10]"#)
        XCTAssertEqual(fitted[40, 40], RGBA(255, 0, 0))
        XCTAssertEqual(fitted[18, 46], RGBA(255, 0, 0))
        XCTAssertEqual(fitted[15, 32], .white)
        XCTAssertEqual(fitted[32, 14], .white)
        // Without the fit the 4-pixel image stays 4 pixels.
        let plain = try render(layout: #""icon-text-fit": "none""#)
        XCTAssertEqual(plain[40, 40], .white)
    }

    func testSymbolsAreDrawnUnderTheLayersAboveThem() throws {
        let above = #", {"id": "veil", "type": "background", "paint": {"background-color": "blue", "background-opacity": 0.5}}"#
        let image = try render(layout: #""icon-text-fit": "both", "icon-text-fit-padding": [2, 10, 2, 10]"#, above: above)
        // The icon's red under half blue, the white around it too.
        XCTAssertEqual(Int(image[40, 40].r), 128, accuracy: 2)
        XCTAssertEqual(Int(image[40, 40].b), 128, accuracy: 2)
        XCTAssertEqual(Int(image[4, 4].r), 128, accuracy: 2)
        XCTAssertEqual(image[4, 4].b, 255)
    }
}
