import Foundation
import XCTest
@testable import MapRendering

extension PreparedLayerGroup: Equatable {
    public static func == (a: PreparedLayerGroup, b: PreparedLayerGroup) -> Bool {
        a.paint == b.paint && a.parts == b.parts
    }
}

/// Preparing a layer once per feature signature (`FeatureSignature`) must
/// group exactly the features that evaluating the style on each feature does.
final class FeatureSignatureTests: XCTestCase {
    static let tiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/tiles")

    /// The tile layers of the z14 tiles around central Helsinki in `archive`.
    static func tileLayers(_ archive: String) throws -> [VectorTileLayer] {
        let source = try PMTilesArchive(url: tiles.appendingPathComponent(archive))
        let camera = VectorMapCamera(center: GeoCoordinate(latitude: 60.170, longitude: 24.945), zoom: 15, width: 512, height: 512)
        let cover = VectorMapFrame(camera: camera, zoomRange: source.zoomRange).cover
        return try cover.compactMap { try source.vectorTile(at: $0.tile) }.flatMap(\.layers)
    }

    /// Every fill and line layer of `style`, at zooms 13 to 16, prepared both ways from every tile layer it draws.
    func assertSignaturesGroupAlike(_ style: VectorStyle, _ layers: [VectorTileLayer], file: StaticString = #filePath, line: UInt = #line) throws {
        var compared = 0
        for zoom in [13.0, 14.5, 16] {
            for layer in style.layers where layer.isShown(atZoom: zoom) {
                let layer = layer.atZoom(zoom)
                for tileLayer in layers where tileLayer.name == layer.sourceLayer {
                    let bySignature = try VectorLayerDrawer.prepare(layer, from: tileLayer, atZoom: zoom)
                    let byFeature = try VectorLayerDrawer.prepare(layer, from: tileLayer, atZoom: zoom, evaluatingEachFeature: true)
                    XCTAssertTrue(bySignature == byFeature, "layer \(layer.id) at zoom \(zoom): the groups differ", file: file, line: line)
                    compared += byFeature.count
                }
            }
        }
        XCTAssertGreaterThan(compared, 20, "groups compared", file: file, line: line)
    }

    func testBuiltinStylesGroupAlikeBySignature() throws {
        for (schema, archive) in [(BuiltinVectorStyle.Schema.openMapTiles, "helsinki-openmaptiles.pmtiles"),
                                  (.protomaps, "helsinki-protomaps.pmtiles")] {
            let layers = try Self.tileLayers(archive)
            for look in MapStyle.allCases {
                try assertSignaturesGroupAlike(try BuiltinVectorStyle(schema: schema, look: look).style(), layers)
            }
        }
    }

    /// Paint that depends on properties the filter does not read, on the
    /// geometry type, on a missing key, and on the feature's id (which no
    /// signature holds, so that layer is evaluated feature by feature).
    func testFeatureDependentPaintGroupsAlikeBySignature() throws {
        let style = try VectorStyle(json: """
        {"version": 8, "sources": {"v": {"type": "vector"}}, "layers": [
          {"id": "roads", "type": "line", "source": "v", "source-layer": "transportation",
           "filter": ["!=", ["get", "brunnel"], "tunnel"],
           "paint": {"line-color": ["match", ["get", "class"], "primary", "#f00", "secondary", "#0f0", "#00f"],
                     "line-width": ["case", ["has", "service"], 1, ["==", ["geometry-type"], "Polygon"], 3, 2],
                     "line-opacity": ["coalesce", ["get", "no-such-key"], 0.8]}},
          {"id": "buildings", "type": "fill", "source": "v", "source-layer": "building",
           "paint": {"fill-color": ["case", ["==", ["%", ["id"], 2], 0], "#888", "#444"],
                     "fill-outline-color": ["match", ["get", "colour"], "red", "#f00", "#000"]}},
          {"id": "water", "type": "fill", "source": "v", "source-layer": "water",
           "filter": ["==", "class", "lake"], "paint": {"fill-color": "#00f"}}
        ]}
        """)
        let buildings = try XCTUnwrap(style.layers.first { $0.id == "buildings" })
        XCTAssertNil(buildings.filter.propertyKeys.flatMap { _ in
            if case .fill(let fill) = buildings.kind { return fill.color.propertyKeys } else { return nil }
        }, "a paint reading the id has no keys to sign with")
        try assertSignaturesGroupAlike(style, try Self.tileLayers("helsinki-openmaptiles.pmtiles"))
    }
}
