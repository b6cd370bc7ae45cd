import XCTest
@testable import MapRendering

/// Every filter operator of the subset, in both syntaxes, against mock features.
final class StyleFilterTests: XCTestCase {
    private let road = MockStyleFeature(properties: ["class": .string("primary"), "lanes": .number(2), "name": .string("Mannerheimintie"),
                                                     "oneway": .bool(true), "note": .null],
                                        featureID: 42, styleGeometryType: .lineString)
    private let park = MockStyleFeature(properties: ["class": .string("park"), "rank": .number(7)], featureID: nil, styleGeometryType: .polygon)

    /// The filter read as a style's layer filter would be.
    private func filter(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> StyleProperty<Bool> {
        let style = try VectorStyle(json: """
            {"version": 8, "sources": {"s": {"type": "vector"}},
             "layers": [{"id": "l", "type": "line", "source": "s", "source-layer": "x", "filter": \(json)}]}
            """)
        XCTAssertEqual(style.warnings, [], file: file, line: line)
        return try XCTUnwrap(style.layers.first, file: file, line: line).filter
    }

    private func check(_ json: String, road expectedRoad: Bool, park expectedPark: Bool, zoom: Double = 14,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let compiled = try filter(json, file: file, line: line)
        XCTAssertEqual(compiled.value(atZoom: zoom, for: road), expectedRoad, "road: \(json)", file: file, line: line)
        XCTAssertEqual(compiled.value(atZoom: zoom, for: park), expectedPark, "park: \(json)", file: file, line: line)
    }

    func testLegacyComparisons() throws {
        try check(#"["==", "class", "primary"]"#, road: true, park: false)
        try check(#"["!=", "class", "primary"]"#, road: false, park: true)
        try check(#"["==", "lanes", "2"]"#, road: false, park: false)  // types must match
        try check(#"["<", "lanes", 3]"#, road: true, park: false)      // missing property: false
        try check(#"["<=", "lanes", 2]"#, road: true, park: false)
        try check(#"[">", "rank", 5]"#, road: false, park: true)
        try check(#"[">=", "rank", 8]"#, road: false, park: false)
        try check(#"["<", "name", "N"]"#, road: true, park: false)     // strings compare
        try check(#"["==", "oneway", true]"#, road: true, park: false)
        // Legacy null: a missing property is not equal to null.
        try check(#"["==", "note", null]"#, road: true, park: false)
        try check(#"["!=", "note", null]"#, road: false, park: true)
    }

    func testLegacyMembershipAndExistence() throws {
        try check(#"["in", "class", "primary", "secondary"]"#, road: true, park: false)
        try check(#"["!in", "class", "primary", "secondary"]"#, road: false, park: true)
        try check(#"["in", "class"]"#, road: false, park: false)
        try check(#"["!in", "class"]"#, road: true, park: true)
        try check(#"["has", "lanes"]"#, road: true, park: false)
        try check(#"["!has", "lanes"]"#, road: false, park: true)
        try check(#"["has", "$id"]"#, road: true, park: false)
        try check(#"["!has", "$id"]"#, road: false, park: true)
    }

    func testLegacyTypeIdAndCombinators() throws {
        try check(#"["==", "$type", "LineString"]"#, road: true, park: false)
        try check(#"["!=", "$type", "LineString"]"#, road: false, park: true)
        try check(#"["in", "$type", "Point", "Polygon"]"#, road: false, park: true)
        try check(#"["==", "$id", 42]"#, road: true, park: false)
        try check(#"["all", ["==", "$type", "LineString"], ["has", "name"]]"#, road: true, park: false)
        try check(#"["any", ["==", "class", "park"], [">", "lanes", 1]]"#, road: true, park: true)
        try check(#"["none", ["==", "class", "park"], [">", "lanes", 1]]"#, road: false, park: false)
        try check(#"["all"]"#, road: true, park: true)
        try check(#"["any"]"#, road: false, park: false)
        try check(#"["none"]"#, road: true, park: true)
        try check(#"true"#, road: true, park: true)
        try check(#"false"#, road: false, park: false)
    }

    func testExpressionComparisons() throws {
        try check(#"["==", ["get", "class"], "primary"]"#, road: true, park: false)
        try check(#"["!=", ["get", "class"], "primary"]"#, road: false, park: true)
        try check(#"["<", ["get", "lanes"], 3]"#, road: true, park: false)  // null < 3: an error, so false
        try check(#"["<=", ["get", "lanes"], 1]"#, road: false, park: false)
        try check(#"[">", ["get", "rank"], 5]"#, road: false, park: true)
        try check(#"[">=", ["get", "rank"], 7]"#, road: false, park: true)
        try check(#"["==", ["get", "missing"], null]"#, road: true, park: true)  // not legacy: missing is null
        try check(#"["==", ["geometry-type"], "Polygon"]"#, road: false, park: true)
        try check(#"["==", ["id"], 42]"#, road: true, park: false)
        try check(#"[">=", ["zoom"], 14]"#, road: true, park: true)
        try check(#"[">=", ["zoom"], 14]"#, road: false, park: false, zoom: 13.9)
        try check(#"["==", ["to-string", ["get", "lanes"]], "2"]"#, road: true, park: false)
        try check(#"["==", ["to-number", ["get", "rank"]], 7]"#, road: false, park: true)
        try check(#"["==", ["downcase", ["get", "name"]], "mannerheimintie"]"#, road: true, park: false)
        try check(#"["==", ["upcase", ["get", "class"]], "PARK"]"#, road: false, park: true)
        try check(#"["==", ["concat", ["get", "class"], "-", ["get", "lanes"]], "primary-2"]"#, road: true, park: false)
    }

    func testExpressionLogicAndLookups() throws {
        try check(#"["has", "lanes"]"#, road: true, park: false)
        try check(#"["!", ["has", "lanes"]]"#, road: false, park: true)
        try check(#"["all", ["has", "name"], ["==", ["get", "oneway"], true]]"#, road: true, park: false)
        try check(#"["any", ["==", ["get", "class"], "park"], ["get", "oneway"]]"#, road: true, park: true)
        try check(#"["in", ["get", "class"], ["literal", ["park", "garden"]]]"#, road: false, park: true)
        try check(#"["in", "heim", ["get", "name"]]"#, road: true, park: false)
        try check(#"["match", ["get", "class"], ["primary", "secondary"], true, false]"#, road: true, park: false)
        try check(#"["match", ["get", "rank"], 7, true, false]"#, road: false, park: true)
        try check(#"["case", ["has", "lanes"], ["==", ["get", "lanes"], 2], ["==", ["get", "class"], "park"]]"#, road: true, park: true)
        try check(#"["coalesce", ["get", "oneway"], false]"#, road: true, park: false)
        try check(#"["step", ["zoom"], false, 15, true]"#, road: false, park: false)
        try check(#"["boolean", ["get", "oneway"], false]"#, road: true, park: false)
    }

    func testFilterDependsOnZoomOrFeature() throws {
        XCTAssertTrue(try filter(#"["==", "class", "primary"]"#).isFeatureDependent)
        let zoomOnly = try filter(#"[">=", ["zoom"], 12]"#)
        XCTAssertFalse(zoomOnly.isFeatureDependent)
        XCTAssertNil(zoomOnly.constantValue)
        XCTAssertEqual(zoomOnly.atZoom(12).constantValue, true)
        XCTAssertEqual(zoomOnly.atZoom(11).constantValue, false)
        XCTAssertEqual(try filter(#"["all"]"#).constantValue, true)
    }

    func testUnsupportedFilterIsWarnedAndHidesTheLayer() throws {
        let style = try VectorStyle(json: """
            {"version": 8, "sources": {"s": {"type": "vector"}},
             "layers": [{"id": "l", "type": "line", "source": "s", "source-layer": "x", "filter": ["<", ["distance", {"type": "Point", "coordinates": [0, 0]}], 5]}]}
            """)
        XCTAssertEqual(style.layers.count, 0)
        XCTAssertEqual(style.warnings, ["layer 'l': filter: expression operator 'distance' is not supported; the layer is not drawn"])
    }

    func testMalformedFiltersNameTheLayer() {
        for json in [#"["==", "class"]"#, #"["in", ["get", "x"]]"#, #"["<", "$type", "Point"]"#, #"["match", ["get", "x"], "a", true]"#, #""text""#,
                     #"["==", 1, "x"]"#] {
            XCTAssertThrowsError(try filter(json), json) { error in
                let styleError = error as? VectorStyleError
                XCTAssertEqual(styleError?.kind, .invalidValue, json)
                XCTAssertEqual(styleError?.layer, "l", json)
                XCTAssertEqual(styleError?.property, "filter", json)
            }
        }
    }
}
