import Foundation
import Raster
import XCTest
@testable import MapRendering

/// A style's `geojson` sources: read with their options, their layers drawn
/// from the tiles of the document.
final class GeoJSONStyleSourceTests: XCTestCase {
    private func style(_ source: String, layers: String = ##"[{"id": "f", "type": "fill", "source": "g", "paint": {"fill-color": "#ff0000"}}]"##) throws -> VectorStyle {
        try VectorStyle(json: #"{"version": 8, "sources": {"g": \#(source)}, "layers": \#(layers)}"#)
    }

    func testAnInlineSourceIsReadAndItsLayersDrawFromItsOneTileLayer() throws {
        let style = try style(#"{"type": "geojson", "data": {"type": "Point", "coordinates": [1, 2]}, "maxzoom": 12, "buffer": 64, "tolerance": 1, "promoteId": "code"}"#)
        XCTAssertEqual(style.warnings, [])
        let source = try XCTUnwrap(style.sources["g"])
        guard case .geojson(let geojson) = source.kind else { return XCTFail("not a geojson source: \(source.kind)") }
        XCTAssertEqual(geojson.data, .inline(GeoJSON(features: [GeoJSONFeature(geometry: .point(GeoCoordinate(latitude: 2, longitude: 1)))])))
        XCTAssertEqual(geojson.options, GeoJSONTileOptions(maximumZoom: 12, buffer: 64, tolerance: 1))
        XCTAssertEqual(geojson.promoteId, "code")
        XCTAssertEqual(style.layers.map(\.source), ["g"])
        XCTAssertEqual(style.layers.map(\.sourceLayer), [GeoJSONTiles.layerName])
    }

    func testAURLIsLeftToTheCallerAndOptionsNotDrawnAreWarned() throws {
        let style = try style(#"{"type": "geojson", "data": "data/points.geojson", "filter": ["has", "a"], "lineMetrics": true}"#)
        XCTAssertEqual(style.sources["g"]?.kind, .geojson(GeoJSONStyleSource(data: .url("data/points.geojson"), promoteId: nil,
                                                                             options: GeoJSONTileOptions(lineMetrics: true))))
        XCTAssertEqual(style.warnings, ["source 'g': geojson option 'filter' is not supported"])
    }

    func testBadDataOrOptionsAreErrorsNamingTheSource() {
        for (source, fragment) in [(#"{"type": "geojson"}"#, "source 'g': a geojson source needs 'data'"),
                                   (#"{"type": "geojson", "data": {"type": "Point", "coordinates": "x"}}"#, "source 'g': 'data': the document.coordinates"),
                                   (#"{"type": "geojson", "data": 42}"#, "source 'g': 'data': the document: is an object"),
                                   (#"{"type": "geojson", "data": "x", "maxzoom": 30}"#, "'maxzoom' is a whole number 0–24"),
                                   (#"{"type": "geojson", "data": "x", "buffer": -1}"#, "'buffer' is a number 0–512"),
                                   (#"{"type": "geojson", "data": "x", "lineMetrics": 1}"#, "'lineMetrics' is true or false, not")] {
            XCTAssertThrowsError(try style(source)) { error in
                let message = String(describing: error)
                XCTAssertTrue(message.contains(fragment), "'\(message)' does not say '\(fragment)'")
            }
        }
    }

    func testAPolygonOfTheSourceIsDrawnByAFillLayer() throws {
        let style = try style(#"""
        {"type": "geojson", "data": {"type": "Feature", "properties": {"kind": "lake"},
         "geometry": {"type": "Polygon", "coordinates": [[[-10, -10], [10, -10], [10, 10], [-10, 10], [-10, -10]]]}}}
        """#, layers: #"""
        [{"id": "b", "type": "background", "paint": {"background-color": "#ffffff"}},
         {"id": "f", "type": "fill", "source": "g", "filter": ["==", ["get", "kind"], "lake"], "paint": {"fill-color": "#ff0000"}}]
        """#)
        guard case .geojson(let geojson)? = style.sources["g"]?.kind, case .inline(let document) = geojson.data else { return XCTFail() }
        let renderer = VectorMapRenderer(tiles: geojson.tiles(document), sourceName: "g", style: style)
        let bitmap = try renderer.render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 3, width: 128, height: 128))
        XCTAssertEqual(bitmap[64, 64], RGBA(255, 0, 0), "inside the polygon")
        XCTAssertEqual(bitmap[2, 2], RGBA(255, 255, 255), "outside it")
    }
}
