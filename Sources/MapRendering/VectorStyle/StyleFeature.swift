/// What a style needs to know about a feature: its geometry type, its id and its
/// properties. The vector tile decoder's feature type conforms; tests use a mock.
public protocol StyleFeature {
    /// The feature's geometry type.
    var styleGeometryType: StyleGeometryType { get }
    /// The feature's id, if the tile gives one.
    var featureID: UInt64? { get }
    /// The property named `key`, or nil if the feature has none of that name.
    func styleValue(forKey key: String) -> StyleValue?
    /// The feature's geometry in its tile, which `within` tests; nil when
    /// unknown (then nothing is within).
    func styleTileGeometry() -> StyleTileGeometry?
    /// Whether the sprite the feature is drawn with has the image `name`,
    /// which `["coalesce", ["image", …], …]` asks; true when unknown.
    func styleHasImage(named name: String) -> Bool
}

extension StyleFeature {
    /// No geometry by default: `within` is false.
    public func styleTileGeometry() -> StyleTileGeometry? { nil }
    /// Every image is taken to exist by default (no sprite to ask).
    public func styleHasImage(named name: String) -> Bool { true }
}

/// The kind of geometry a feature has, as style filters see it (`$type` in legacy
/// filters, `["geometry-type"]` in expressions: `Point`, `LineString`, `Polygon`).
public enum StyleGeometryType: Sendable, Hashable {
    /// One or more points.
    case point
    /// One or more lines.
    case lineString
    /// One or more polygons.
    case polygon

    /// The name style filters compare with.
    var styleName: String {
        switch self {
        case .point: return "Point"
        case .lineString: return "LineString"
        case .polygon: return "Polygon"
        }
    }
}
