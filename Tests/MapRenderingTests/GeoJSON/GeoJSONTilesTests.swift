import Foundation
import XCTest
@testable import MapRendering

/// Tiling as geojson-vt tiles: clipping at tile edges with the buffer,
/// simplification by zoom, winding, the antimeridian, ids and properties.
final class GeoJSONTilesTests: XCTestCase {
    private func tiles(_ json: String, _ options: GeoJSONTileOptions = GeoJSONTileOptions()) throws -> GeoJSONTiles {
        GeoJSONTiles(try GeoJSON(data: Data(json.utf8)), options: options)
    }

    private func layer(_ tiles: GeoJSONTiles, _ z: Int, _ x: Int, _ y: Int) throws -> VectorTileLayer? {
        try tiles.vectorTile(at: TileCoordinate(z: z, x: x, y: y), cancellation: RenderCancellation())?.layer(named: GeoJSONTiles.layerName)
    }

    /// The Web Mercator y (0…1, down) of `latitude`, in tile coordinates of row `y` at zoom `z`.
    private func tileY(_ latitude: Double, z: Int, y: Int, extent: Double = 8192) -> Int32 {
        let sine = sin(latitude * .pi / 180)
        let world = 0.5 - 0.25 * log((1 + sine) / (1 - sine)) / .pi
        return Int32((extent * (world * Double(1 << z) - Double(y))).rounded())
    }

    func testALineIsClippedAtTheTileEdgePlusTheBuffer() throws {
        let source = try tiles(#"{"type": "LineString", "coordinates": [[-90, 60], [90, 60]]}"#)
        let y = tileY(60, z: 1, y: 0)
        // 128 of 512 pixels of buffer is 2048 of 8192 tile units past each edge.
        let left = try XCTUnwrap(layer(source, 1, 0, 0))
        XCTAssertEqual(left.extent, 8192)
        XCTAssertEqual(left.feature(at: 0).geometryType, .lineString)
        XCTAssertEqual(left.feature(at: 0).geometry, [[VectorTilePoint(x: 4096, y: y), VectorTilePoint(x: 10240, y: y)]])
        let right = try XCTUnwrap(layer(source, 1, 1, 0))
        XCTAssertEqual(right.feature(at: 0).geometry, [[VectorTilePoint(x: -2048, y: y), VectorTilePoint(x: 4096, y: y)]])
        XCTAssertNil(try layer(source, 1, 0, 1), "the line is in the top row only")
        let noBuffer = try tiles(#"{"type": "LineString", "coordinates": [[-90, 60], [90, 60]]}"#, GeoJSONTileOptions(buffer: 0))
        XCTAssertEqual(try layer(noBuffer, 1, 0, 0)?.feature(at: 0).geometry, [[VectorTilePoint(x: 4096, y: y), VectorTilePoint(x: 8192, y: y)]])
    }

    /// The `lineMetrics` fractions of each feature of `layer`: [start, end] per feature, nil where absent.
    private func clips(_ layer: VectorTileLayer) -> [[Double]?] {
        (0..<layer.featureCount).map { index in
            let feature = layer.feature(at: index)
            guard case .number(let start)? = feature.styleValue(forKey: GeoJSONTiles.clipStartKey),
                  case .number(let end)? = feature.styleValue(forKey: GeoJSONTiles.clipEndKey) else { return nil }
            return [start, end]
        }
    }

    func testLineMetricsSayWhereEachPieceLiesOnItsWholeLine() throws {
        let json = #"{"type": "LineString", "coordinates": [[-90, 10], [90, 10]]}"#
        let source = try tiles(json, GeoJSONTileOptions(buffer: 0, lineMetrics: true))
        XCTAssertEqual(clips(try XCTUnwrap(layer(source, 1, 0, 0))).first??.map { ($0 * 1e9).rounded() / 1e9 }, [0, 0.5])
        XCTAssertEqual(clips(try XCTUnwrap(layer(source, 1, 1, 0))).first??.map { ($0 * 1e9).rounded() / 1e9 }, [0.5, 1])
        XCTAssertEqual(clips(try XCTUnwrap(layer(source, 0, 0, 0))).first??.map { ($0 * 1e9).rounded() / 1e9 }, [0, 1])
        // Without the option the tiles hold no metrics.
        XCTAssertEqual(clips(try XCTUnwrap(layer(try tiles(json, GeoJSONTileOptions(buffer: 0)), 1, 0, 0))).first, .some(nil))
    }

    func testLineMetricsMakeEachPieceAndEachLineAFeature() throws {
        // The U leaves tile 2/0/1 (longitudes -180…-90, latitudes 0…66.5) and comes back: two pieces, two features.
        let u = try tiles(#"{"type": "LineString", "coordinates": [[-170, 40], [-100, 40], [-100, -40], [-170, -40], [-170, 41]]}"#,
                          GeoJSONTileOptions(buffer: 0, lineMetrics: true))
        let pieces = clips(try XCTUnwrap(layer(u, 2, 0, 1)))
        XCTAssertEqual(pieces.count, 2)
        let first = try XCTUnwrap(pieces[0]), second = try XCTUnwrap(pieces[1])
        XCTAssertEqual(first[0], 0)
        XCTAssertLessThan(first[1], second[0], "the second piece starts after the first ends")
        XCTAssertEqual(second[1], 1)
        let multi = try tiles(#"{"type": "MultiLineString", "coordinates": [[[-10, 1], [10, 1]], [[-10, 2], [0, 2]]]}"#,
                              GeoJSONTileOptions(lineMetrics: true))
        XCTAssertEqual(clips(try XCTUnwrap(layer(multi, 0, 0, 0))), [[0, 1], [0, 1]])
    }

    func testALineLeavingAndReenteringATileBecomesTwoLines() throws {
        let source = try tiles(#"{"type": "LineString", "coordinates": [[-170, 40], [-100, 40], [-100, -40], [-170, -40], [-170, 41]]}"#, GeoJSONTileOptions(buffer: 0))
        // Tile 2/0/1 spans longitudes -180…-90 and latitudes 0…66.5: the U leaves it and comes back.
        let layer = try XCTUnwrap(layer(source, 2, 0, 1))
        XCTAssertEqual(layer.feature(at: 0).geometry.count, 2)
    }

    func testAPointOnATileCornerIsInEveryTileMeetingThere() throws {
        let source = try tiles(#"{"type": "Point", "coordinates": [0, 0]}"#)
        for (x, y, expected) in [(0, 0, VectorTilePoint(x: 8192, y: 8192)), (1, 0, VectorTilePoint(x: 0, y: 8192)),
                                 (0, 1, VectorTilePoint(x: 8192, y: 0)), (1, 1, VectorTilePoint(x: 0, y: 0))] {
            let layer = try XCTUnwrap(layer(source, 1, x, y), "tile 1/\(x)/\(y)")
            XCTAssertEqual(layer.feature(at: 0).geometryType, .point)
            XCTAssertEqual(layer.feature(at: 0).geometry, [[expected]], "tile 1/\(x)/\(y)")
        }
        XCTAssertNil(try layer(source, 3, 0, 0), "far from the point")
        // Without a buffer too: a point on an edge belongs to both sides (geojson-vt clips points inclusively).
        let unbuffered = try tiles(#"{"type": "Point", "coordinates": [0, 0]}"#, GeoJSONTileOptions(buffer: 0))
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            XCTAssertEqual(try layer(unbuffered, 1, x, y)?.featureCount, 1, "tile 1/\(x)/\(y) without a buffer")
        }
    }

    func testSimplificationDropsAVertexAtLowZoomsAndKeepsItAtTheMaximum() throws {
        // The middle vertex is 0.01° off the straight line: under 0.375 pixels at zoom 0, many pixels at zoom 5.
        let source = try tiles(#"{"type": "LineString", "coordinates": [[-80, 10], [0, 10.01], [80, 10]]}"#, GeoJSONTileOptions(maximumZoom: 5))
        XCTAssertEqual(try layer(source, 0, 0, 0)?.points.count, 2)
        let row = Int((0.5 - 0.25 * log((1 + sin(10.0 * .pi / 180)) / (1 - sin(10.0 * .pi / 180))) / .pi) * 32)
        let deep = try XCTUnwrap(layer(source, 5, 16, row))
        XCTAssertEqual(deep.points.count, 3, "enters, the middle vertex at the tile's left edge, leaves")
        XCTAssertEqual(deep.points[1].x, 0)
        XCTAssertEqual(deep.points[1].y, tileY(10.01, z: 5, y: row))
        let unsimplified = try tiles(#"{"type": "LineString", "coordinates": [[-80, 10], [0, 10.01], [80, 10]]}"#, GeoJSONTileOptions(tolerance: 0))
        XCTAssertEqual(try layer(unsimplified, 0, 0, 0)?.points.count, 3)
    }

    func testALineShorterThanTheToleranceIsLeftOut() throws {
        let source = try tiles(#"{"type": "MultiLineString", "coordinates": [[[0, 0], [0.01, 0]], [[10, 10], [20, 10]]]}"#)
        XCTAssertEqual(try layer(source, 0, 0, 0)?.feature(at: 0).geometry.count, 1)
        XCTAssertEqual(try layer(source, 6, 32, 31)?.feature(at: 0).geometry.first?.count, 2, "at zoom 6 the short line is 5 pixels long")
    }

    func testRingsAreWoundAsMVTWindsThemWithoutRepeatingTheFirstPoint() throws {
        // Both rings given the "wrong" way: exterior clockwise on the globe, hole anticlockwise.
        let source = try tiles(#"{"type": "Polygon", "coordinates": [[[-50, -50], [-50, 50], [50, 50], [50, -50], [-50, -50]], [[-10, -10], [10, -10], [10, 10], [-10, 10], [-10, -10]]]}"#)
        let layer = try XCTUnwrap(layer(source, 0, 0, 0))
        let feature = layer.feature(at: 0)
        XCTAssertEqual(feature.geometryType, .polygon)
        XCTAssertEqual(feature.geometry.map(\.count), [4, 4])
        XCTAssertEqual(Array(layer.partIsExterior), [true, false])
        func area(_ ring: [VectorTilePoint]) -> Double {
            var sum = 0.0
            for (i, a) in ring.enumerated() {
                let b = ring[(i + 1) % ring.count]
                sum += Double(a.x) * Double(b.y) - Double(b.x) * Double(a.y)
            }
            return sum
        }
        XCTAssertGreaterThan(area(feature.geometry[0]), 0, "exterior: clockwise on screen")
        XCTAssertLessThan(area(feature.geometry[1]), 0, "hole: anticlockwise on screen")
    }

    func testAPolygonIsClippedToTheBufferAndClosed() throws {
        let source = try tiles(#"{"type": "Polygon", "coordinates": [[[-100, -50], [100, -50], [100, 50], [-100, 50], [-100, -50]]]}"#)
        let ring = try XCTUnwrap(layer(source, 1, 0, 0)?.feature(at: 0).geometry.first)
        XCTAssertEqual(ring.map(\.x).max(), 10240, "cut at the right edge plus the buffer")
        XCTAssertEqual(ring.map(\.y).max(), 10240, "cut at the bottom edge plus the buffer")
        XCTAssertNotEqual(ring.first, ring.last)
    }

    func testAFeatureNearTheAntimeridianIsCopiedAcrossIt() throws {
        let source = try tiles(#"{"type": "Point", "coordinates": [179.9, 10]}"#)
        let point = try XCTUnwrap(layer(source, 1, 0, 0)?.feature(at: 0).geometry.first?.first)
        XCTAssertEqual(point.x, -5, "0.1° west of the left edge of the world, in the buffer")
        XCTAssertEqual(try layer(source, 1, 1, 0)?.feature(at: 0).geometry.first?.first?.x, 8187)
    }

    func testIdsPropertiesAndGeometryCollectionsReachTheTile() throws {
        let source = try tiles("""
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "id": 5, "properties": {"name": "a", "rank": 2}, "geometry": {"type": "GeometryCollection", "geometries": [
            {"type": "Point", "coordinates": [1, 1]}, {"type": "LineString", "coordinates": [[0, 0], [10, 10]]}]}},
          {"type": "Feature", "id": "x", "properties": {}, "geometry": {"type": "MultiPoint", "coordinates": [[2, 2], [3, 3]]}}
        ]}
        """)
        let layer = try XCTUnwrap(layer(source, 0, 0, 0))
        XCTAssertEqual(layer.features.map(\.geometryType), [.point, .lineString, .point])
        XCTAssertEqual(layer.features.map(\.id), [5, 5, nil])
        XCTAssertEqual(layer.feature(at: 1).properties, ["name": .string("a"), "rank": .double(2)])
        XCTAssertEqual(layer.feature(at: 2).geometry.first?.count, 2, "a MultiPoint is one part of every point")
    }

    func testTheZoomRangeEndsAtTheMaximumZoom() throws {
        let source = try tiles(#"{"type": "Point", "coordinates": [0, 0]}"#, GeoJSONTileOptions(maximumZoom: 3))
        XCTAssertEqual(source.zoomRange, 0...3)
        XCTAssertNil(try source.vectorTile(at: TileCoordinate(z: 4, x: 8, y: 8), cancellation: RenderCancellation()))
    }
}
