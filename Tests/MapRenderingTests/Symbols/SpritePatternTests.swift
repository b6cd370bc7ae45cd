import Foundation
import ImageCodecs
import Raster
import XCTest
@testable import MapRendering

/// `background-pattern` and `fill-pattern` tiled from the sprite, anchored to
/// the world's origin as MapLibre anchors them.
final class SpritePatternTests: XCTestCase {
    static let colors = [RGBA(255, 0, 0), RGBA(0, 255, 0), RGBA(0, 0, 255), RGBA(255, 255, 0)]

    /// Sprites with `checker`, 2 × 2 pixels of ``colors`` row by row, and
    /// `cyan`, 2 × 2 opaque cyan pixels beside it.
    static func sprites() throws -> Sprites {
        var sheet = try Bitmap(width: 4, height: 2)
        for (i, c) in colors.enumerated() { sheet[i % 2, i / 2] = c }
        for x in 2..<4 { for y in 0..<2 { sheet[x, y] = RGBA(0, 255, 255) } }
        let index = #"{"checker": {"x": 0, "y": 0, "width": 2, "height": 2}, "cyan": {"x": 2, "y": 0, "width": 2, "height": 2}}"#
        return Sprites(images: try SpriteSheet(index: Data(index.utf8), sheet: PNGEncoder().encode(sheet), name: "t").images)
    }

    /// The polygon ±60° square (or `data`, GeoJSON) drawn by `layers` at `zoom`, turned by `bearing`.
    func render(_ layers: String, zoom: Double = 1, bearing: Double = 0,
                data: String = #"{"type": "Polygon", "coordinates": [[[-60, -60], [60, -60], [60, 60], [-60, 60], [-60, -60]]]}"#) throws -> Bitmap {
        let style = try VectorStyle(json: #"""
        {"version": 8, "sources": {"g": {"type": "geojson", "data": \#(data)}},
         "layers": \#(layers)}
        """#)
        guard case .geojson(let geojson)? = style.sources["g"]?.kind, case .inline(let document) = geojson.data else { throw FixtureError("the fixture style did not read as expected") }
        var renderer = VectorMapRenderer(tiles: geojson.tiles(document), sourceName: "g", style: style)
        renderer.sprites = try Self.sprites()
        return try renderer.render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: zoom, width: 64, height: 64,
                                                   bearing: bearing))
    }

    func testBackgroundPatternTurnsWithTheMap() throws {
        // Turned a quarter, the view's columns run down the world: the checker's
        // row of red and green now runs down the image's first column.
        let image = try render(#"[{"id": "bg", "type": "background", "paint": {"background-pattern": "checker"}}]"#, bearing: 90)
        let (a, b) = (image[32, 32], image[32, 33])
        XCTAssertNotEqual(a, b)
        XCTAssertEqual(Set([a, b, image[33, 32], image[33, 33]]), Set(Self.colors))
        let upright = try render(#"[{"id": "bg", "type": "background", "paint": {"background-pattern": "checker"}}]"#)
        XCTAssertNotEqual([image[32, 32], image[33, 32]], [upright[32, 32], upright[33, 32]], "the checker turned")
    }

    func testFillPatternPerFeatureAndNoneWithoutAnImage() throws {
        let squares = #"""
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"kind": "a"}, "geometry": {"type": "Polygon", "coordinates": [[[-60, -20], [-10, -20], [-10, 20], [-60, 20], [-60, -20]]]}},
          {"type": "Feature", "properties": {"kind": "b"}, "geometry": {"type": "Polygon", "coordinates": [[[10, -20], [60, -20], [60, 20], [10, 20], [10, -20]]]}},
          {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[-10, 40], [10, 40], [10, 60], [-10, 60], [-10, 40]]]}}]}
        """#
        let image = try render(#"""
        [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
         {"id": "f", "type": "fill", "source": "g", "paint": {"fill-color": "black",
          "fill-pattern": ["match", ["get", "kind"], "a", "checker", "b", "cyan", ""]}}]
        """#, data: squares)
        XCTAssertTrue(Self.colors.contains(image[14, 32]), "the first square is checkered")
        XCTAssertEqual(image[50, 32], RGBA(0, 255, 255), "the second is cyan")
        XCTAssertEqual(image[32, 16], .white, "a feature without an image draws nothing, not the fill colour")
    }

    func testFillPatternWithoutAntialiasingIsCutAtPixelCentres() throws {
        // An edge at 10° of longitude lies inside a column: without anti-aliasing that column is all or nothing.
        let layers = #"""
        [{"id": "f", "type": "fill", "source": "g", "paint": {"fill-pattern": "cyan", "fill-antialias": %@}}]
        """#
        let data = #"{"type": "Polygon", "coordinates": [[[-10, -10], [10, -10], [10, 10], [-10, 10], [-10, -10]]]}"#
        let cut = try render(layers.replacingOccurrences(of: "%@", with: "false"), data: data)
        let smooth = try render(layers.replacingOccurrences(of: "%@", with: "true"), data: data)
        let cutAlphas = Set((0..<64).map { cut[$0, 32].a }), smoothAlphas = Set((0..<64).map { smooth[$0, 32].a })
        XCTAssertEqual(cutAlphas, [0, 255])
        XCTAssertTrue(smoothAlphas.contains { $0 != 0 && $0 != 255 }, "the anti-aliased edge has partial pixels")
    }

    func testLinePatternRunsAlongTheLineAndAcrossItsWidth() throws {
        // A 2-pixel line along the equator: across it the checker's two rows, along it a repeat per 2 pixels.
        let image = try render(#"""
        [{"id": "l", "type": "line", "source": "g", "paint": {"line-width": 2, "line-pattern": "checker"}}]
        """#, zoom: 4, data: #"{"type": "LineString", "coordinates": [[-20, 0], [20, 0]]}"#)
        let rows = [image[32, 31], image[32, 32]], next = [image[33, 31], image[33, 32]]
        XCTAssertTrue(rows.allSatisfy { $0.a == 255 } && next.allSatisfy { $0.a == 255 }, "\(rows) \(next)")
        XCTAssertNotEqual(rows[0], rows[1], "across the line: the image's rows")
        XCTAssertNotEqual(rows[0], next[0], "along the line: the image's columns")
        XCTAssertEqual(image[34, 31], image[32, 31], "one repeat per image width")
        XCTAssertEqual(Set(rows + next), Set(Self.colors))
    }

    func testFillExtrusionPatternTilesTheRoof() throws {
        let image = try render(#"""
        [{"id": "e", "type": "fill-extrusion", "source": "g", "paint": {"fill-extrusion-pattern": "checker", "fill-extrusion-height": 10}}]
        """#, zoom: 1)
        let roof = Set((30..<34).flatMap { x in (30..<34).map { image[x, $0] } })
        XCTAssertEqual(roof.count, 4, "the checker's four colours, lit alike: \(roof)")
        XCTAssertTrue(roof.allSatisfy { $0.a == 255 })
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
