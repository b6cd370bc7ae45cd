import Foundation

/// One rule a recorded request must meet to answer a live one. A recorder
/// uses a list of them (all must accept); the default is ``defaults``:
/// method and URL, the query in any order. An unmatched request's error names,
/// for each of the nearest recordings, the matchers that refused it.
///
/// ```swift
/// options.matchers = RequestMatcher.defaults + [.body, .headers("Accept"),
///     RequestMatcher("tenant") { recorded, live in recorded.header("X-Tenant") == live.header("X-Tenant") }]
/// ```
public struct RequestMatcher: Sendable {
    /// The name failure messages use.
    public let name: String
    private let accepts: @Sendable (_ recorded: RecordedRequest, _ live: RecordedRequest) -> Bool
    /// One of ours (``method``, ``url``), which the recorder may apply by index instead of calling.
    let isBuiltIn: Bool

    /// A matcher named `name` that accepts when `accepts(recorded, live)` is true.
    public init(_ name: String, _ accepts: @escaping @Sendable (_ recorded: RecordedRequest, _ live: RecordedRequest) -> Bool) {
        self.init(name, builtIn: false, accepts)
    }

    private init(_ name: String, builtIn: Bool, _ accepts: @escaping @Sendable (RecordedRequest, RecordedRequest) -> Bool) {
        self.name = name
        self.isBuiltIn = builtIn
        self.accepts = accepts
    }

    /// Whether `recorded` may answer `live`.
    public func matches(_ recorded: RecordedRequest, _ live: RecordedRequest) -> Bool { accepts(recorded, live) }

    /// Method and URL (query in any order): what a recorder uses unless told otherwise.
    public static let defaults: [RequestMatcher] = [.method, .url]

    /// The same method.
    public static let method = RequestMatcher("method", builtIn: true) { $0.method == $1.method }

    /// The same scheme, host, port, path and query, the query's parameters in
    /// any order (a user name and password, and a fragment, are not compared).
    public static let url = RequestMatcher("url", builtIn: true) { Self.urlKey($0.url) == Self.urlKey($1.url) }

    /// The same scheme, host, port and path; any query.
    public static let path = RequestMatcher("path") { Self.urlKey($0.url).dropLast() == Self.urlKey($1.url).dropLast() }

    /// The same query parameters, in any order.
    public static let query = RequestMatcher("query") { Self.urlKey($0.url).last == Self.urlKey($1.url).last }

    /// The same body: JSON compared as JSON (key order and spacing aside),
    /// form fields as sorted fields, multipart by its parts (not its boundary),
    /// anything else byte for byte.
    public static let body = RequestMatcher("body") { BodyShape($0) == BodyShape($1) }

    /// The same values of header fields `names` (absent in both counts as the same).
    public static func headers(_ names: String...) -> RequestMatcher {
        RequestMatcher("headers(\(names.joined(separator: ", ")))") { recorded, live in
            names.allSatisfy { recorded.header($0) == live.header($0) }
        }
    }

    /// What ``url`` compares: scheme, host, port, path, then the sorted query.
    static func urlKey(_ url: URL) -> [String] {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return [url.absoluteString, ""] }
        let scheme = components.scheme?.lowercased() ?? ""
        let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        let port = components.port.flatMap { $0 == defaultPort ? nil : String($0) } ?? ""
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let query = (components.queryItems ?? []).map { "\($0.name)=\($0.value ?? "")" }.sorted().joined(separator: "&")
        return [scheme, components.host?.lowercased() ?? "", port, path, query]
    }
}
