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
