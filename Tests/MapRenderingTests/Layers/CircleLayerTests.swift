import Foundation
import Raster
import XCTest
@testable import MapRendering

/// `circle` layers: every property read, circles shaded as MapLibre's
/// circle shader does, each drawn once and whole by the tile holding its
/// centre; and a style of several sources drawn by one renderer.
final class CircleLayerTests: XCTestCase {
    /// A style of one GeoJSON point at 0, 0 (the corner of four tiles) and `layers`.
    private func style(layers: String) throws -> VectorStyle {
        try VectorStyle(json: #"""
        {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "Feature", "properties": {"size": 7},
         "geometry": {"type": "Point", "coordinates": [0, 0]}}}}, "layers": \#(layers)}
        """#)
    }

    /// The layer's style, evaluated at zoom 3.
    private func circle(_ style: VectorStyle) throws -> CircleLayerStyle {
        guard case .circle(let circle)? = style.layers.first?.atZoom(3).kind else { throw FixtureError("not a circle layer") }
        return circle
    }

    /// `style` drawn 64 × 64 around 0, 0 at `scale`.
    private func render(_ style: VectorStyle, scale: Double = 1) throws -> Bitmap {
        guard case .geojson(let geojson)? = style.sources["g"]?.kind, case .inline(let document) = geojson.data else { throw FixtureError("no inline source") }
        let renderer = VectorMapRenderer(tiles: geojson.tiles(document), sourceName: "g", style: style)
        return try renderer.render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 3, width: 64, height: 64, scale: scale))
    }

    func testEveryPropertyIsReadDataDrivenWhereTheSpecAllows() throws {
        let style = try style(layers: #"""
        [{"id": "c", "type": "circle", "source": "g", "layout": {"circle-sort-key": ["get", "size"]},
          "paint": {"circle-radius": ["get", "size"], "circle-color": "#00ff00", "circle-blur": 0.5, "circle-opacity": 0.25,
                    "circle-translate": [1, 2], "circle-translate-anchor": "viewport", "circle-pitch-scale": "viewport",
                    "circle-pitch-alignment": "map", "circle-stroke-width": 3, "circle-stroke-color": "red",
                    "circle-stroke-opacity": 0.75, "circle-radius-transition": {"duration": 0}}}]
        """#)
        XCTAssertEqual(style.warnings, [])
        let circle = try circle(style)
        let feature = MockStyleFeature(properties: ["size": .number(7)])
        XCTAssertEqual(circle.radius.value(atZoom: 3, for: feature), 7)
        XCTAssertEqual(circle.sortKey.value(atZoom: 3, for: feature), 7)
        XCTAssertEqual(circle.color.value(atZoom: 3), StyleColor(red: 0, green: 1, blue: 0))
        XCTAssertEqual(circle.blur.value(atZoom: 3), 0.5)
        XCTAssertEqual(circle.opacity.value(atZoom: 3), 0.25)
        XCTAssertEqual(circle.translate.value(atZoom: 3), [1, 2])
        XCTAssertEqual(circle.translateAnchor.value(atZoom: 3), .viewport)
        XCTAssertEqual(circle.pitchScale.value(atZoom: 3), .viewport)
        XCTAssertEqual(circle.pitchAlignment.value(atZoom: 3), .map)
        XCTAssertEqual(circle.strokeWidth.value(atZoom: 3), 3)
        XCTAssertEqual(circle.strokeColor.value(atZoom: 3), StyleColor(red: 1, green: 0, blue: 0))
        XCTAssertEqual(circle.strokeOpacity.value(atZoom: 3), 0.75)
    }

    func testAbsentPropertiesTakeTheSpecDefaults() throws {
        let circle = try circle(try style(layers: #"[{"id": "c", "type": "circle", "source": "g"}]"#))
        XCTAssertEqual(circle.radius.value(atZoom: 3), 5)
        XCTAssertEqual(circle.color.value(atZoom: 3), StyleColor(red: 0, green: 0, blue: 0))
        XCTAssertEqual(circle.blur.value(atZoom: 3), 0)
        XCTAssertEqual(circle.opacity.value(atZoom: 3), 1)
        XCTAssertEqual(circle.translate.value(atZoom: 3), [0, 0])
        XCTAssertEqual(circle.translateAnchor.value(atZoom: 3), .map)
        XCTAssertEqual(circle.pitchScale.value(atZoom: 3), .map)
        XCTAssertEqual(circle.pitchAlignment.value(atZoom: 3), .viewport)
        XCTAssertEqual(circle.strokeWidth.value(atZoom: 3), 0)
        XCTAssertEqual(circle.strokeOpacity.value(atZoom: 3), 1)
        XCTAssertNil(circle.sortKey.value(atZoom: 3))
    }

    func testBadValuesAreErrorsNamingTheProperty() {
        for (paint, fragment) in [(#"{"circle-translate-anchor": "sideways"}"#, "circle-translate-anchor"),
                                  (#"{"circle-translate": ["literal", [1, 2]], "circle-radius": -1}"#, "circle-radius"),
                                  (#"{"circle-translate": ["get", "offset"]}"#, "data-constant")] {
            XCTAssertThrowsError(try style(layers: #"[{"id": "c", "type": "circle", "source": "g", "paint": \#(paint)}]"#)) { error in
                let message = String(describing: error)
                XCTAssertTrue(message.contains(fragment), "'\(message)' does not say '\(fragment)'")
            }
        }
    }

    func testACircleIsShadedAsMapLibresShaderShadesIt() throws {
        let style = try style(layers: #"""
        [{"id": "c", "type": "circle", "source": "g",
          "paint": {"circle-radius": 10, "circle-color": "red", "circle-stroke-width": 2, "circle-stroke-color": "blue"}}]
        """#)
        for scale in [1.0, 2.0] {
            let bitmap = try render(style, scale: scale)
            // The point lands on the corner of pixels (32, 32)·scale; distances are to pixel centres.
            func pixel(_ dx: Double) -> RGBA { bitmap[Int((32 + dx) * scale), Int(32 * scale)] }
            XCTAssertEqual(pixel(6), RGBA(255, 0, 0), "inside the radius at scale \(scale)")
            XCTAssertEqual(pixel(10.5), RGBA(0, 0, 255), "on the stroke at scale \(scale)")
            XCTAssertEqual(pixel(18).a, 0, "outside at scale \(scale)")
        }
        // The rim fades over one device pixel: at 11.51 of 12 pixels,
        // smoothstep(0, -1/12, 11.51/12 - 1) of the stroke colour.
        let rim = try render(style)[43, 32]
        XCTAssertEqual(rim.b, 255)
        XCTAssertEqual(Double(rim.a), 123, accuracy: 1)
    }

    func testACircleAcrossTileEdgesIsDrawnOnceAndWhole() throws {
        // The point is in the buffers of four tiles; only the one holding it draws it.
        let style = try style(layers: #"""
        [{"id": "c", "type": "circle", "source": "g", "paint": {"circle-radius": 10, "circle-color": "red", "circle-opacity": 0.5}}]
        """#)
        let bitmap = try render(style)
        for (x, y) in [(32, 32), (26, 29), (29, 36), (36, 27)] {
            XCTAssertEqual(bitmap[x, y], RGBA(255, 0, 0, 128), "at \(x), \(y)")
        }
    }

    func testCirclesAreDrawnAtEveryVertexAndInSortKeyOrder() throws {
        let style = try VectorStyle(json: #"""
        {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"key": 2, "color": "blue"}, "geometry": {"type": "LineString", "coordinates": [[-5, 0], [5, 0]]}},
          {"type": "Feature", "properties": {"key": 1, "color": "red"}, "geometry": {"type": "Point", "coordinates": [5, 0]}}]}}},
         "layers": [{"id": "c", "type": "circle", "source": "g", "layout": {"circle-sort-key": ["get", "key"]},
                     "paint": {"circle-radius": 4, "circle-color": ["get", "color"]}}]}
        """#)
        guard case .geojson(let geojson)? = style.sources["g"]?.kind, case .inline(let document) = geojson.data else { return XCTFail() }
        let renderer = VectorMapRenderer(tiles: geojson.tiles(document), sourceName: "g", style: style)
        let bitmap = try renderer.render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 3, width: 64, height: 64))
        // 5° at zoom 3 (a 2048-point world) is 28.4 points: the vertices' circles end 24 points either side of the centre.
        XCTAssertEqual(bitmap[32, 32], RGBA(0, 0, 0, 0), "no circle between the vertices")
        let east = VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 5), zoom: 3, width: 64, height: 64)
        XCTAssertEqual(try renderer.render(east)[32, 32], RGBA(0, 0, 255), "the line's vertex, key 2, over the point, key 1")
        let west = VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: -5), zoom: 3, width: 64, height: 64)
        XCTAssertEqual(try renderer.render(west)[32, 32], RGBA(0, 0, 255), "the line's other vertex")
    }

    func testOneRendererDrawsEachLayerFromItsOwnSource() throws {
        let style = try VectorStyle(json: #"""
        {"version": 8, "sources": {
          "land": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[[-20, -20], [0, -20], [0, 20], [-20, 20], [-20, -20]]]}},
          "dots": {"type": "geojson", "data": {"type": "Point", "coordinates": [1, 0]}}},
         "layers": [{"id": "f", "type": "fill", "source": "land", "paint": {"fill-color": "#00ff00"}},
                    {"id": "c", "type": "circle", "source": "dots", "paint": {"circle-radius": 6, "circle-color": "red"}}]}
        """#)
        var sources: [String: any VectorTileProviding] = [:]
        for (name, source) in style.sources {
            guard case .geojson(let geojson) = source.kind, case .inline(let document) = geojson.data else { return XCTFail() }
            sources[name] = geojson.tiles(document)
        }
        let camera = VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 3, width: 64, height: 64)
        let bitmap = try VectorMapRenderer(sources: sources, style: style).render(camera)
        XCTAssertEqual(bitmap[10, 32], RGBA(0, 255, 0), "the fill, from 'land'")
        XCTAssertEqual(bitmap[38, 32], RGBA(255, 0, 0), "the circle, from 'dots' (1° is 5.7 points east)")
        XCTAssertEqual(bitmap[60, 5], RGBA(0, 0, 0, 0), "neither")
        // A layer whose source is not given draws nothing when there are several.
        let landOnly = try VectorMapRenderer(sources: ["land": sources["land"]!, "other": sources["dots"]!], style: style).render(camera)
        XCTAssertEqual(landOnly[38, 32], RGBA(0, 0, 0, 0))
        XCTAssertEqual(landOnly[10, 32], RGBA(0, 255, 0))
    }
}

extension CircleLayerTests {
    func testACurveOfNaNGivesThePropertysDefault() throws {
        // MapLibre: a step or interpolate input that is not a number is an error, so the default radius (5).
        let circle = try circle(try style(layers: #"""
        [{"id": "c", "type": "circle", "source": "g",
          "paint": {"circle-radius": ["interpolate", ["linear"], ["/", 0, ["get", "zero"]], 1, 1, 2, 2],
                    "circle-stroke-width": ["step", ["/", 0, ["get", "zero"]], 1, 2, 2]}}]
        """#))
        let feature = MockStyleFeature(properties: ["zero": .number(0)])
        XCTAssertEqual(circle.radius.value(atZoom: 3, for: feature), 5)
        XCTAssertEqual(circle.strokeWidth.value(atZoom: 3, for: feature), 0)
    }
}
