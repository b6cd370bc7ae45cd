import Foundation

/// Builds a scheme URL (`map://?latitude=…&longitude=…`) from named values, for
/// a typed URL's `url`. Values are percent-encoded so that a `QueryReader`
/// reads back exactly what was written; `,` `:` `.` `-` and `_` stay readable.
public struct QueryWriter: Sendable {
    /// The scheme of the URL being built (`map`).
    public let scheme: String
    private var query: [String] = []

    /// An empty query for a URL of `scheme`.
    public init(scheme: String) {
        self.scheme = scheme
    }

    /// Characters left as they are: RFC 3986 unreserved plus `,` and `:`, which
    /// list-valued parameters use and which need no escaping inside a query.
    private static let allowed: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.insert(charactersIn: "-._~,:")
        return set
    }()

    /// Appends `name=value` (repeated names are kept, in order).
    public mutating func add(_ name: String, _ value: String) {
        let encodedName = name.addingPercentEncoding(withAllowedCharacters: Self.allowed) ?? name
        let encodedValue = value.addingPercentEncoding(withAllowedCharacters: Self.allowed) ?? value
        query.append("\(encodedName)=\(encodedValue)")
    }

    /// Appends a number in its shortest exact form (`59.935634`, `3`, `0.5`).
    public mutating func add(_ name: String, _ value: Double) {
        add(name, Self.format(value))
    }

    /// Appends a whole number.
    public mutating func add(_ name: String, _ value: Int) {
        add(name, String(value))
    }

    /// Appends the value only when present.
    public mutating func add(_ name: String, _ value: String?) {
        if let value { add(name, value) }
    }

    /// Appends the number only when present.
    public mutating func add(_ name: String, _ value: Double?) {
        if let value { add(name, value) }
    }

    /// Appends the whole number only when present.
    public mutating func add(_ name: String, _ value: Int?) {
        if let value { add(name, value) }
    }

    /// Formats a number as short as it can be while reading back identically.
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)  // Swift prints the shortest representation that round-trips
    }

    /// The finished URL, `scheme://?items`.
    public var url: URL {
        let text = "\(scheme)://" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        // Every character in `text` is either a scheme character or percent-encoded,
        // so URL(string:) cannot fail; the fallback keeps this total rather than trapping.
        return URL(string: text) ?? URL(fileURLWithPath: "/")
    }
}
