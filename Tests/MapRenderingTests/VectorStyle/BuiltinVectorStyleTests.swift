import Foundation
import XCTest
@testable import MapRendering

/// The built-in styles read with no warnings and draw what the schemas hold.
final class BuiltinVectorStyleTests: XCTestCase {
    func testEveryBuiltinStyleReadsWithoutWarnings() throws {
        for schema in BuiltinVectorStyle.Schema.allCases {
            for look in MapStyle.allCases {
                let builtin = BuiltinVectorStyle(schema: schema, look: look)
                let style = try builtin.style()
                XCTAssertEqual(style.warnings, [], "\(schema) \(look)")
                XCTAssertEqual(style.sources.count, 1)
                XCTAssertGreaterThan(style.layers.count, 12)
                // Valid JSON by another reader too.
                XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(builtin.json.utf8)))
                // Colours MapLibre Native reads too: its parser refuses eight-digit hex (the style then draws nothing).
                let eightDigitHex = try NSRegularExpression(pattern: "\"#[0-9a-fA-F]{8}\"")
                XCTAssertEqual(eightDigitHex.numberOfMatches(in: builtin.json, range: NSRange(builtin.json.startIndex..., in: builtin.json)), 0,
                               "\(schema) \(look)")
            }
        }
    }

    func testOpenMapTilesStyleAtZoom15() throws {
        let style = try BuiltinVectorStyle(schema: .openMapTiles, look: .light).style()
        let layers = Dictionary(uniqueKeysWithValues: style.layers.map { ($0.id, $0.atZoom(15)) })
        let primary = MockStyleFeature(properties: ["class": .string("primary"), "name": .string("Mannerheimintie")], styleGeometryType: .lineString)
        let path = MockStyleFeature(properties: ["class": .string("path")], styleGeometryType: .lineString)
        let road = try XCTUnwrap(layers["road"]), casing = try XCTUnwrap(layers["road-casing"]), paths = try XCTUnwrap(layers["road-path"])
        XCTAssertTrue(road.matches(primary, atZoom: 15))
        XCTAssertFalse(road.matches(path, atZoom: 15))
        XCTAssertTrue(paths.matches(path, atZoom: 15))
        guard case .line(let roadLine) = road.kind, case .line(let casingLine) = casing.kind, case .line(let pathLine) = paths.kind else { return XCTFail() }
        // z15 primary: exponential 1.5 from 4.5 (z14) to 18 (z18): t = 0.5 / (1.5^4 - 1).
        let width = 4.5 + 13.5 * 0.5 / (pow(1.5, 4) - 1)
        XCTAssertEqual(roadLine.width.value(atZoom: 15, for: primary), width, accuracy: 1e-9)
        XCTAssertEqual(casingLine.gapWidth.value(atZoom: 15, for: primary), width, accuracy: 1e-9)
        XCTAssertEqual(casingLine.width.constantValue!, 1.25, accuracy: 1e-9)
        XCTAssertEqual(pathLine.dashArray.constantValue, [2, 1.5])
        XCTAssertEqual(roadLine.color.value(atZoom: 15, for: primary), StyleColor(css: "#fce5b0"))
        // Kaisaniemi park: landcover grass/park is park green.
        let landcover = try XCTUnwrap(layers["landcover"])
        let kaisaniemi = MockStyleFeature(properties: ["class": .string("grass"), "subclass": .string("park")], styleGeometryType: .polygon)
        guard case .fill(let fill) = landcover.kind else { return XCTFail() }
        XCTAssertTrue(landcover.matches(kaisaniemi, atZoom: 15))
        XCTAssertEqual(fill.color.value(atZoom: 15, for: kaisaniemi), StyleColor(css: "#cdebb0"))
        // Street names along lines, with the name:latin fallback.
        guard case .symbol(let names) = try XCTUnwrap(layers["road-name"]).kind else { return XCTFail() }
        XCTAssertEqual(names.placement.constantValue, .line)
        XCTAssertEqual(names.textField.value(atZoom: 15, for: primary), "Mannerheimintie")
        // The water colour is today's basemap water.
        guard case .fill(let water) = try XCTUnwrap(layers["water"]).kind else { return XCTFail() }
        XCTAssertEqual(water.color.constantValue?.rgba, MapStyle.light.palette.water)
    }

    func testProtomapsStyleFiltersByMinZoom() throws {
        let style = try BuiltinVectorStyle(schema: .protomaps, look: .dark).style()
        let places = try XCTUnwrap(style.layers.first { $0.id == "places" })
        let helsinki = MockStyleFeature(properties: ["kind": .string("locality"), "name": .string("Helsinki"), "min_zoom": .number(4)])
        let kallio = MockStyleFeature(properties: ["kind": .string("neighbourhood"), "name": .string("Kallio"), "min_zoom": .number(13)])
        XCTAssertTrue(places.matches(helsinki, atZoom: 12))
        XCTAssertFalse(places.matches(kallio, atZoom: 12))
        XCTAssertTrue(places.matches(kallio, atZoom: 13))
        guard case .symbol(let symbol) = places.kind else { return XCTFail() }
        XCTAssertEqual(symbol.textSize.value(atZoom: 9, for: helsinki), 14)
        XCTAssertEqual(symbol.textSize.value(atZoom: 12, for: helsinki), 18)
        XCTAssertEqual(symbol.textSize.value(atZoom: 12, for: kallio), 11)
        XCTAssertEqual(symbol.textColor.constantValue?.rgba, MapStyle.dark.palette.text)
        let rail = try XCTUnwrap(style.layers.first { $0.id == "roads-rail" })
        XCTAssertTrue(rail.matches(MockStyleFeature(properties: ["kind": .string("rail")], styleGeometryType: .lineString), atZoom: 14))
        XCTAssertFalse(rail.matches(MockStyleFeature(properties: ["kind": .string("rail"), "is_tunnel": .bool(true)], styleGeometryType: .lineString), atZoom: 14))
    }
}
