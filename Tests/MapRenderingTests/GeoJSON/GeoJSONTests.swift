import Foundation
import XCTest
@testable import MapRendering

/// The GeoJSON reader: every geometry type, ids, properties, errors naming
/// where, and the budgets checked as it reads.
final class GeoJSONTests: XCTestCase {
    private func read(_ json: String, limits: GeoJSONLimits = .default, promoteId: String? = nil) throws -> GeoJSON {
        try GeoJSON(data: Data(json.utf8), limits: limits, promoteId: promoteId)
    }

    private func c(_ longitude: Double, _ latitude: Double) -> GeoCoordinate { GeoCoordinate(latitude: latitude, longitude: longitude) }

    private func assertError(_ json: String, _ kind: GeoJSONError.Kind, _ fragment: String, limits: GeoJSONLimits = .default,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try read(json, limits: limits), file: file, line: line) { error in
            guard let error = error as? GeoJSONError else { return XCTFail("not a GeoJSONError: \(error)", file: file, line: line) }
            XCTAssertEqual(error.kind, kind, error.message, file: file, line: line)
            XCTAssertTrue(error.message.contains(fragment), "'\(error.message)' does not say '\(fragment)'", file: file, line: line)
        }
    }

    func testEveryGeometryTypeInAFeatureCollection() throws {
        let document = try read("""
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [1, 2]}},
          {"type": "Feature", "properties": null, "geometry": {"type": "MultiPoint", "coordinates": [[1, 2], [3, 4, 100]]}},
          {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}},
          {"type": "Feature", "properties": {}, "geometry": {"type": "MultiLineString", "coordinates": [[[0, 0], [1, 1]], [[2, 2], [3, 3]]]}},
          {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}},
          {"type": "Feature", "properties": {}, "geometry": {"type": "MultiPolygon", "coordinates": [[[[0, 0], [1, 0], [1, 1], [0, 0]]], [[[5, 5], [6, 5], [6, 6], [5, 5]]]]}},
          {"type": "Feature", "properties": {}, "geometry": {"type": "GeometryCollection", "geometries": [
            {"type": "Point", "coordinates": [7, 8]}, {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}]}},
          {"type": "Feature", "properties": {}, "geometry": null}
        ]}
        """)
        let ring = [c(0, 0), c(1, 0), c(1, 1), c(0, 0)]
        XCTAssertEqual(document.features.map(\.geometry), [
            .point(c(1, 2)),
            .multiPoint([c(1, 2), c(3, 4)]),
            .lineString([c(0, 0), c(1, 1)]),
            .multiLineString([[c(0, 0), c(1, 1)], [c(2, 2), c(3, 3)]]),
            .polygon([ring]),
            .multiPolygon([[ring], [[c(5, 5), c(6, 5), c(6, 6), c(5, 5)]]]),
            .geometryCollection([.point(c(7, 8)), .lineString([c(0, 0), c(1, 1)])]),
            nil,
        ])
        XCTAssertEqual(document.features[5].geometry?.vertexCount, 8)
    }

    func testABareGeometryAndASingleFeatureAreDocuments() throws {
        XCTAssertEqual(try read(#"{"type": "Point", "coordinates": [10, 20]}"#).features,
                       [GeoJSONFeature(geometry: .point(c(10, 20)))])
        let feature = try read(#"{"type": "Feature", "id": 3, "properties": {"name": "a"}, "geometry": {"type": "Point", "coordinates": [1, 1]}}"#)
        XCTAssertEqual(feature.features, [GeoJSONFeature(id: .number(3), geometry: .point(c(1, 1)), properties: ["name": .string("a")])])
    }

    func testAnOpenRingIsClosed() throws {
        let document = try read(#"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1]]]}"#)
        XCTAssertEqual(document.features[0].geometry, .polygon([[c(0, 0), c(1, 0), c(1, 1), c(0, 0)]]))
    }

    func testPropertiesKeepScalarsAndLeaveOutNullsArraysAndObjects() throws {
        let document = try read("""
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [0, 0]},
         "properties": {"s": "x", "n": 2.5, "b": true, "z": null, "a": [1], "o": {"k": 1}}}
        """)
        XCTAssertEqual(document.features[0].properties, ["s": .string("x"), "n": .double(2.5), "b": .bool(true)])
    }

    func testNumberAndStringIdsAndWhatATileCarries() throws {
        let document = try read("""
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "id": 7, "properties": {}, "geometry": null},
          {"type": "Feature", "id": "42", "properties": {}, "geometry": null},
          {"type": "Feature", "id": "road", "properties": {}, "geometry": null},
          {"type": "Feature", "id": 1.5, "properties": {}, "geometry": null},
          {"type": "Feature", "properties": {}, "geometry": null}
        ]}
        """)
        XCTAssertEqual(document.features.map(\.id), [.number(7), .string("42"), .string("road"), .number(1.5), nil])
        XCTAssertEqual(document.features.map { $0.id?.tileID }, [7, 42, nil, nil, nil])
        XCTAssertNil(GeoJSONFeature.ID.number(-1).tileID)
    }

    func testPromoteIdTakesTheIdFromAProperty() throws {
        let json = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "id": 1, "properties": {"code": 99}, "geometry": null},
          {"type": "Feature", "id": 2, "properties": {"code": "abc"}, "geometry": null},
          {"type": "Feature", "id": 3, "properties": {}, "geometry": null}
        ]}
        """
        XCTAssertEqual(try read(json, promoteId: "code").features.map(\.id), [.number(99), .string("abc"), nil])
        XCTAssertEqual(try read(json).features.map(\.id), [.number(1), .number(2), .number(3)])
    }

    func testWrongTypesAreErrorsNamingWhere() {
        assertError(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[0, 0], ["a", 1]]}}]}"#,
                    .invalid, "features[0].geometry.coordinates[1]: a position is an array of two or three numbers")
        assertError(#"{"type": "Point", "coordinates": [1]}"#, .invalid, "the document.coordinates")
        assertError(#"{"type": "Model"}"#, .invalid, "'Model' is not a GeoJSON type")
        assertError(#"{"type": "Feature", "properties": {}, "geometry": {"type": "Feature"}}"#, .invalid, "not a GeoJSON geometry type")
        assertError(#"{"type": "Feature", "properties": {}}"#, .invalid, "needs a 'geometry'")
        assertError(#"{"type": "Feature", "properties": 3, "geometry": null}"#, .invalid, "the Feature.properties: is an object or null")
        assertError(#"{"type": "Feature", "id": true, "properties": {}, "geometry": null}"#, .invalid, "the Feature.id: is a number or a string")
        assertError(#"{"type": "FeatureCollection"}"#, .invalid, "needs a 'features' array")
        assertError(#"{"type": "FeatureCollection", "features": [{"type": "Point", "coordinates": [0, 0]}]}"#, .invalid, "features[0]: is a 'Point', not a 'Feature'")
        assertError(#"{"type": "GeometryCollection"}"#, .invalid, "needs a 'geometries' array")
        assertError(#"{"type": "Polygon", "coordinates": [[0, 0]]}"#, .invalid, "the document.coordinates[0][0]: a position is an array")
        assertError(#"{"type": "Polygon", "coordinates": [0]}"#, .invalid, "the document.coordinates[0]: is an array of positions")
        assertError("42", .invalid, "the document: is an object")
        assertError(#"{"type": "Point", "coordinates": [0, 0]"#, .malformedJSON, "not valid JSON")
    }

    func testBudgetsAreCheckedAsTheDocumentIsRead() {
        let points = "[" + Array(repeating: "[1, 2]", count: 11).joined(separator: ",") + "]"
        assertError(#"{"type": "MultiPoint", "coordinates": \#(points)}"#, .limitExceeded, "over 10 positions",
                    limits: GeoJSONLimits(maximumVertexCount: 10))
        let feature = #"{"type": "Feature", "properties": {}, "geometry": null}"#
        assertError(#"{"type": "FeatureCollection", "features": [\#(Array(repeating: feature, count: 4).joined(separator: ","))]}"#,
                    .limitExceeded, "features[3]: the GeoJSON has over 3 features", limits: GeoJSONLimits(maximumFeatureCount: 3))
        assertError(#"{"type": "Point", "coordinates": [0, 0], "x": "\#(String(repeating: "a", count: 200))"}"#, .limitExceeded,
                    "over the limit of 100", limits: GeoJSONLimits(maximumByteCount: 100))
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        assertError(#"{"type": "Point", "coordinates": \#(deep)}"#, .limitExceeded, "nesting deeper than 32")
    }

    func testADocumentAtTheByteLimitOfPositionsIsRefusedAtTheVertexLimit() throws {
        // The byte limit of the shortest positions: the worst tree the
        // reader holds, refused at the vertex limit.
        let limits = GeoJSONLimits.default
        let prefix = #"{"type":"MultiPoint","coordinates":["#
        let count = (limits.maximumByteCount - prefix.utf8.count - 2) / 6
        let data = Data((prefix + String(repeating: "[0,0],", count: count).dropLast() + "]}").utf8)
        XCTAssertLessThanOrEqual(data.count, limits.maximumByteCount)
        let start = Date()
        XCTAssertThrowsError(try GeoJSON(data: data)) { error in
            let limit = limits.maximumVertexCount
            XCTAssertEqual((error as? GeoJSONError)?.message, "the document.coordinates[\(limit)]: the GeoJSON has over \(limit) positions, the limit")
        }
        print("\(data.count) bytes of positions refused in \(Date().timeIntervalSince(start)) s")
    }

    func testAHostileDocumentAtTheLimitsIsRefusedQuickly() throws {
        // A megabyte of one-point features: refused at the feature limit, not read whole.
        let feature = #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[0,0]}},"#
        let body = String(repeating: feature, count: 1_000_000 / feature.utf8.count)
        let data = Data(#"{"type":"FeatureCollection","features":[\#(body.dropLast())]}"#.utf8)
        let start = Date()
        XCTAssertThrowsError(try GeoJSON(data: data, limits: GeoJSONLimits(maximumFeatureCount: 1_000))) { error in
            XCTAssertEqual((error as? GeoJSONError)?.kind, .limitExceeded)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    }
}
