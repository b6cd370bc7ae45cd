import Foundation
import XCTest
@testable import MapRendering

/// The MapLibre Tiles decoder: the render suite's `.mlt` tiles decode to
/// what their MVT twins decode to (`Fixtures/mlt`), and hostile or
/// unsupported input is refused with an error naming what is wrong.
final class MLTDecoderTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/mlt").standardizedFileURL

    /// A feature as text, to compare decodings whatever their order or
    /// value types (MLT columns may widen an MVT `int` to `uint` or `double`).
    private static func signature(_ feature: VectorTileFeature) -> String {
        let properties = feature.properties.map { key, value -> String in
            switch value {
            case .string(let text): return "\(key)=\"\(text)\""
            case .bool(let flag): return "\(key)=\(flag)"
            // At float precision: an encoder may store a double column as 32-bit floats.
            default: return "\(key)=\(Float(value.number ?? .nan))"
            }
        }.sorted()
        let geometry = feature.parts.map { part in
            feature.layer.points(ofPart: part).map { "\($0.x),\($0.y)" }.joined(separator: " ") + (feature.layer.partIsExterior[part] ? " (outer)" : "")
        }
        return "\(feature.geometryType) id \(feature.id.map(String.init) ?? "-") \(properties) \(geometry)"
    }

    private func assertSameAsTwin(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let mlt = try VectorTile(Data(contentsOf: Self.fixtures.appendingPathComponent(name + ".mlt")), encoding: .mlt)
        let mvt = try VectorTile(Data(contentsOf: Self.fixtures.appendingPathComponent(name + ".mvt")))
        XCTAssertEqual(mlt.layers.map(\.name).sorted(), mvt.layers.map(\.name).sorted(), name, file: file, line: line)
        XCTAssertGreaterThan(mlt.featureCount, 0, file: file, line: line)
        for layer in mvt.layers {
            guard let decoded = mlt.layer(named: layer.name) else { continue }
            XCTAssertEqual(decoded.extent, layer.extent, "\(name) \(layer.name)", file: file, line: line)
            let expected = layer.features.map(Self.signature).sorted()
            let actual = decoded.features.map(Self.signature).sorted()
            XCTAssertEqual(actual.count, expected.count, "\(name) \(layer.name): features", file: file, line: line)
            for (a, e) in zip(actual, expected) where a != e {
                XCTFail("\(name) \(layer.name): decoded\n\(a)\nbut the MVT twin has\n\(e)", file: file, line: line)
                break
            }
        }
    }

    /// Dictionary strings, 64-bit ids, RLE geometry types, plain vertices.
    func testStreetsTileMatchesItsMVT() throws { try assertSameAsTwin("streets-16-11235-26208") }

    /// Morton-coded vertex dictionary, multi-polygons, delta-RLE ids.
    func testTMSTileMatchesItsMVT() throws { try assertSameAsTwin("2-2-1.tms") }

    func testCountiesTileMatchesItsMVT() throws { try assertSameAsTwin("counties-7-37-48") }

    /// A tile with a `Point` at (5, 7) in layer `a`, its vertex stream's encodings byte `vertexEncoding`.
    private static func pointTile(vertexEncoding: UInt8 = 0x42, typeStream: [UInt8] = [0x10, 0x02, 0x01, 0x01, 0x00]) -> Data {
        let body: [UInt8] = [0x01, 0x01, UInt8(ascii: "a"), 0x80, 0x20, 0x01, 0x04, 0x02] + typeStream
            + [0x13, vertexEncoding, 0x02, 0x02, 10, 14]
        return Data([UInt8(body.count)] + body)
    }

    func testHandMadePointTile() throws {
        let tile = try VectorTile(Self.pointTile(), encoding: .mlt)
        let feature = try XCTUnwrap(tile.layer(named: "a")?.features.first)
        XCTAssertEqual(feature.geometryType, .point)
        XCTAssertEqual(feature.geometry, [[VectorTilePoint(x: 5, y: 7)]])
        XCTAssertNil(feature.id)
    }

    func testFastPFORIsRefusedByName() {
        XCTAssertThrowsError(try VectorTile(Self.pointTile(vertexEncoding: 0x41), encoding: .mlt)) { error in
            let error = error as? VectorTileError
            XCTAssertEqual(error?.kind, .unsupported)
            XCTAssertTrue(error?.message.contains("FastPFOR") == true, "\(String(describing: error))")
        }
    }

    /// An RLE type stream claiming 2³¹ − 1 features in a few bytes is refused before any array is made.
    func testHugeRunLengthIsRefusedBeforeAllocation() {
        let types: [UInt8] = [0x10, 0x62, 0x02, 0x06, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x00]
        XCTAssertThrowsError(try VectorTile(Self.pointTile(typeStream: types), encoding: .mlt)) { error in
            XCTAssertEqual((error as? VectorTileError)?.kind, .limitExceeded, "\(error)")
        }
    }

    /// Every prefix of a real tile is refused with a `VectorTileError`, or
    /// (cut between feature tables) holds fewer layers; never a crash.
    func testTruncatedTilesAreRefused() throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("streets-16-11235-26208.mlt"))
        let layers = try VectorTile(data, encoding: .mlt).layers.count
        var refused = 0
        for length in stride(from: 1, to: data.count, by: 3) {
            do {
                let tile = try VectorTile(data.prefix(length), encoding: .mlt)
                XCTAssertLessThan(tile.layers.count, layers, "\(length) bytes")
            } catch {
                XCTAssertTrue(error is VectorTileError, "\(error)")
                refused += 1
            }
        }
        XCTAssertGreaterThan(refused, data.count / 3 * 9 / 10)
    }

    // MARK: Hand-made tables

    private static func varint(_ value: Int) -> [UInt8] {
        var value = value, out: [UInt8] = []
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return out + [UInt8(value)]
    }

    private static func text(_ string: String) -> [UInt8] { varint(string.utf8.count) + Array(string.utf8) }

    /// A stream: kind byte, encodings byte, value count, then `data` (its length first).
    private static func stream(_ kind: UInt8, _ encodings: UInt8, _ count: Int, _ data: [UInt8]) -> [UInt8] {
        [kind, encodings] + varint(count) + varint(data.count) + data
    }

    /// Two points with a nullable id, a nullable int32, a boolean, an FSST
    /// string column and a shared dictionary of two nullable string children.
    func testEveryColumnKindOfAHandMadeTable() throws {
        let columns: [UInt8] = [0x01, 0x04, 0x11] + Self.text("rank") + [0x0A] + Self.text("flag") + [0x1C] + Self.text("name")
            + [0x1E] + Self.text("n") + [0x02, 0x1D] + Self.text(":en") + [0x1C] + Self.text(":de")
        var body: [UInt8] = [0x01] + Self.text("t") + Self.varint(4096) + [0x06] + columns
        body += Self.stream(0x00, 0x00, 2, [0b01]) + Self.stream(0x10, 0x02, 1, [7])  // id: feature 0 has 7
        body += [0x02] + Self.stream(0x10, 0x02, 2, [0, 0]) + Self.stream(0x13, 0x42, 4, [2, 4, 4, 4])  // points (1, 2), (3, 4)
        body += Self.stream(0x00, 0x00, 2, [0b10]) + Self.stream(0x10, 0x02, 1, [9])  // rank: feature 1 has -5
        body += Self.stream(0x10, 0x60, 2, [0xFF, 0b10])  // flag: byte-RLE literal, false then true
        body += [0x04] + Self.stream(0x35, 0x02, 2, [3, 2]) + Self.stream(0x15, 0x00, 2, Array("abcde".utf8))  // FSST symbols "abc", "de"
            + Self.stream(0x36, 0x02, 2, [4, 3]) + Self.stream(0x11, 0x00, 2, [0, 0xFF, UInt8(ascii: "x"), 1, 0xFF, UInt8(ascii: "a")])
        body += [0x05] + Self.stream(0x36, 0x02, 2, [2, 3]) + Self.stream(0x12, 0x00, 2, Array("huhej".utf8))  // shared: "hu", "hej"
            + [0x02] + Self.stream(0x00, 0x00, 2, [0b01]) + Self.stream(0x22, 0x02, 1, [1])
            + [0x01] + Self.stream(0x22, 0x02, 2, [0, 1])
        let tile = try VectorTile(Data(Self.varint(body.count) + body), encoding: .mlt)
        let layer = try XCTUnwrap(tile.layer(named: "t"))
        XCTAssertEqual(layer.features.map(\.geometry), [[[VectorTilePoint(x: 1, y: 2)]], [[VectorTilePoint(x: 3, y: 4)]]])
        XCTAssertEqual(layer.features.map(\.id), [7, nil])
        XCTAssertEqual(layer.feature(at: 0).properties, ["flag": .bool(false), "name": .string("abcx"), "n:en": .string("hej"), "n:de": .string("hu")])
        XCTAssertEqual(layer.feature(at: 1).properties, ["rank": .int(-5), "flag": .bool(true), "name": .string("dea"), "n:de": .string("hej")])
    }

    func testStyleReadsEncoding() throws {
        let style = #"{"version": 8, "sources": {"m": {"type": "vector", "tiles": ["t/{z}/{x}/{y}.mlt"], "encoding": "mlt"},"#
            + #""v": {"type": "vector", "tiles": ["t/{z}/{x}/{y}.mvt"]}}, "layers": []}"#
        let parsed = try VectorStyle(json: style)
        XCTAssertEqual(parsed.sources["m"]?.encoding, .mlt)
        XCTAssertEqual(parsed.sources["v"]?.encoding, .mvt)
        XCTAssertThrowsError(try VectorStyle(json: style.replacingOccurrences(of: "\"mlt\"", with: "\"pbf\"")))
    }
}
