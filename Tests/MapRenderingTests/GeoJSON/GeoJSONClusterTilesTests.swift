import Foundation
import Raster
import XCTest
@testable import MapRendering

/// Clustering as supercluster clusters, on cases small enough to work out by
/// hand: which points merge at which zoom, the cluster's id, count, centre and
/// aggregated properties, the points left alone, and a style drawing them.
final class GeoJSONClusterTilesTests: XCTestCase {
    /// A (0°, 0°) n=1, B (1°, 0°) n=2, C (100°, 0°) n=5: at zoom z the radius of
    /// 50 pixels of 512 is 35.16°/2^z, so A and B (1° apart) merge at every
    /// clustering zoom 0…2 and C (99° away) never joins them.
    static let points = """
    {"type": "FeatureCollection", "features": [
     {"type": "Feature", "id": 10, "properties": {"n": 1}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
     {"type": "Feature", "id": 11, "properties": {"n": 2}, "geometry": {"type": "Point", "coordinates": [1, 0]}},
     {"type": "Feature", "id": 12, "properties": {"n": 5}, "geometry": {"type": "Point", "coordinates": [100, 0]}}]}
    """

    private func layer(_ tiles: GeoJSONClusterTiles, _ z: Int, _ x: Int, _ y: Int) throws -> VectorTileLayer? {
        try tiles.vectorTile(at: TileCoordinate(z: z, x: x, y: y), cancellation: RenderCancellation())?.layer(named: GeoJSONTiles.layerName)
    }

    /// The source's cluster options as a style states them.
    private func options(_ members: String) throws -> GeoJSONClusterOptions {
        let style = try VectorStyle(data: Data(#"{"version": 8, "sources": {"g": {"type": "geojson", "data": \#(Self.points), \#(members)}}, "layers": []}"#.utf8))
        guard case .geojson(let source)? = style.sources["g"]?.kind else {
            XCTFail("source 'g' is read as \(String(describing: style.sources["g"]?.kind)), not geojson")
            throw CocoaError(.coderInvalidValue)
        }
        XCTAssertEqual(style.warnings, [], "every cluster option is read")
        return try XCTUnwrap(source.cluster)
    }

    func testTwoNearPointsMergeIntoOneClusterWithSuperclustersIdAndProperties() throws {
        let cluster = try options(#""cluster": true, "clusterMaxZoom": 2, "clusterProperties": {"sum": ["+", ["get", "n"]], "most": [["max", ["accumulated"], ["get", "most"]], ["get", "n"]]}"#)
        let tiles = try GeoJSONClusterTiles(try GeoJSON(data: Data(Self.points.utf8)), cluster: cluster)
        let top = try XCTUnwrap(layer(tiles, 0, 0, 0))
        XCTAssertEqual(top.features.count, 2)
        let merged = try XCTUnwrap(top.features.first { $0.value(forKey: "cluster") == .bool(true) })
        // Started by A (index 0) at zoom 2, the first clustering zoom: (0 << 5) + (2 + 1) + 3 features.
        XCTAssertEqual(merged.value(forKey: "cluster_id")?.number, 6)
        XCTAssertEqual(merged.id, 6)
        XCTAssertEqual(merged.value(forKey: "point_count")?.number, 2)
        XCTAssertEqual(merged.value(forKey: "point_count_abbreviated")?.number, 2)
        XCTAssertEqual(merged.value(forKey: "sum")?.number, 3, "1 + 2")
        XCTAssertEqual(merged.value(forKey: "most")?.number, 2, "max of 1 and 2 through [\"accumulated\"]")
        // At the mean of A and B: longitude 0.5° is 8192 · (0.5 + 0.5/360) = 4107.4 across the tile.
        XCTAssertEqual(merged.geometry, [[VectorTilePoint(x: 4107, y: 4096)]])
        let alone = try XCTUnwrap(top.features.first { $0.value(forKey: "cluster") == nil })
        XCTAssertEqual(alone.id, 12)
        XCTAssertEqual(alone.value(forKey: "n")?.number, 5, "an unclustered point keeps its properties")
        XCTAssertNil(alone.value(forKey: "point_count"))
        // Past the clustering zoom every point is its own.
        let deep = try XCTUnwrap(layer(tiles, 3, 4, 4))
        XCTAssertEqual(Set(deep.features.compactMap { $0.value(forKey: "n")?.number }), [1, 2])
        XCTAssertTrue(deep.features.allSatisfy { $0.value(forKey: "cluster") == nil })
    }

    func testTooFewPointsForTheMinimumStayApart() throws {
        let tiles = try GeoJSONClusterTiles(try GeoJSON(data: Data(Self.points.utf8)), cluster: try options(#""cluster": true, "clusterMinPoints": 3"#))
        let top = try XCTUnwrap(layer(tiles, 0, 0, 0))
        XCTAssertEqual(top.features.count, 3)
        XCTAssertTrue(top.features.allSatisfy { $0.value(forKey: "cluster") == nil })
    }

    func testTheRadiusDecidesWhatMerges() throws {
        // 1 pixel of 512 at zoom 0 is 0.7°: A and B stay apart.
        let tiles = try GeoJSONClusterTiles(try GeoJSON(data: Data(Self.points.utf8)), cluster: try options(#""cluster": true, "clusterRadius": 1"#))
        XCTAssertEqual(try XCTUnwrap(layer(tiles, 0, 0, 0)).features.count, 3)
    }

    func testTheAbbreviatedCountIsSuperclusters() {
        XCTAssertEqual(GeoJSONClusterTiles.abbreviated(999), .int(999))
        XCTAssertEqual(GeoJSONClusterTiles.abbreviated(1234), .string("1.2k"))
        XCTAssertEqual(GeoJSONClusterTiles.abbreviated(1250), .string("1.3k"), "halves round up, as Math.round")
        XCTAssertEqual(GeoJSONClusterTiles.abbreviated(15_400), .string("15k"))
    }

    func testMorePointsThanTheLimitIsAnErrorNamingIt() throws {
        var limits = GeoJSONLimits()
        limits.maximumClusterPointCount = 2
        XCTAssertThrowsError(try GeoJSONClusterTiles(try GeoJSON(data: Data(Self.points.utf8)), limits: limits)) { error in
            XCTAssertEqual((error as? GeoJSONError)?.kind, .limitExceeded)
            XCTAssertTrue("\(error)".contains("GeoJSONLimits.maximumClusterPointCount"), "\(error)")
        }
    }

    func testAClusterPropertyThatIsNotAPairIsNamed() {
        XCTAssertThrowsError(try options(#""cluster": true, "clusterProperties": {"sum": "+"}"#)) { error in
            XCTAssertTrue("\(error)".contains("'clusterProperties.sum' is [reduce, map]"), "\(error)")
        }
    }

    /// Through a whole style: the cluster drawn green where A and B meet, C blue on its own.
    func testAStyleDrawsClustersAndLonePoints() throws {
        let style = ##"""
        {"version": 8, "center": [0, 0], "zoom": 0,
         "sources": {"g": {"type": "geojson", "data": \##(Self.points), "cluster": true}},
         "layers": [
          {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
          {"id": "clusters", "type": "circle", "source": "g", "filter": ["==", "cluster", true], "paint": {"circle-color": "#00c800", "circle-radius": 10}},
          {"id": "points", "type": "circle", "source": "g", "filter": ["!=", "cluster", true], "paint": {"circle-color": "#0000c8", "circle-radius": 10}}]}
        """##
        let document = try StyleDocumentRenderer(style: Data(style.utf8), resources: StyleFolderResources(folder: FileManager.default.temporaryDirectory))
        XCTAssertEqual(document.style.warnings, [])
        let bitmap = try document.render(width: 512, height: 512)
        // A 512-pixel world: longitude 0.5° at x 256.7, 100° at x 398.2.
        XCTAssertEqual(bitmap[257, 256], RGBA(0, 200, 0), "the cluster")
        XCTAssertEqual(bitmap[398, 256], RGBA(0, 0, 200), "the lone point")
        XCTAssertEqual(bitmap[300, 256], RGBA(255, 255, 255))
    }
}
