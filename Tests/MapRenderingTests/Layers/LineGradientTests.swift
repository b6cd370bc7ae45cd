import Foundation
import Raster
import XCTest
@testable import MapRendering

/// `line-gradient` over `line-progress` on a GeoJSON source with
/// `lineMetrics`: the ramp read along each line's whole length, across the
/// tiles that cut it, as MapLibre's line-gradient shader reads it.
final class LineGradientTests: XCTestCase {
    /// A style of one GeoJSON line from 40° W to 40° E along the equator, red at its start, blue at its end.
    private func style(lineMetrics: Bool = true, extraPaint: String = "") throws -> VectorStyle {
        try VectorStyle(json: #"""
        {"version": 8, "sources": {"g": {"type": "geojson", "lineMetrics": \#(lineMetrics),
          "data": {"type": "LineString", "coordinates": [[-40, 0], [40, 0]]}}},
         "layers": [{"id": "l", "type": "line", "source": "g",
          "paint": {"line-width": 8, "line-color": "#00ff00"\#(extraPaint),
                    "line-gradient": ["interpolate", ["linear"], ["line-progress"], 0, "#ff0000", 1, "#0000ff"]}}]}
        """#)
    }

    /// `style` drawn 128 × 32 around 0, 0 at zoom 1 (the line crosses the two tiles' edge at 0°).
    private func render(_ style: VectorStyle) throws -> Bitmap {
        guard case .geojson(let geojson)? = style.sources["g"]?.kind, case .inline(let document) = geojson.data else { throw FixtureError("no inline source") }
        let renderer = VectorMapRenderer(tiles: geojson.tiles(document), sourceName: "g", style: style)
        return try renderer.render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 1, width: 128, height: 32, scale: 1))
    }

    func testTheGradientRunsAlongTheWholeLineAcrossTiles() throws {
        let bitmap = try render(try style())
        // 80° of 360° at 512 pixels a world: the line spans x 6.2…120.9 (64 ± 56.9).
        let start = bitmap[10, 16], middle = bitmap[64, 16], end = bitmap[117, 16]
        XCTAssertGreaterThan(start.r, 230, "red at the start: \(start)")
        XCTAssertLessThan(start.b, 25)
        XCTAssertGreaterThan(end.b, 230, "blue at the end: \(end)")
        XCTAssertLessThan(end.r, 25)
        // Half way, on the tiles' edge: half of each, whichever tile drew it.
        XCTAssertEqual(Double(middle.r), 127.5, accuracy: 6, "\(middle)")
        XCTAssertEqual(Double(middle.b), 127.5, accuracy: 6, "\(middle)")
        XCTAssertEqual(middle.g, 0, "line-color is not drawn under a gradient")
        XCTAssertEqual(middle.a, 255)
        // Progress grows steadily left to right, with no restart at the tiles' edge.
        var previous = -1
        for x in 10...117 {
            let red = Int(bitmap[x, 16].r)
            XCTAssertLessThanOrEqual(red, previous < 0 ? 255 : previous + 1, "x \(x)")
            previous = red
        }
    }

    func testLineOpacityScalesTheGradient() throws {
        let bitmap = try render(try style(extraPaint: #", "line-opacity": 0.5"#))
        XCTAssertEqual(Double(bitmap[10, 16].a), 127.5, accuracy: 2)
    }

    func testWithoutLineMetricsTheLineIsNearlyTheRampsStart() throws {
        // MapLibre then reads the distance in tile units over its buffer's 32768: barely past 0.
        let bitmap = try render(try style(lineMetrics: false))
        XCTAssertGreaterThan(bitmap[117, 16].r, 200)
    }

    func testTheRampHoldsTheColourAtEachTexel() throws {
        guard case .line(let line)? = try style().layers.first?.kind, let gradient = line.gradient else { throw FixtureError("no gradient read") }
        let ramp = StyleColorRamp(gradient, atZoom: 0, inputKey: StyleExpression.lineProgressKey)
        XCTAssertEqual(ramp.texels[0], SIMD4<Float>(1, 0, 0, 1))
        XCTAssertEqual(ramp.texels[128][0], Float((0.5 * 255).rounded(.down) / 255), "k/256 at texel k")
        XCTAssertEqual(ramp.sample(1), ramp.texels[255], "clamped past the last texel's centre")
        XCTAssertEqual(ramp.sample(0.5)[0], (ramp.texels[127][0] + ramp.texels[128][0]) / 2, accuracy: 1e-6, "between two centres")
    }

    func testProgressIsCutToTheVertexBuffersSteps() {
        let progress = LineGradient.Progress(clipStart: 0.25, clipEnd: 0.75, length: 100)
        XCTAssertEqual(progress.atVertex(0), Double(Int(0.25 * 32767 / 2)) * 2 / 32768)
        XCTAssertEqual(progress.atVertex(100), 0.75, accuracy: 1e-4)
        XCTAssertEqual(progress.atVertex(50), 0.5, accuracy: 1e-4)
    }
}
