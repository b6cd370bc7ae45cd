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

/// A value a style expression works with: a feature's property, a literal from the
/// style, or a result.
public enum StyleValue: Sendable, Hashable {
    /// JSON `null`, and what a missing property reads as.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// Every number (JSON and MapLibre have one number type).
    case number(Double)
    /// A string.
    case string(String)
    /// An array of values (from `literal`, or a property value such as a dash pattern).
    case array([StyleValue])
    /// A colour (from a colour literal in a colour property, or `to-color`).
    case color(StyleColor)

    /// The name `typeof` gives this value, used in error messages.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .color: return "color"
        }
    }
}

/// What a style needs to know about a feature: its geometry type, its id and its
/// properties. The vector tile decoder's feature type conforms; tests use a mock.
public protocol StyleFeature {
    /// The feature's geometry type.
    var styleGeometryType: StyleGeometryType { get }
    /// The feature's id, if the tile gives one.
    var featureID: UInt64? { get }
    /// The property named `key`, or nil if the feature has none of that name.
    func styleValue(forKey key: String) -> StyleValue?
}
