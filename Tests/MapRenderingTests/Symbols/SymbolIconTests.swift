import Foundation
import ImageCodecs
import Raster
import XCTest
@testable import MapRendering

/// Icons drawn from a sprite at a GeoJSON point, as MapLibre draws them:
/// centred by default, moved by `icon-anchor`/`icon-offset`/`icon-translate`,
/// an SDF image recoloured, collisions and missing images.
final class SymbolIconTests: XCTestCase {
    /// A 4 × 4 red image with a blue top-left pixel, and an SDF image (alpha 255 inside).
    static func sprites() throws -> Sprites {
        var sheet = try Bitmap(width: 8, height: 4, fill: RGBA(255, 0, 0))
        sheet.pixels[0...3] = [0, 0, 255, 255]
        for x in 4..<8 { for y in 0..<4 { sheet.pixels.replaceSubrange(((y * 8 + x) * 4)..<((y * 8 + x) * 4 + 4), with: [0, 0, 0, 255]) } }
        let index = #"{"box": {"x": 0, "y": 0, "width": 4, "height": 4}, "sdf": {"x": 4, "y": 0, "width": 4, "height": 4, "sdf": true}}"#
        return Sprites(images: try SpriteSheet(index: Data(index.utf8), sheet: PNGEncoder().encode(sheet), name: "t").images)
    }

    /// The 64 × 64 image of a symbol layer with `layout`/`paint` over points at `points` (longitude, latitude).
    func render(layout: String, paint: String = "{}", points: [(Double, Double)] = [(0, 0)]) throws -> (Bitmap, VectorStyle) {
        let features = points.map { #"{"type": "Feature", "properties": {"kind": "box"}, "geometry": {"type": "Point", "coordinates": [\#($0.0), \#($0.1)]}}"# }
        let style = try VectorStyle(json: #"""
        {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "icons", "type": "symbol", "source": "g", "layout": \#(layout), "paint": \#(paint)}]}
        """#)
        guard case .geojson(let geojson)? = style.sources["g"]?.kind, case .inline(let document) = geojson.data else { throw FixtureError("the fixture style did not read as expected") }
        var renderer = VectorMapRenderer(tiles: geojson.tiles(document), sourceName: "g", style: style)
        renderer.sprites = try Self.sprites()
        let camera = VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 2, width: 64, height: 64)
        return (try renderer.render(camera), style)
    }

    func testIconIsDrawnCentredOnItsPointTexelForPixel() throws {
        let (image, style) = try render(layout: #"{"icon-image": "{kind}"}"#)
        XCTAssertEqual(style.warnings, [])
        XCTAssertEqual(image[30, 30], RGBA(0, 0, 255))
        XCTAssertEqual(image[33, 33], RGBA(255, 0, 0))
        XCTAssertEqual(image[31, 30], RGBA(255, 0, 0))
        XCTAssertEqual(image[29, 30], .white)
        XCTAssertEqual(image[34, 34], .white)
    }

    func testAnchorOffsetAndTranslateMoveTheIcon() throws {
        // Top-left at the point, then 2 image pixels × size 1 right, then 3 pixels down.
        let (image, _) = try render(layout: #"{"icon-image": ["image", "box"], "icon-anchor": "top-left", "icon-offset": [2, 0]}"#,
                                    paint: #"{"icon-translate": [0, 3]}"#)
        XCTAssertEqual(image[34, 35], RGBA(0, 0, 255))
        XCTAssertEqual(image[37, 38], RGBA(255, 0, 0))
        XCTAssertEqual(image[33, 35], .white)
        XCTAssertEqual(image[30, 30], .white)
    }

    func testSDFIconIsRecolouredByIconColor() throws {
        let (image, _) = try render(layout: #"{"icon-image": "sdf"}"#, paint: ##"{"icon-color": "#00ff00", "icon-opacity": 0.5}"##)
        let inside = image[32, 32]
        XCTAssertEqual(inside.r, 127, accuracy: 2)
        XCTAssertEqual(inside.g, 255)
        XCTAssertEqual(inside.b, 127, accuracy: 2)
    }

    func testOverlappingIconsCollideUnlessAllowed() throws {
        // Two points 1 pixel apart at zoom 2 (a degree is ~0.7 pixel): the second is dropped.
        let points = [(0.0, 0.0), (1.4, 0.0)]
        let (dropped, _) = try render(layout: #"{"icon-image": "box"}"#, points: points)
        XCTAssertEqual(dropped[34, 33], .white)
        let (both, _) = try render(layout: #"{"icon-image": "box", "icon-allow-overlap": true}"#, points: points)
        XCTAssertEqual(both[34, 33], RGBA(255, 0, 0))
    }

    func testMissingImagesAreNamedOnce() throws {
        let style = try VectorStyle(json: #"""
        {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
         "layers": [{"id": "a", "type": "symbol", "source": "g", "layout": {"icon-image": "nowhere"}},
                    {"id": "b", "type": "symbol", "source": "g", "layout": {"icon-image": "box"}},
                    {"id": "c", "type": "symbol", "source": "g", "layout": {"icon-image": "nowhere"}}]}
        """#)
        XCTAssertEqual(try Self.sprites().warnings(for: style), ["image 'nowhere' is not in the sprite: layer 'a' draws no icon, layer 'c' draws no icon"])
    }
}
