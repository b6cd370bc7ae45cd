import XCTest
import Raster
@testable import MapRendering

/// `["within", geojson]` as MapLibre evaluates it: points and lines in the
/// feature's tile against the polygons projected to that tile's units.
final class StyleWithinTests: XCTestCase {
    /// A filter of `within` the square 0…10° E, 0…10° N with a hole 4…6° in both, or `region` instead.
    private func within(_ region: String? = nil) throws -> StyleProperty<Bool> {
        let square = region ?? #"{"type": "Polygon", "coordinates": [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]], [[4, 4], [6, 4], [6, 6], [4, 6], [4, 4]]]}"#
        let style = try VectorStyle(json: """
            {"version": 8, "sources": {"s": {"type": "vector"}},
             "layers": [{"id": "l", "type": "line", "source": "s", "source-layer": "x", "filter": ["within", \(square)]}]}
            """)
        XCTAssertEqual(style.warnings, [])
        return try XCTUnwrap(style.layers.first).filter
    }

    /// A feature of `type` whose parts are at these longitudes/latitudes, in tile 4/8/7 (0…22.5° E, 0…21.9° N).
    private func feature(_ type: StyleGeometryType, _ parts: [[(Double, Double)]]) -> MockStyleFeature {
        let tile = TileCoordinate(z: 4, x: 8, y: 7)
        let points = parts.map { part in
            part.map { lon, lat in
                VectorTilePoint(x: Int32((GeoJSONProjectedFeature.projectX(lon) * 16 * 8192 - 8 * 8192).rounded()),
                                y: Int32((GeoJSONProjectedFeature.projectY(lat) * 16 * 8192 - 7 * 8192).rounded()))
            }
        }
        return MockStyleFeature(styleGeometryType: type, tileGeometry: StyleTileGeometry(tile: tile, extent: 8192, parts: points))
    }

    func testPointsAreWithinWhenEveryPointIsInside() throws {
        let filter = try within()
        XCTAssertTrue(filter.value(atZoom: 4, for: feature(.point, [[(2, 2)]])))
        XCTAssertTrue(filter.value(atZoom: 4, for: feature(.point, [[(2, 2), (8, 8)]])))
        XCTAssertFalse(filter.value(atZoom: 4, for: feature(.point, [[(2, 2), (12, 2)]])), "one point outside")
        XCTAssertFalse(filter.value(atZoom: 4, for: feature(.point, [[(5, 5)]])), "in the hole")
        XCTAssertFalse(filter.value(atZoom: 4, for: feature(.point, [[(0, 5)]])), "on the edge")
    }

    func testLinesAreWithinWhenNoneCrossesAnEdge() throws {
        let filter = try within()
        XCTAssertTrue(filter.value(atZoom: 4, for: feature(.lineString, [[(1, 1), (9, 1), (9, 3)]])))
        XCTAssertFalse(filter.value(atZoom: 4, for: feature(.lineString, [[(1, 5), (9, 5)]])), "crosses the hole, both ends inside")
        XCTAssertFalse(filter.value(atZoom: 4, for: feature(.lineString, [[(1, 1), (9, 1)], [(1, 1), (12, 1)]])), "one line leaves")
    }

    func testPolygonsUnknownGeometryAndMultiPolygons() throws {
        XCTAssertFalse(try within().value(atZoom: 4, for: feature(.polygon, [[(1, 1), (2, 1), (2, 2), (1, 1)]])), "only points and lines can be within")
        XCTAssertFalse(try within().value(atZoom: 4, for: MockStyleFeature()), "no geometry: not within")
        let two = try within(#"{"type": "Feature", "properties": {}, "geometry": {"type": "MultiPolygon", "coordinates": [[[[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]]], [[[10, 10], [12, 10], [12, 12], [10, 12], [10, 10]]]]}}"#)
        XCTAssertTrue(two.value(atZoom: 4, for: feature(.point, [[(1, 1), (11, 11)]])), "each point in one of the polygons")
        XCTAssertFalse(two.value(atZoom: 4, for: feature(.point, [[(5, 5)]])))
    }

    func testARegionWithoutPolygonsIsAnError() {
        XCTAssertThrowsError(try VectorStyle(json: """
            {"version": 8, "sources": {"s": {"type": "vector"}},
             "layers": [{"id": "l", "type": "line", "source": "s", "source-layer": "x", "paint": {"line-color": ["case", ["within", {"type": "Point", "coordinates": [0, 0]}], "red", "blue"]}}]}
            """)) { error in
            XCTAssertTrue(String(describing: error).contains("'within' needs a GeoJSON Polygon or MultiPolygon"), "\(error)")
        }
    }

    func testARenderedCircleLayerColoursThePointsWithin() throws {
        let style = try VectorStyle(json: #"""
        {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "MultiPoint", "coordinates": [[-20, 0], [20, 0]]}}},
         "layers": [{"id": "c", "type": "circle", "source": "g", "paint": {"circle-radius": 4,
          "circle-color": ["case", ["within", {"type": "Polygon", "coordinates": [[[0, -10], [30, -10], [30, 10], [0, 10], [0, -10]]]}], "#ff0000", "#0000ff"]}}]}
        """#)
        guard case .geojson(let geojson)? = style.sources["g"]?.kind, case .inline(let document) = geojson.data else { throw FixtureError("no inline source") }
        let renderer = VectorMapRenderer(tiles: geojson.tiles(document), sourceName: "g", style: style)
        // Zoom 2: 1024 pixels a world (256-pixel tiles), 20° is 56.9 pixels from the centre.
        let bitmap = try renderer.render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 2, width: 256, height: 16, scale: 1))
        // Neither point's MultiPoint is wholly within: both blue, as MapLibre tests every point of a feature.
        XCTAssertEqual(bitmap[Int(128 + 56.9), 8].b, 255)
        XCTAssertEqual(bitmap[Int(128 - 56.9), 8].b, 255)
        let one = try VectorStyle(json: #"""
        {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
           {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [-20, 0]}},
           {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [20, 0]}}]}}},
         "layers": [{"id": "c", "type": "circle", "source": "g", "paint": {"circle-radius": 4,
          "circle-color": ["case", ["within", {"type": "Polygon", "coordinates": [[[0, -10], [30, -10], [30, 10], [0, 10], [0, -10]]]}], "#ff0000", "#0000ff"]}}]}
        """#)
        guard case .geojson(let source)? = one.sources["g"]?.kind, case .inline(let points) = source.data else { throw FixtureError("no inline source") }
        let drawn = try VectorMapRenderer(tiles: source.tiles(points), sourceName: "g", style: one)
            .render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 2, width: 256, height: 16, scale: 1))
        XCTAssertEqual(drawn[Int(128 + 56.9), 8], RGBA(255, 0, 0, 255), "inside")
        XCTAssertEqual(drawn[Int(128 - 56.9), 8], RGBA(0, 0, 255, 255), "outside")
    }
}
