import Foundation
import Raster
import XCTest
@testable import MapRendering

/// Lines drawn as MapLibre's GL pipeline draws them (its tessellation and
/// line shaders), checked on small snapshots of inline GeoJSON whose pixels
/// the shader's formula gives: alpha = clamp((outset − distance) / fade).
final class LineParityTests: XCTestCase {
    /// A snapshot `size` pixels square of `layers` (JSON, after a white
    /// background) over a GeoJSON source of `geometries` (JSON), centred on 0, 0.
    static func render(_ layers: String, geometries: [String], properties: [String]? = nil, size: Int = 32, zoom: Double = 4) throws -> Bitmap {
        let features = geometries.indices.map {
            #"{"type":"Feature","properties":\#(properties?[$0] ?? "{}"),"geometry":\#(geometries[$0])}"#
        }.joined(separator: ",")
        let json = """
        {"version": 8, "sources": {"shapes": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features)]}}},
         "layers": [{"id": "background", "type": "background", "paint": {"background-color": "white"}}, \(layers)]}
        """
        let style = try VectorStyle(json: json)
        guard let source = style.sources["shapes"], case .geojson(let geojson) = source.kind, case .inline(let document) = geojson.data else {
            throw FixtureError("the style's GeoJSON source was not read")
        }
        let camera = VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: zoom + 1, width: size, height: size)
        return try VectorMapRenderer(tiles: geojson.tiles(document), sourceName: "shapes", style: style).render(camera)
    }

    /// A horizontal line along the equator, through the snapshot's middle (y = 16).
    static let equator = #"{"type":"LineString","coordinates":[[-40,0],[40,0]]}"#

    func testLineBlurFadesTheEdgeInwardOverOnePixelPlusTheBlur() throws {
        // Width 3, blur 2: outset 2, fade 3; a pixel centre d from the line gets (2 − d) / 3.
        let image = try Self.render(#"{"id": "l", "type": "line", "source": "shapes", "paint": {"line-width": 3, "line-blur": 2}}"#,
                                    geometries: [Self.equator])
        for (row, d) in [(15, 0.5), (14, 1.5), (17, 1.5), (13, 2.5)] {
            let expected = 255 * (1 - max(0, (2 - d) / 3))
            XCTAssertEqual(Double(image[16, row].r), expected, accuracy: 1.5, "row \(row), \(d) px from the line")
        }
    }

    func testLineEdgeFadesOverOnePixelAsMapLibresShader() throws {
        // Width 4 on y = 16: outset 2.5; rows 13 (d 2.5) clear, 14 (d 1.5) full.
        let image = try Self.render(#"{"id": "l", "type": "line", "source": "shapes", "paint": {"line-width": 4}}"#,
                                    geometries: [Self.equator])
        XCTAssertEqual(image[16, 13].r, 255)
        XCTAssertEqual(image[16, 14].r, 0)
        XCTAssertEqual(image[16, 17].r, 0)
        XCTAssertEqual(image[16, 18].r, 255)
    }

    func testTranslucentLinesBlendOnceEachWhereTheyCross() throws {
        // MapLibre blends every line's triangles on their own: where two
        // features cross, a 50 % black line over another gives 75 %.
        let image = try Self.render(#"{"id": "l", "type": "line", "source": "shapes", "paint": {"line-width": 6, "line-opacity": 0.5}}"#,
                                    geometries: [Self.equator, #"{"type":"LineString","coordinates":[[0,-40],[0,40]]}"#])
        XCTAssertEqual(Double(image[24, 16].r), 127.5, accuracy: 1.5, "one line alone")
        XCTAssertEqual(Double(image[16, 16].r), 63.75, accuracy: 1.5, "where the two cross")
    }

    func testLineTranslateMovesTheLine() throws {
        let image = try Self.render(#"{"id": "l", "type": "line", "source": "shapes", "paint": {"line-width": 2, "line-translate": [0, 6]}}"#,
                                    geometries: [Self.equator])
        XCTAssertEqual(image[16, 15].r, 255, "the line is no longer at its place")
        XCTAssertEqual(image[16, 22].r, 0)
        XCTAssertEqual(image[16, 21].r, 0)
    }

    func testCasingIsTwoStrokesEitherSideOfTheGap() throws {
        // Gap 4, width 2: strokes from 2 to 4 px either side, each edge fading over a pixel.
        let image = try Self.render(#"{"id": "l", "type": "line", "source": "shapes", "paint": {"line-width": 2, "line-gap-width": 4}}"#,
                                    geometries: [Self.equator])
        XCTAssertEqual(image[16, 15].r, 255, "inside the gap")
        XCTAssertEqual(image[16, 13].r, 0)
        XCTAssertEqual(image[16, 18].r, 0)
        XCTAssertEqual(image[16, 11].r, 255)
    }

    func testTranslucentLineIsDrawnOnceWhereTilesMeet() throws {
        // At zoom 1 the equator is the edge between tiles, and the meridian
        // crosses it: each tile's copy is clipped to its square, so the line
        // is no darker where the tiles meet than elsewhere.
        let image = try Self.render(#"{"id": "l", "type": "line", "source": "shapes", "paint": {"line-width": 4, "line-opacity": 0.5}}"#,
                                    geometries: [#"{"type":"LineString","coordinates":[[0,-60],[0,60]]}"#], zoom: 1)
        let away = image[16, 4].r
        XCTAssertEqual(Double(away), 127.5, accuracy: 1.5)
        for row in 14...18 { XCTAssertEqual(image[16, row].r, away, "row \(row)") }
    }

    func testDashesAreMeasuredInPixelsOfTheIntegerZoom() throws {
        // Dashes [2, 2] of a 2 px line at zoom 4.5 repeat every 2 × (2 + 2) × 2^0.5 ≈ 11.3 px
        // from the line's start at x = 16: dash to 21.7, gap to 27.3, dash again.
        let image = try Self.render(#"{"id": "l", "type": "line", "source": "shapes", "paint": {"line-width": 2, "line-dasharray": [2, 2]}}"#,
                                    geometries: [#"{"type":"LineString","coordinates":[[0,0],[20,0]]}"#], zoom: 4.5)
        XCTAssertEqual(image[18, 16].r, 0, "in the first dash")
        XCTAssertEqual(image[24, 16].r, 255, "in the first gap")
        XCTAssertEqual(image[25, 16].r, 255, "still in the gap (a period of 8 px would dash here)")
        XCTAssertEqual(image[30, 16].r, 0, "in the second dash")
    }

    func testDashFieldIsTheDistanceToTheNearestEdge() throws {
        let texture = try XCTUnwrap(LineDashTexture([1, 1], round: false))
        // Dash over texels 0…128, gap 128…256: the middle of each is 64 texels from an edge.
        XCTAssertEqual(texture.sample(s: 64.5 / 256, t: 0.5), (128 + 64) / 255, accuracy: 1e-9)
        XCTAssertEqual(texture.sample(s: 192.5 / 256, t: 0.5), (128 - 64) / 255, accuracy: 1e-9)
        XCTAssertNil(LineDashTexture([0, 0], round: false), "all zero cannot dash")
        XCTAssertNil(LineDashTexture([1], round: false), "MapLibre wants two lengths at least")
    }

    func testSharpMiterBecomesABevelAndRightAngleMiterReachesTheCorner() {
        var line = LineTessellator()
        line.add([Point(0, 0), Point(10, 0), Point(10, 10)], closed: false, join: .miter, cap: .butt, miterLimit: 2)
        // A right angle: the miter vertex is √2 out along the bisector (to 1/63).
        XCTAssertTrue(line.vertices.contains { abs(($0.extrudeX * $0.extrudeX + $0.extrudeY * $0.extrudeY).squareRoot() - 2.squareRoot()) < 0.03 })
        var sharp = LineTessellator()
        sharp.add([Point(0, 0), Point(10, 0), Point(0, 1)], closed: false, join: .miter, cap: .butt, miterLimit: 2)
        // Past the limit it is bevelled: no vertex reaches twice the half width.
        XCTAssertFalse(sharp.vertices.contains { ($0.extrudeX * $0.extrudeX + $0.extrudeY * $0.extrudeY).squareRoot() > 2.01 })
        XCTAssertGreaterThan(sharp.triangles.count, line.triangles.count)
    }

    func testSortKeysOrderFeaturesWithinALayer() throws {
        // The red feature comes first in the data but has the higher key: drawn last, on top.
        let square = #"{"type":"Polygon","coordinates":[[[-5,-5],[5,-5],[5,5],[-5,5],[-5,-5]]]}"#
        let properties = [#"{"key": 2, "color": "red"}"#, #"{"key": 1, "color": "blue"}"#]
        let fills = try Self.render(#"{"id": "f", "type": "fill", "source": "shapes", "layout": {"fill-sort-key": ["get", "key"]}, "#
                                    + #""paint": {"fill-color": ["get", "color"]}}"#, geometries: [square, square], properties: properties)
        XCTAssertEqual(fills[16, 16], RGBA(255, 0, 0))
        let lines = try Self.render(#"{"id": "l", "type": "line", "source": "shapes", "layout": {"line-sort-key": ["get", "key"]}, "#
                                    + #""paint": {"line-color": ["get", "color"], "line-width": 4}}"#,
                                    geometries: [Self.equator, Self.equator], properties: properties)
        XCTAssertEqual(lines[16, 16], RGBA(255, 0, 0))
    }
}
