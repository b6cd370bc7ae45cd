import Foundation
import Raster
import XCTest
@testable import MapRendering

/// `fill-extrusion` layers: every property and the style's `light` read;
/// prisms lit as MapLibre's fill-extrusion shader lights them, walls shown
/// under pitch, hidden surfaces removed, hostile heights and counts bounded.
final class FillExtrusionLayerTests: XCTestCase {
    /// A style of one GeoJSON square, `half` degrees either side of 0, 0, with `layers` (and `root` keys).
    private func style(half: Double, layers: String, root: String = "") throws -> VectorStyle {
        try VectorStyle(json: #"""
        {"version": 8, \#(root) "sources": {"g": {"type": "geojson", "data": {"type": "Feature", "properties": {"h": 12},
         "geometry": {"type": "Polygon", "coordinates": [[[-\#(half), -\#(half)], [-\#(half), \#(half)], [\#(half), \#(half)],
                                                           [\#(half), -\#(half)], [-\#(half), -\#(half)]]]}}}}, "layers": \#(layers)}
        """#)
    }

    /// `style` drawn 64 × 64 around 0, 0 at `zoom` and `pitch`, within `limits`.
    private func render(_ style: VectorStyle, zoom: Double, pitch: Double = 0, bearing: Double = 0,
                        limits: VectorMapLimits = .default) throws -> Bitmap {
        guard case .geojson(let geojson)? = style.sources["g"]?.kind, case .inline(let document) = geojson.data else { throw FixtureError("no inline source") }
        let renderer = VectorMapRenderer(tiles: geojson.tiles(document), sourceName: "g", style: style, limits: limits)
        return try renderer.render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: zoom, width: 64, height: 64,
                                                   bearing: bearing, pitch: pitch))
    }

    func testEveryPropertyAndTheLightAreRead() throws {
        let style = try style(half: 1, layers: #"""
        [{"id": "e", "type": "fill-extrusion", "source": "g",
          "paint": {"fill-extrusion-color": ["case", [">", ["get", "h"], 10], "red", "blue"], "fill-extrusion-opacity": 0.5,
                    "fill-extrusion-height": ["get", "h"], "fill-extrusion-base": ["/", ["get", "h"], 4],
                    "fill-extrusion-translate": [3, 4], "fill-extrusion-translate-anchor": "viewport",
                    "fill-extrusion-vertical-gradient": false}}]
        """#, root: ##""light": {"anchor": "map", "position": [2, 90, 45], "color": "#00ff00", "intensity": 0.25},"##)
        XCTAssertEqual(style.warnings, [])
        XCTAssertEqual(style.light.anchor, .map)
        XCTAssertEqual(style.light.position, [2, 90, 45])
        XCTAssertEqual(style.light.color, StyleColor(red: 0, green: 1, blue: 0))
        XCTAssertEqual(style.light.intensity, 0.25)
        guard case .fillExtrusion(let extrusion)? = style.layers.first?.atZoom(3).kind else { return XCTFail("not a fill-extrusion layer") }
        let feature = MockStyleFeature(properties: ["h": .number(12)])
        XCTAssertEqual(extrusion.color.value(atZoom: 3, for: feature), StyleColor(red: 1, green: 0, blue: 0))
        XCTAssertEqual(extrusion.height.value(atZoom: 3, for: feature), 12)
        XCTAssertEqual(extrusion.base.value(atZoom: 3, for: feature), 3)
        XCTAssertEqual(extrusion.opacity.value(atZoom: 3), 0.5)
        XCTAssertEqual(extrusion.translate.value(atZoom: 3), [3, 4])
        XCTAssertEqual(extrusion.translateAnchor.value(atZoom: 3), .viewport)
        XCTAssertEqual(extrusion.verticalGradient.value(atZoom: 3), false)
        // Absent: the specification's defaults.
        let plain = try self.style(half: 1, layers: #"[{"id": "e", "type": "fill-extrusion", "source": "g"}]"#)
        XCTAssertEqual(plain.light, StyleLight())
        guard case .fillExtrusion(let defaults)? = plain.layers.first?.atZoom(3).kind else { return XCTFail("not a fill-extrusion layer") }
        XCTAssertEqual(defaults.height.value(atZoom: 3), 0)
        XCTAssertEqual(defaults.verticalGradient.value(atZoom: 3), true)
        XCTAssertEqual(defaults.translateAnchor.value(atZoom: 3), .map)
    }

    func testAMalformedLightIsAnErrorNamingIt() {
        XCTAssertThrowsError(try style(half: 1, layers: "[]", root: #""light": {"intensity": 2},"#)) { error in
            XCTAssertTrue(String(describing: error).contains("intensity"), "\(error)")
        }
    }

    func testAFlatExtrusionSeenFromAboveIsItsRoofLitAsTheSpecPredicts() throws {
        // A roof faces up: with the default light ([1.15, 210, 30], intensity 0.5) the
        // shader's directional term is 0.5 + 0.5 · 1.15 · cos 30° (+ 1.15 · cos 300° · sin 30° / 16384
        // for the packed normal's x) = 0.99797, and the colour (0.5 grey + 0.03 ambient) · 0.99797
        // = 0.52945 → 135 of 255.
        let style = try style(half: 1, layers: ##"[{"id": "e", "type": "fill-extrusion", "source": "g", "paint": {"fill-extrusion-color": "#808080"}}]"##)
        let bitmap = try render(style, zoom: 10)
        for (x, y) in [(1, 1), (32, 32), (62, 5)] {
            XCTAssertEqual(bitmap[x, y], RGBA(135, 135, 135, 255), "at \(x), \(y)")
        }
        // Light from straight above at full intensity: directional 1 becomes 2 − 0.502
        // (brighter for darker colours), so (0.502 + 0.03) · 1.498 = 0.7969 → 203.
        let lit = try self.style(half: 1, layers: ##"[{"id": "e", "type": "fill-extrusion", "source": "g", "paint": {"fill-extrusion-color": "#808080"}}]"##,
                                 root: #""light": {"position": [1, 0, 0], "intensity": 1},"#)
        XCTAssertEqual(try render(lit, zoom: 10)[32, 32], RGBA(203, 203, 203, 255))
        // A red light tints, and shading never falls below 0.3 of the light's complement.
        let red = try self.style(half: 1, layers: ##"[{"id": "e", "type": "fill-extrusion", "source": "g", "paint": {"fill-extrusion-color": "#808080"}}]"##,
                                 root: #""light": {"color": "red"},"#)
        XCTAssertEqual(try render(red, zoom: 10)[32, 32], RGBA(135, 77, 77, 255))
    }

    func testAPitchedBoxShowsItsWallUnderItsRoof() throws {
        let style = try style(half: 0.0001, layers: #"""
        [{"id": "e", "type": "fill-extrusion", "source": "g", "paint": {"fill-extrusion-color": "#808080", "fill-extrusion-height": 10}}]
        """#)
        let bitmap = try render(style, zoom: 18, pitch: 60)
        // Up the middle column: ground, the wall facing the camera, then the roof.
        let column = (0..<64).reversed().map { bitmap[32, $0] }
        let runs = column.reduce(into: [RGBA]()) { if $0.last != $1 { $0.append($1) } }
        XCTAssertEqual(runs.first?.a, 0, "\(runs)")
        XCTAssertGreaterThanOrEqual(runs.count, 3, "\(runs)")
        let (wall, roof) = (runs[1], runs[2])
        XCTAssertEqual(wall.a, 255)
        XCTAssertEqual(roof, RGBA(135, 135, 135, 255))
        XCTAssertNotEqual(wall, roof)
        // Without a height nothing stands: the same box is one colour, its roof's.
        let flat = try self.style(half: 0.0001, layers: ##"[{"id": "e", "type": "fill-extrusion", "source": "g", "paint": {"fill-extrusion-color": "#808080"}}]"##)
        let flatColumn = try render(flat, zoom: 18, pitch: 60)
        XCTAssertEqual(Set((0..<64).map { flatColumn[32, $0] }.filter { $0.a != 0 }), [RGBA(135, 135, 135, 255)])
    }

    func testOpacityAppliesToTheLayerOnceNotPerFace() throws {
        // Half opacity: the wall hidden behind the roof does not show through it.
        let style = try style(half: 0.0001, layers: #"""
        [{"id": "e", "type": "fill-extrusion", "source": "g",
          "paint": {"fill-extrusion-color": "#808080", "fill-extrusion-height": 10, "fill-extrusion-opacity": 0.5}}]
        """#)
        let bitmap = try render(style, zoom: 18, pitch: 60)
        let colours = Set((0..<64).map { bitmap[32, $0] }.filter { $0.a != 0 })
        // Per face, the roof over the wall would reach alpha 0.75.
        XCTAssertEqual(Set(colours.map(\.a)), [128], "\(colours)")
        XCTAssertGreaterThanOrEqual(colours.count, 2, "the wall and the roof: \(colours)")
    }

    func testALaterLayerHidesBehindAnEarlierOnesPrisms() throws {
        // The blue box stands inside the taller red one (moved 3 pixels away, so no
        // wall is shared): MapLibre's layers share one depth buffer, so none of it
        // shows, though it is drawn later.
        let style = try style(half: 0.0001, layers: ##"""
        [{"id": "red", "type": "fill-extrusion", "source": "g", "paint": {"fill-extrusion-color": "#ff0000", "fill-extrusion-height": 10}},
         {"id": "blue", "type": "fill-extrusion", "source": "g", "paint": {"fill-extrusion-color": "#0000ff", "fill-extrusion-height": 5,
                                                                "fill-extrusion-translate": [0, -3]}}]
        """##)
        let bitmap = try render(style, zoom: 18, pitch: 60)
        let colours = (0..<64).flatMap { y in (0..<64).map { bitmap[$0, y] } }.filter { $0.a != 0 }
        XCTAssertFalse(colours.isEmpty)
        XCTAssertTrue(colours.allSatisfy { $0.r > $0.b }, "\(Set(colours))")
    }

    func testHostileHeightsAndCountsAreBounded() throws {
        // A height far past the camera: cut at the near plane, drawn at once.
        let tall = try style(half: 0.0001, layers: #"""
        [{"id": "e", "type": "fill-extrusion", "source": "g", "paint": {"fill-extrusion-height": 1e300, "fill-extrusion-base": 1e12}}]
        """#)
        let start = Date()
        _ = try render(tall, zoom: 18, pitch: 60)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        // Many layers of screen-filling prisms run into the snapshot's budget, named.
        let layers = (0..<40).map { #"{"id": "e\#($0)", "type": "fill-extrusion", "source": "g", "paint": {"fill-extrusion-height": 5}}"# }
        let many = try style(half: 1, layers: "[" + layers.joined(separator: ",") + "]")
        XCTAssertThrowsError(try render(many, zoom: 10, pitch: 45, limits: VectorMapLimits(generatedGeometryPerSnapshot: 100_000))) { error in
            XCTAssertTrue(String(describing: error).contains("extrusions"), "\(error)")
        }
    }
}
