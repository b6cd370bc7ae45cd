import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Response header fields with case-insensitive names, keeping the spelling
/// each name arrived with (what `HTTPURLResponse` reports back to callers).
struct HTTPHeaderFields: Equatable, Sendable {
    /// Lower-cased name → (name as received, value).
    private var fields: [String: (name: String, value: String)] = [:]

    init() {}

    init(_ dictionary: [String: String]) {
        for (name, value) in dictionary { self[name] = value }
    }

    /// The fields of `response` (several lines of one name arrive joined by ", ").
    init(_ response: HTTPURLResponse) {
        for case let (name as String, value as String) in response.allHeaderFields { self[name] = value }
    }

    subscript(name: String) -> String? {
        get { fields[name.lowercased()]?.value }
        set {
            if let newValue { fields[name.lowercased()] = (name, newValue) } else { fields[name.lowercased()] = nil }
        }
    }

    /// The fields as `HTTPURLResponse(headerFields:)` takes them.
    var dictionary: [String: String] {
        Dictionary(uniqueKeysWithValues: fields.values.map { ($0.name, $0.value) })
    }

    var names: [String] { fields.values.map(\.name) }

    static func == (lhs: HTTPHeaderFields, rhs: HTTPHeaderFields) -> Bool {
        lhs.fields.mapValues(\.value) == rhs.fields.mapValues(\.value)
    }
}
