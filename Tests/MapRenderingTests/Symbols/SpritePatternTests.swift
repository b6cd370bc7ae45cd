import Foundation
import ImageCodecs
import Raster
import XCTest
@testable import MapRendering

/// `background-pattern` and `fill-pattern` tiled from the sprite, anchored to
/// the world's origin as MapLibre anchors them.
final class SpritePatternTests: XCTestCase {
    static let colors = [RGBA(255, 0, 0), RGBA(0, 255, 0), RGBA(0, 0, 255), RGBA(255, 255, 0)]

    /// Sprites with `checker`, 2 × 2 pixels of ``colors`` row by row.
    static func sprites() throws -> Sprites {
        var sheet = try Bitmap(width: 2, height: 2)
        for (i, c) in colors.enumerated() { sheet.pixels.replaceSubrange((i * 4)..<(i * 4 + 4), with: [c.r, c.g, c.b, c.a]) }
        let index = #"{"checker": {"x": 0, "y": 0, "width": 2, "height": 2}}"#
        return Sprites(images: try SpriteSheet(index: Data(index.utf8), sheet: PNGEncoder().encode(sheet), name: "t").images)
    }

    func render(_ layers: String, zoom: Double = 1) throws -> Bitmap {
        let style = try VectorStyle(json: #"""
        {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[[-60, -60], [60, -60], [60, 60], [-60, 60], [-60, -60]]]}}},
         "layers": \#(layers)}
        """#)
        guard case .geojson(let geojson)? = style.sources["g"]?.kind, case .inline(let document) = geojson.data else { throw FixtureError("the fixture style did not read as expected") }
        var renderer = VectorMapRenderer(tiles: geojson.tiles(document), sourceName: "g", style: style)
        renderer.sprites = try Self.sprites()
        return try renderer.render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: zoom, width: 64, height: 64))
    }

    func testBackgroundPatternIsAnchoredToTheWorld() throws {
        // At style zoom 0 the world is 512 pixels and the view's left edge is at 224: an even column.
        let image = try render(#"[{"id": "bg", "type": "background", "paint": {"background-pattern": "checker"}}]"#)
        XCTAssertEqual(image[0, 0], Self.colors[0])
        XCTAssertEqual(image[1, 0], Self.colors[1])
        XCTAssertEqual(image[0, 1], Self.colors[2])
        XCTAssertEqual(image[33, 33], Self.colors[3])
    }

    func testFillPatternFillsThePolygonAndAMissingImageDrawsNothing() throws {
        let image = try render(#"""
        [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
         {"id": "f", "type": "fill", "source": "g", "paint": {"fill-pattern": "checker", "fill-opacity": 0.5}}]
        """#)
        let pixel = image[33, 33]
        XCTAssertEqual([pixel.r, pixel.g, pixel.b], [255, 255, 128].map { UInt8($0) }, "yellow at half opacity over white")
        let missing = try render(#"""
        [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
         {"id": "f", "type": "fill", "source": "g", "paint": {"fill-pattern": "nothing", "fill-color": "red"}}]
        """#)
        XCTAssertEqual(missing[33, 32], .white)
    }
}
