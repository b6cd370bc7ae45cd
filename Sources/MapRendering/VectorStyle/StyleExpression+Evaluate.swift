import Foundation

/// Stands in for "no feature" when a zoom-only value is evaluated.
struct NoStyleFeature: StyleFeature {
    var styleGeometryType: StyleGeometryType { .point }
    var featureID: UInt64? { nil }
    func styleValue(forKey key: String) -> StyleValue? { nil }
}

/// An expression that cannot give a value for this input (a type assertion that
/// fails, a comparison of a number with a string): MapLibre's evaluation error.
/// The property then takes its default and a filter rejects the feature.
struct StyleEvaluationError: Error {}

extension StyleExpression {
    /// The value at `zoom` for `feature` (`NoStyleFeature` for zoom-only
    /// expressions, which read no feature). Generic, and the feature not optional,
    /// so neither a wrapper nor its type metadata is made per call.
    func evaluate<Feature: StyleFeature>(zoom: Double, feature: Feature) throws(StyleEvaluationError) -> StyleValue {
        switch self {
        case .literal(let value):
            return value
        case .get(let key):
            return feature.styleValue(forKey: key) ?? .null
        case .has(let key):
            return .bool(feature.styleValue(forKey: key) != nil)
        case .id:
            return feature.featureID.map { .number(Double($0)) } ?? .null
        case .geometryType:
            return .string(feature.styleGeometryType.styleName)
        case .within(let region):
            guard let geometry = feature.styleTileGeometry() else { return .bool(false) }
            return .bool(region.contains(geometry, type: feature.styleGeometryType))
        case .zoom:
            return .number(zoom)
        case .not(let operand):
            return .bool(!(try operand.evaluateBool(zoom: zoom, feature: feature)))
        case .all(let operands):
            // Short-circuits, as MapLibre's does.
            for operand in operands where !(try operand.evaluateBool(zoom: zoom, feature: feature)) {
                return .bool(false)
            }
            return .bool(true)
        case .any(let operands):
            for operand in operands where try operand.evaluateBool(zoom: zoom, feature: feature) {
                return .bool(true)
            }
            return .bool(false)
        case .compare(let op, let lhs, let rhs):
            return .bool(try Self.compare(op, try lhs.evaluate(zoom: zoom, feature: feature), try rhs.evaluate(zoom: zoom, feature: feature)))
        case .contains(let needleExpression, let haystackExpression):
            let needle = try needleExpression.evaluate(zoom: zoom, feature: feature)
            switch needle {
            case .array, .color: throw StyleEvaluationError()
            default: break
            }
            switch try haystackExpression.evaluate(zoom: zoom, feature: feature) {
            case .null: return .bool(false)
            case .array(let elements): return .bool(elements.contains(needle))
            case .string(let string):
                // JavaScript's `indexOf` after `String(needle)`; an empty haystack is false.
                let part = needle == .null ? "null" : Self.string(needle)
                return .bool(!string.isEmpty && (part.isEmpty || string.contains(part)))
            default: throw StyleEvaluationError()
            }
        case .match(let input, let branches, let outputs, let fallback):
            let value = try input.evaluate(zoom: zoom, feature: feature)
            if let index = branches[value] { return try outputs[index].evaluate(zoom: zoom, feature: feature) }
            return try fallback.evaluate(zoom: zoom, feature: feature)
        case .cases(let branches, let fallback):
            for branch in branches where try branch.condition.evaluateBool(zoom: zoom, feature: feature) {
                return try branch.output.evaluate(zoom: zoom, feature: feature)
            }
            return try fallback.evaluate(zoom: zoom, feature: feature)
        case .coalesce(let operands):
            // An image the sprite lacks counts as null, as in MapLibre; when
            // nothing else is left, the first such name (then reported missing).
            var firstMissingImage: StyleValue?
            for operand in operands {
                let value = try operand.evaluate(zoom: zoom, feature: feature)
                if case .image = operand, case .string(let name) = value, !feature.styleHasImage(named: name) {
                    firstMissingImage = firstMissingImage ?? value
                    continue
                }
                if value != .null { return value }
            }
            return firstMissingImage ?? .null
        case .image(let name):
            return try name.evaluate(zoom: zoom, feature: feature)
        case .fallback(let operand, let value):
            let result = (try? operand.evaluate(zoom: zoom, feature: feature)) ?? .null
            return result == .null ? value : result
        case .assert(let kind, let operands):
            for operand in operands {
                let value = try operand.evaluate(zoom: zoom, feature: feature)
                switch (kind, value) {
                case (.number, .number), (.string, .string), (.boolean, .bool), (.array, .array): return value
                default: continue
                }
            }
            throw StyleEvaluationError()
        case .toString(let operand):
            return .string(Self.string(try operand.evaluate(zoom: zoom, feature: feature)))
        case .toNumber(let operands):
            for operand in operands {
                if let number = Self.number(try operand.evaluate(zoom: zoom, feature: feature)) { return .number(number) }
            }
            throw StyleEvaluationError()
        case .toBoolean(let operand):
            switch try operand.evaluate(zoom: zoom, feature: feature) {
            case .null: return .bool(false)
            case .bool(let b): return .bool(b)
            case .number(let n): return .bool(!(n == 0 || n.isNaN))
            case .string(let s): return .bool(!s.isEmpty)
            case .array, .color: return .bool(true)
            }
        case .toColor(let operands):
            for operand in operands {
                if let color = Self.color(try operand.evaluate(zoom: zoom, feature: feature)) { return .color(color) }
            }
            throw StyleEvaluationError()
        case .concat(let operands):
            var result = ""
            for operand in operands { result += Self.string(try operand.evaluate(zoom: zoom, feature: feature)) }
            return .string(result)
        case .downcase(let operand):
            guard case .string(let s) = try operand.evaluate(zoom: zoom, feature: feature) else { throw StyleEvaluationError() }
            return .string(s.lowercased())
        case .upcase(let operand):
            guard case .string(let s) = try operand.evaluate(zoom: zoom, feature: feature) else { throw StyleEvaluationError() }
            return .string(s.uppercased())
        case .arithmetic(let op, let operands):
            var numbers: [Double] = []
            numbers.reserveCapacity(operands.count)
            for operand in operands {
                guard case .number(let n) = try operand.evaluate(zoom: zoom, feature: feature) else { throw StyleEvaluationError() }
                numbers.append(n)
            }
            guard let result = Self.arithmetic(op, numbers) else { throw StyleEvaluationError() }
            return .number(result)
        case .step(let input, let first, let stops):
            // NaN (`["/", 0, 0]`) is no stop's input: an error, so the property's default (MapLibre's "Input is not a number").
            guard case .number(let x) = try input.evaluate(zoom: zoom, feature: feature), !x.isNaN else { throw StyleEvaluationError() }
            // The last stop whose input is ≤ x (stops are ascending, checked at compile).
            guard let index = Self.lastStop(atOrBelow: x, in: stops) else { return try first.evaluate(zoom: zoom, feature: feature) }
            return try stops[index].output.evaluate(zoom: zoom, feature: feature)
        case .interpolate(let base, let input, let stops, let space):
            // NaN (`["/", 0, 0]`) is no stop's input: an error, so the property's default (MapLibre's "Input is not a number").
            guard case .number(let x) = try input.evaluate(zoom: zoom, feature: feature), !x.isNaN else { throw StyleEvaluationError() }
            guard let index = Self.lastStop(atOrBelow: x, in: stops) else { return try stops[0].output.evaluate(zoom: zoom, feature: feature) }
            if index == stops.count - 1 { return try stops[index].output.evaluate(zoom: zoom, feature: feature) }
            let lower = stops[index], upper = stops[index + 1]
            let t = Self.interpolationFactor(x, base: base, lower: lower.input, upper: upper.input)
            return Self.interpolate(try lower.output.evaluate(zoom: zoom, feature: feature),
                                    try upper.output.evaluate(zoom: zoom, feature: feature), t, in: space)
        }
    }

    /// A condition's value: only a boolean is one.
    func evaluateBool<Feature: StyleFeature>(zoom: Double, feature: Feature) throws(StyleEvaluationError) -> Bool {
        guard case .bool(let value) = try evaluate(zoom: zoom, feature: feature) else { throw StyleEvaluationError() }
        return value
    }

    /// MapLibre's `exponentialInterpolation` (linear is base 1).
    static func interpolationFactor(_ x: Double, base: Double, lower: Double, upper: Double) -> Double {
        let difference = upper - lower
        let progress = x - lower
        if difference == 0 { return 0 }
        let t = base == 1 ? progress / difference : (pow(base, progress) - 1) / (pow(base, difference) - 1)
        // Huge stops overflow pow to ∞/∞; keep the factor a fraction so outputs
        // stay between their stops.
        return t.isNaN ? 0 : min(max(t, 0), 1)
    }

    /// Numbers, colours (straight RGBA, as MapLibre) and number arrays of one
    /// length interpolate; anything else takes the lower stop's value.
    static func interpolate(_ from: StyleValue, _ to: StyleValue, _ t: Double, in space: StyleColorSpace = .rgb) -> StyleValue {
        switch (from, to) {
        case (.number(let a), .number(let b)):
            return .number(a + t * (b - a))
        case (.array(let a), .array(let b)) where a.count == b.count:
            var result: [StyleValue] = []
            for (x, y) in zip(a, b) {
                guard case .number(let p) = x, case .number(let q) = y else { return from }
                result.append(.number(p + t * (q - p)))
            }
            return .array(result)
        default:
            // A colour output read from a property arrives as a string.
            if let a = color(from), let b = color(to), case .color = from {
                return .color(space.interpolate(a, b, t))
            }
            if let a = color(from), let b = color(to), case .color = to {
                return .color(space.interpolate(a, b, t))
            }
            return from
        }
    }

    /// Binary search for the last stop with `input ≤ x`; nil if x is below all.
    static func lastStop(atOrBelow x: Double, in stops: [StyleStop]) -> Int? {
        var low = 0, high = stops.count  // invariant: stops[..<low] ≤ x < stops[high...]
        while low < high {
            let mid = (low + high) / 2
            if stops[mid].input <= x { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    static func compare(_ op: StyleComparison, _ lhs: StyleValue, _ rhs: StyleValue) throws(StyleEvaluationError) -> Bool {
        switch op {
        case .equal: return lhs == rhs
        case .notEqual: return lhs != rhs
        default: break
        }
        // Ordering compares two numbers or two strings; mixed types are an
        // evaluation error in MapLibre (a filter reads it as false).
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): return ordered(op, a, b)
        case (.string(let a), .string(let b)):
            // JavaScript compares strings by UTF-16 code units.
            let order: Int
            if a == b { order = 0 } else { order = a.utf16.lexicographicallyPrecedes(b.utf16) ? -1 : 1 }
            return ordered(op, order, 0)
        default: throw StyleEvaluationError()
        }
    }

    private static func ordered<T: Comparable>(_ op: StyleComparison, _ a: T, _ b: T) -> Bool {
        switch op {
        case .less: return a < b
        case .lessOrEqual: return a <= b
        case .greater: return a > b
        case .greaterOrEqual: return a >= b
        case .equal: return a == b
        case .notEqual: return a != b
        }
    }

    static func arithmetic(_ op: StyleArithmetic, _ n: [Double]) -> Double? {
        switch op {
        case .plus: return n.reduce(0, +)
        case .times: return n.reduce(1, *)
        case .min: return n.min() ?? .infinity
        case .max: return n.max() ?? -.infinity
        default: break
        }
        guard let first = n.first else { return nil }
        switch op {
        case .plus, .times, .min, .max: return nil
        case .minus: return n.count == 1 ? -first : (n.count == 2 ? first - n[1] : nil)
        case .divide: return n.count == 2 ? first / n[1] : nil
        case .remainder: return n.count == 2 ? first.truncatingRemainder(dividingBy: n[1]) : nil
        case .power: return n.count == 2 ? pow(first, n[1]) : nil
        }
    }

    /// `to-string`.
    static func string(_ value: StyleValue) -> String {
        switch value {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return StyleNumberFormat.string(n)
        case .string(let s): return s
        case .color(let c): return c.cssString
        case .array(let elements): return "[" + elements.map(json).joined(separator: ",") + "]"
        }
    }

    private static func json(_ value: StyleValue) -> String {
        switch value {
        case .string(let s):
            let escaped = s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\"\(escaped)\""
        case .null: return "null"
        default: return string(value)
        }
    }

    /// `to-number`'s conversion of one value (JavaScript's `Number()` for strings);
    /// nil when it fails.
    static func number(_ value: StyleValue) -> Double? {
        switch value {
        case .null: return 0
        case .bool(let b): return b ? 1 : 0
        case .number(let n): return n
        case .string(let s):
            let trimmed = s.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { return 0 }
            guard trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || "eE.+-".contains($0)) }) else {
                if trimmed == "Infinity" || trimmed == "+Infinity" { return .infinity }
                if trimmed == "-Infinity" { return -.infinity }
                return nil
            }
            return Double(trimmed)
        case .array, .color: return nil
        }
    }

    /// A colour, or a string that parses as one.
    static func color(_ value: StyleValue) -> StyleColor? {
        switch value {
        case .color(let c): return c
        case .string(let s): return StyleColor(css: s)
        default: return nil
        }
    }
}
