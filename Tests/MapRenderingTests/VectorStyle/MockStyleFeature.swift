@testable import MapRendering

/// A feature for style tests: properties, an optional id and a geometry type.
struct MockStyleFeature: StyleFeature {
    var properties: [String: StyleValue] = [:]
    var featureID: UInt64?
    var styleGeometryType: StyleGeometryType = .point

    func styleValue(forKey key: String) -> StyleValue? { properties[key] }
}
