import Foundation
import XCTest
@testable import MapRendering

/// A layer whose key table repeats a key (the spec says keys should be
/// unique; the fuzzer found a tile that breaks it): every property a feature
/// has is found again by its key, whichever copy of the key its tag names.
final class VectorTileDuplicateKeyTests: XCTestCase {
    func testEveryPropertyIsFoundByItsKeyWhenKeysRepeat() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/mvt-regressions/duplicate-keys.mvt")
        let bytes = [UInt8](try Data(contentsOf: file))
        let tile = try bytes.withUnsafeBufferPointer { try VectorTile(bytes: $0, limits: VectorTileLimits()) }
        var checked = 0
        for layer in tile.layers {
            XCTAssertLessThan(Set(layer.keys).count, layer.keys.count, "the layer repeats a key")
            for feature in layer.features {
                for position in 0..<feature.propertyCount {
                    let (key, value) = feature.property(at: position)
                    XCTAssertNotNil(feature.value(forKey: key), "\(layer.name): '\(key)' is found again")
                    _ = value
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 0)
    }
}
