import Foundation
import XCTest
@testable import MapRendering

/// Every case of mapbox/mvt-fixtures (`Fixtures/mvt-fixtures`): valid tiles
/// decode to what the fixture's `tile.json` (written by the fixture's own
/// generator) holds; invalid ones are refused (`fatal`) or decode with the
/// bad part dropped (`recoverable`); none crash.
final class VectorTileFixtureTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/mvt-fixtures/fixtures").standardizedFileURL

    /// Cases decided differently from their `info.json`, each for a reason:
    /// - 057 says valid, but is byte for byte the shape of 051 (fatal): a
    ///   MoveTo count of 536 870 911 with one point behind it.
    /// - 061 is valid only for MVT 1 (a ClosePath in a line); we read by MVT 2 rules.
    /// - 045 names no error kind (half a point): refused.
    /// - 046 (two equal points in a line) is recoverable but harmless to
    ///   draw, so the line is kept rather than dropped.
    /// - 003 (no type: recoverable) is byte for byte 016 (type UNKNOWN:
    ///   valid): proto2's default makes a missing type UNKNOWN, which is kept
    ///   and never drawn.
    static let refusedDespiteInfo: Set<String> = ["057", "061", "045"]
    static let keptDespiteInfo: Set<String> = ["046", "003"]

    func testEveryFixture() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).sorted()
        XCTAssertGreaterThanOrEqual(names.count, 74)
        var checked = 0
        for name in names {
            let folder = Self.fixtures.appendingPathComponent(name)
            let data = try Data(contentsOf: folder.appendingPathComponent("tile.mvt"))
            let info = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("info.json"))) as? [String: Any])
            let validity = try XCTUnwrap(info["validity"] as? [String: Any])
            let valid = validity["v2"] as? Bool == true
            let errorKind = validity["error"] as? String
            if Self.refusedDespiteInfo.contains(name) || (!valid && errorKind != "recoverable") {
                XCTAssertThrowsError(try VectorTile(data), "fixture \(name) should be refused") { error in
                    XCTAssertTrue(error is VectorTileError, "fixture \(name): \(error)")
                }
            } else if !valid && !Self.keptDespiteInfo.contains(name) {
                let tile = try VectorTile(data)
                XCTAssertGreaterThan(tile.skippedCount, 0, "fixture \(name) is recoverable: something must be dropped")
            } else {
                let tile = try VectorTile(data)
                XCTAssertEqual(tile.skippedCount, 0, "fixture \(name)")
                let expected = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("tile.json"))) as? [String: Any])
                try compare(tile, with: expected, fixture: name)
            }
            checked += 1
        }
        XCTAssertEqual(checked, names.count)
    }

    /// 015: two layers named "hello"; the second is dropped.
    func testADuplicateLayerNameKeepsTheFirstLayer() throws {
        let tile = try VectorTile(Data(contentsOf: Self.fixtures.appendingPathComponent("015/tile.mvt")))
        XCTAssertEqual(tile.layers.map(\.name), ["hello"])
        XCTAssertEqual(tile.layers[0].feature(at: 0).value(forKey: "name"), .string("layer-one"))
        XCTAssertEqual(tile.skippedCount, 1)
    }

    /// The spec's multi-polygon example (§4.3.5.6, fixture 022): two
    /// polygons, the second with a hole; the hole is the negative-area ring.
    func testRingsAreClassifiedByWinding() throws {
        let tile = try VectorTile(Data(contentsOf: Self.fixtures.appendingPathComponent("022/tile.mvt")))
        let layer = try XCTUnwrap(tile.layer(named: "hello"))
        let feature = layer.feature(at: 0)
        XCTAssertEqual(feature.parts.map { layer.partIsExterior[$0] }, [true, true, false])
        // The spec's coordinates for the first polygon and the hole.
        XCTAssertEqual(feature.geometry[0], [VectorTilePoint(x: 0, y: 0), VectorTilePoint(x: 10, y: 0), VectorTilePoint(x: 10, y: 10), VectorTilePoint(x: 0, y: 10)])
        XCTAssertEqual(feature.geometry[2], [VectorTilePoint(x: 13, y: 13), VectorTilePoint(x: 13, y: 17), VectorTilePoint(x: 17, y: 17), VectorTilePoint(x: 17, y: 13)])
    }

    /// 038: each of the seven value types, looked up by key.
    func testEveryValueTypeIsLookedUpByKey() throws {
        let feature = try XCTUnwrap(VectorTile(Data(contentsOf: Self.fixtures.appendingPathComponent("038/tile.mvt"))).layers.first?.feature(at: 0))
        XCTAssertEqual(feature.value(forKey: "string_value"), .string("ello"))
        XCTAssertEqual(feature.value(forKey: "bool_value"), .bool(true))
        XCTAssertEqual(feature.value(forKey: "int_value"), .int(6))
        XCTAssertEqual(feature.value(forKey: "double_value"), .double(1.23))
        XCTAssertEqual(feature.value(forKey: "float_value"), .float(3.1))
        XCTAssertEqual(feature.value(forKey: "sint_value"), .sint(-87948))
        XCTAssertEqual(feature.value(forKey: "uint_value"), .uint(87948))
        XCTAssertNil(feature.value(forKey: "missing"))
        XCTAssertEqual(feature.id, 1)
        XCTAssertEqual(feature.geometryType, .point)
    }

    /// 051: half a billion points announced, one given: refused by count
    /// before any allocation, with a message naming the count.
    func testAHugeCommandCountIsRefusedByName() throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("051/tile.mvt"))
        XCTAssertThrowsError(try VectorTile(data)) { error in
            let error = error as? VectorTileError
            XCTAssertEqual(error?.kind, .corrupt)
            XCTAssertTrue(error?.message.contains("command count 536870911") == true, error?.message ?? "")
        }
    }

    // MARK: - Comparison with tile.json

    private func compare(_ tile: VectorTile, with expected: [String: Any], fixture: String) throws {
        let layers = expected["layers"] as? [[String: Any]] ?? []
        XCTAssertEqual(tile.layers.count, layers.count, "fixture \(fixture): layer count")
        for (layer, json) in zip(tile.layers, layers) {
            let context = "fixture \(fixture) layer \(layer.name)"
            XCTAssertEqual(layer.name, json["name"] as? String, context)
            XCTAssertEqual(Int(layer.version), json["version"] as? Int, context)
            XCTAssertEqual(Int(layer.extent), json["extent"] as? Int ?? 4096, context)
            let keys = json["keys"] as? [String] ?? []
            XCTAssertEqual(layer.keys, keys, context)
            let values = json["values"] as? [[String: Any]] ?? []
            XCTAssertEqual(layer.values.count, values.count, context)
            for (value, jsonValue) in zip(layer.values, values) { assertValue(value, equals: jsonValue, context) }
            let features = json["features"] as? [[String: Any]] ?? []
            XCTAssertEqual(layer.featureCount, features.count, context)
            for (feature, jsonFeature) in zip(layer.features, features) {
                let featureContext = "\(context) feature \(feature.index)"
                XCTAssertEqual(feature.id, (jsonFeature["id"] as? NSNumber)?.uint64Value, featureContext)
                XCTAssertEqual(Int(feature.geometryType.rawValue), jsonFeature["type"] as? Int ?? 0, featureContext)
                let tags = jsonFeature["tags"] as? [Int] ?? []
                XCTAssertEqual(feature.propertyCount * 2, tags.count, featureContext)
                for position in 0..<min(feature.propertyCount, tags.count / 2) {
                    let (key, value) = feature.property(at: position)
                    XCTAssertEqual(key, keys[tags[2 * position]], featureContext)
                    assertValue(value, equals: values[tags[2 * position + 1]], featureContext)
                }
                let commands = (jsonFeature["geometry"] as? [NSNumber] ?? []).map(\.uint32Value)
                XCTAssertEqual(feature.geometry, Self.interpret(commands, type: feature.geometryType), featureContext)
            }
        }
    }

    private func assertValue(_ value: VectorTileValue, equals json: [String: Any], _ context: String) {
        let expected: VectorTileValue?
        if let string = json["string_value"] as? String { expected = .string(string) }
        // 076 writes the string "613" in its JSON as the number 613.
        else if let number = json["string_value"] as? NSNumber { expected = .string(number.stringValue) }
        else if let number = json["float_value"] as? NSNumber { expected = .float(number.floatValue) }
        else if let number = json["double_value"] as? NSNumber { expected = .double(number.doubleValue) }
        else if let number = json["int_value"] as? NSNumber { expected = .int(number.int64Value) }
        else if let number = json["uint_value"] as? NSNumber { expected = .uint(number.uint64Value) }
        else if let number = json["sint_value"] as? NSNumber { expected = .sint(number.int64Value) }
        else if let bool = json["bool_value"] as? Bool { expected = .bool(bool) }
        else { expected = nil }
        XCTAssertEqual(value, expected, context)
    }

    /// The fixture's raw command integers read by the spec's rules, the plain
    /// way: the points of each part (a ring's closing ClosePath adds none).
    static func interpret(_ commands: [UInt32], type: VectorTileGeometryType) -> [[VectorTilePoint]] {
        var parts = [[VectorTilePoint]]()
        var x: Int32 = 0, y: Int32 = 0, i = 0
        func zigZag(_ n: UInt32) -> Int32 { Int32(bitPattern: (n >> 1) ^ (0 &- (n & 1))) }
        while i < commands.count {
            let id = commands[i] & 7, count = Int(commands[i] >> 3)
            i += 1
            if id == 7 { continue }
            if id == 1 && (type != .point || parts.isEmpty) { parts.append([]) }
            for _ in 0..<count {
                x &+= zigZag(commands[i]); y &+= zigZag(commands[i + 1])
                i += 2
                parts[parts.count - 1].append(VectorTilePoint(x: x, y: y))
            }
        }
        return parts
    }
}
