import Foundation

/// Numbers as strings the way JavaScript's `String(number)` writes them, which is
/// what MapLibre's `to-string` (and so `text-field` tokens) gives: integers
/// without a fraction (`3`, not `3.0`).
enum StyleNumberFormat {
    static func string(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "Infinity" : "-Infinity" }
        if value == value.rounded(), abs(value) < 1e21 {
            return abs(value) < 9e15 ? String(Int64(value)) : String(format: "%.0f", value)
        }
        return "\(value)"
    }
}
