@testable import MapRendering

/// A feature for style tests: properties, an optional id, a geometry type and maybe a geometry.
struct MockStyleFeature: StyleFeature {
    var properties: [String: StyleValue] = [:]
    var featureID: UInt64?
    var styleGeometryType: StyleGeometryType = .point
    /// The geometry `within` tests, nil for none.
    var tileGeometry: StyleTileGeometry?

    func styleValue(forKey key: String) -> StyleValue? { properties[key] }
    func styleTileGeometry() -> StyleTileGeometry? { tileGeometry }
}
