import Foundation
import Raster
import XCTest
@testable import MapRendering

/// `heatmap` layers: properties read, `heatmap-color` over
/// `["heatmap-density"]`, and kernels summed and coloured as MapLibre's
/// heatmap passes do.
final class HeatmapLayerTests: XCTestCase {
    /// A ramp whose alpha is the density: the drawn alpha reads the density back.
    private let densityAsAlpha = #"["interpolate", ["linear"], ["heatmap-density"], 0, "rgba(255, 0, 0, 0)", 1, "rgba(255, 0, 0, 1)"]"#

    /// A style of `data` (a GeoJSON object) and `layers`.
    private func style(data: String, layers: String) throws -> VectorStyle {
        try VectorStyle(json: #"{"version": 8, "sources": {"g": {"type": "geojson", "data": \#(data)}}, "layers": \#(layers)}"#)
    }

    /// `style` drawn 64 × 64 around 0, 0 at zoom 10.
    private func render(_ style: VectorStyle) throws -> Bitmap {
        guard case .geojson(let geojson)? = style.sources["g"]?.kind, case .inline(let document) = geojson.data else { throw FixtureError("no inline source") }
        let renderer = VectorMapRenderer(tiles: geojson.tiles(document), sourceName: "g", style: style)
        return try renderer.render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 10, width: 64, height: 64))
    }

    private func alpha(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> Double {
        Double(bitmap.pixels[(y * bitmap.width + x) * 4 + 3]) / 255
    }

    private let point = #"{"type": "Feature", "properties": {"w": 2}, "geometry": {"type": "Point", "coordinates": [0, 0]}}"#

    func testPropertiesAreReadAndTheDefaultColourIsARampOverTheDensity() throws {
        let style = try style(data: point, layers: #"""
        [{"id": "h", "type": "heatmap", "source": "g",
          "paint": {"heatmap-radius": 12, "heatmap-weight": ["get", "w"], "heatmap-intensity": 0.5, "heatmap-opacity": 0.25}}]
        """#)
        XCTAssertEqual(style.warnings, [])
        guard case .heatmap(let heatmap)? = style.layers.first?.kind else { return XCTFail("not a heatmap layer") }
        XCTAssertEqual(heatmap.radius.value(atZoom: 3), 12)
        XCTAssertEqual(heatmap.weight.value(atZoom: 3, for: MockStyleFeature(properties: ["w": .number(2)])), 2)
        XCTAssertEqual(heatmap.intensity.value(atZoom: 3), 0.5)
        XCTAssertEqual(heatmap.opacity.value(atZoom: 3), 0.25)
        let ramp = HeatmapLayerDrawer.ramp(heatmap.color, atZoom: 3)
        XCTAssertEqual(ramp.texels.count, 256)
        XCTAssertEqual(ramp.texels[0], SIMD4(0, 0, 0, 0), "transparent blue at density 0")
        XCTAssertEqual(ramp.texels[255].x, 1)
        XCTAssertEqual(ramp.texels[255].y, 0, accuracy: 0.02, "red towards density 1")
        XCTAssertEqual(ramp.texels[255].w, 1)
    }

    func testAPointIsAGaussianOfItsWeightAndIntensity() throws {
        func drawn(weight: Double, intensity: Double) throws -> Bitmap {
            try render(try style(data: point, layers: #"""
            [{"id": "h", "type": "heatmap", "source": "g",
              "paint": {"heatmap-radius": 10, "heatmap-weight": \#(weight), "heatmap-intensity": \#(intensity), "heatmap-color": \#(densityAsAlpha)}}]
            """#))
        }
        let one = try drawn(weight: 1, intensity: 1)
        // The four texels around the centre lie 2√2 pixels off it: 1/√(2π)·e^(-4.5·8/100) ≈ 0.28.
        XCTAssertEqual(alpha(one, 32, 32), 0.28, accuracy: 0.01)
        XCTAssertEqual(alpha(one, 2, 2), 0, "beyond the radius nothing")
        let radiusAway = alpha(one, 42, 32)
        XCTAssertLessThan(radiusAway, 0.01, "e^-4.5 of the peak at the radius")
        let half = try drawn(weight: 0.5, intensity: 1), doubled = try drawn(weight: 1, intensity: 0.5)
        XCTAssertEqual(alpha(half, 32, 32), alpha(one, 32, 32) / 2, accuracy: 0.01)
        XCTAssertEqual(alpha(doubled, 32, 32), alpha(half, 32, 32), accuracy: 0.005)
    }

    func testAPolygonsFirstVertexWeighsTwiceAsInMapLibre() throws {
        // Counter-clockwise as GeoJSON winds it, so the ring is reversed for the tile; its first corner stays first.
        let square = #"{"type": "Polygon", "coordinates": [[[-0.03, -0.03], [0.03, -0.03], [0.03, 0.03], [-0.03, 0.03], [-0.03, -0.03]]]}"#
        let drawn = try render(try style(data: square, layers: #"""
        [{"id": "h", "type": "heatmap", "source": "g", "paint": {"heatmap-radius": 8, "heatmap-color": \#(densityAsAlpha)}}]
        """#))
        // The first corner (south-west) is hotter than the others.
        let (low, high) = (32 - 22, 32 + 22)
        let southWest = alpha(drawn, low, high), northEast = alpha(drawn, high, low), northWest = alpha(drawn, low, low)
        XCTAssertGreaterThan(southWest, northEast * 1.5)
        XCTAssertEqual(northWest, northEast, accuracy: 0.02)
    }

    func testKernelsPastTheBudgetAreAnErrorNamingTheLayer() throws {
        // 400 points each covering the whole density buffer (64 × 64 texels): 1.6 million texels.
        let points = (0..<400).map { "[\(Double($0) * 1e-5), 0]" }.joined(separator: ", ")
        let style = try style(data: #"{"type": "MultiPoint", "coordinates": [\#(points)]}"#, layers: #"""
        [{"id": "hot", "type": "heatmap", "source": "g", "paint": {"heatmap-radius": 500}}]
        """#)
        guard case .geojson(let geojson)? = style.sources["g"]?.kind, case .inline(let document) = geojson.data else { throw FixtureError("no inline source") }
        let renderer = VectorMapRenderer(tiles: geojson.tiles(document), sourceName: "g", style: style,
                                         limits: VectorMapLimits(generatedGeometryPerSnapshot: 1_000_000))
        XCTAssertThrowsError(try renderer.render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 10, width: 256, height: 256))) { error in
            let message = String(describing: error)
            XCTAssertTrue(message.contains("hot") && message.contains("heatmap"), message)
        }
    }
}
