import Foundation
import MapRendering

/// Reads a URL's query items strictly, for a typed URL's parser.
///
/// Every item must have a known name (an unknown one is an error that suggests
/// the nearest known name); single-valued parameters may appear once; values
/// are checked against their ranges with messages that name the parameter and
/// the allowed values. `+` is a literal plus, not a space.
public struct QueryReader: Sendable {
    /// The items in URL order, values percent-decoded.
    public let items: [(name: String, value: String?)]

    /// Reads `url`'s query, refusing names not in `knownNames`. An unknown
    /// name is answered with `habits`' replacement for it (a name, or
    /// `name=value` items) when it has one, else with the nearest known name.
    public init(url: URL, knownNames: [String],
                habits: (_ name: String, _ value: String?) -> String? = { _, _ in nil }) throws {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw URLParameterError(parameter: "query", reason: "cannot be read: the URL is malformed")
        }
        var items: [(name: String, value: String?)] = []
        for item in components.percentEncodedQueryItems ?? [] {
            guard let name = item.name.removingPercentEncoding,
                  let value = item.value.map({ $0.removingPercentEncoding }) else {
                throw URLParameterError(parameter: item.name, reason: "has invalid percent-encoding")
            }
            if name.isEmpty { continue }  // `?&a=1` or a trailing `&`
            guard knownNames.contains(name) else {
                let known = knownNames.joined(separator: ", ")
                if let suggestion = habits(name, value) ?? NameSuggestion.nearest(to: name, in: knownNames) {
                    throw URLParameterError(parameter: name, reason: "is unknown; did you mean '\(suggestion)'? (known: \(known))")
                }
                throw URLParameterError(parameter: name, reason: "is unknown (known: \(known))")
            }
            items.append((name, value))
        }
        self.items = items
    }

    /// All values of a repeatable parameter, in URL order.
    public func all(_ name: String) -> [String] {
        items.compactMap { $0.name == name ? ($0.value ?? "") : nil }
    }

    /// The one value of `name`, or nil when absent. Given twice is an error.
    public func string(_ name: String) throws -> String? {
        let values = all(name)
        guard values.count <= 1 else {
            throw URLParameterError(parameter: name, reason: "is given \(values.count) times; it takes one value")
        }
        return values.first
    }

    /// The value of a parameter that must be present.
    public func required(_ name: String) throws -> String {
        guard let value = try string(name) else {
            throw URLParameterError(parameter: name, reason: "is required")
        }
        return value
    }

    /// A finite number within `range`, or nil when absent.
    public func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = try string(name) else { return nil }
        return try Self.number(text, name: name, in: range)
    }

    /// A required finite number within `range`.
    public func requiredDouble(_ name: String, in range: ClosedRange<Double>) throws -> Double {
        try Self.number(required(name), name: name, in: range)
    }

    /// A whole number within `range`, or nil when absent.
    public func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = try string(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw URLParameterError(
                parameter: name,
                reason: "must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// `true`/`1` or `false`/`0` (any case), or nil when absent.
    public func bool(_ name: String) throws -> Bool? {
        guard let text = try string(name) else { return nil }
        switch text.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw URLParameterError(parameter: name, reason: "must be true, false, 1 or 0, got '\(text)'")
        }
    }

    /// One of a fixed set of words (an enum's raw values), or nil when absent.
    public func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, as type: Choice.Type = Choice.self) throws -> Choice?
    where Choice.RawValue == String {
        guard let text = try string(name) else { return nil }
        guard let value = Choice(rawValue: text.lowercased()) else {
            let allowed = Choice.allCases.map { $0.rawValue }.joined(separator: ", ")
            throw URLParameterError(parameter: name, reason: "must be one of \(allowed), got '\(text)'")
        }
        return value
    }

    /// Parses a finite number in `range` from `text`, for list-valued parameters too.
    static func number(_ text: String, name: String, in range: ClosedRange<Double>) throws -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw URLParameterError(
                parameter: name,
                reason: "must be a number from \(format(range.lowerBound)) to \(format(range.upperBound)), got '\(text)'")
        }
        return value
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
