import Foundation

/// One parsed HTTP/1.1 request head (a `GET` or `HEAD`: the server takes no
/// bodies), as ``HTTPRequestParser`` read it.
public struct HTTPRequest: Sendable, Equatable {
    /// The method, `GET` or `HEAD`.
    public var method: String
    /// The request target in origin form (`/map?latitude=…`): an absolute-form
    /// target has been reduced to its path and query.
    public var target: String
    /// The minor version of `HTTP/1.x`: 1, or 0 for an HTTP/1.0 client.
    public var minorVersion: Int
    /// The header fields in the order received, names as sent.
    public var headers: [(name: String, value: String)]

    /// A request of these parts.
    public init(method: String, target: String, minorVersion: Int = 1, headers: [(name: String, value: String)] = []) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.headers = headers
    }

    /// The target's path, before any `?`.
    public var path: Substring { target.prefix { $0 != "?" } }

    /// The target's query, after the first `?` (nil without one).
    public var query: Substring? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        return target[target.index(after: mark)...]
    }

    /// The value of the first field named `name` (compared case-insensitively).
    public func header(_ name: String) -> String? {
        headers.first { HTTPFieldName.matches($0.name, name) }?.value
    }

    /// Whether the connection stays open after the answer: HTTP/1.1 unless
    /// `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`.
    public var keepsAlive: Bool {
        let tokens = headers.filter { HTTPFieldName.matches($0.name, "Connection") }
            .flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingCharacters(in: [" ", "\t"]).lowercased() }
        if tokens.contains("close") { return false }
        return minorVersion >= 1 || tokens.contains("keep-alive")
    }

    /// Equal parts, headers compared in order.
    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.minorVersion == rhs.minorVersion
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }
}
