/// A property value of a vector tile feature: one of the seven types of the
/// MVT 2.1 `Value` message, kept as encoded so a style can tell `int` from `uint`.
public enum VectorTileValue: Equatable, Sendable, CustomStringConvertible {
    /// `string_value`.
    case string(String)
    /// `float_value`.
    case float(Float)
    /// `double_value`.
    case double(Double)
    /// `int_value` (plain varint, two's complement).
    case int(Int64)
    /// `uint_value`.
    case uint(UInt64)
    /// `sint_value` (zig-zag).
    case sint(Int64)
    /// `bool_value`.
    case bool(Bool)

    /// The value as a number, for numeric comparisons in styles; nil for strings and booleans.
    public var number: Double? {
        switch self {
        case let .float(value): return Double(value)
        case let .double(value): return value
        case let .int(value), let .sint(value): return Double(value)
        case let .uint(value): return Double(value)
        case .string, .bool: return nil
        }
    }

    /// The value as a string, or nil when it is not one.
    public var string: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    /// The value as text (numbers and booleans spelled out).
    public var description: String {
        switch self {
        case let .string(value): return value
        case let .float(value): return String(value)
        case let .double(value): return String(value)
        case let .int(value), let .sint(value): return String(value)
        case let .uint(value): return String(value)
        case let .bool(value): return String(value)
        }
    }
}
