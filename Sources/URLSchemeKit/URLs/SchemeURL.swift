import Foundation

/// A typed value that is written as a URL of one scheme and read back from it:
/// `MapURL`, `AssetURL`, `AvatarURL`. Parsing a built URL gives the same value.
///
/// Conformers list their parameter names, read themselves from a `QueryReader`
/// and write themselves to a `QueryWriter`; `init(url:)` and `url` come free.
public protocol SchemeURL: Equatable, Sendable {
    /// The URL scheme, lower-case (`map`).
    static var scheme: String { get }
    /// Every query item name the scheme accepts; anything else is an error.
    static var parameterNames: [String] { get }
    /// Reads the value from the query. Throws `URLParameterError` naming the bad parameter.
    init(query: QueryReader) throws
    /// Writes the value as query items.
    func write(to query: inout QueryWriter)
    /// What to write instead of an unknown parameter `name` (with its
    /// `value`) that users of other APIs write by habit, e.g. `latitude` for
    /// `lat`; nil leaves the suggestion to the nearest known name.
    static func suggestion(forUnknown name: String, value: String?) -> String?
}

extension SchemeURL {
    /// No habits to answer: only the nearest known name is suggested.
    public static func suggestion(forUnknown name: String, value: String?) -> String? { nil }

    /// Parses `url`. Throws `URLParameterError` for a wrong scheme, an unknown,
    /// repeated, missing or out-of-range parameter.
    public init(url: URL) throws {
        guard url.scheme?.lowercased() == Self.scheme else {
            throw URLParameterError(parameter: "scheme", reason: "must be '\(Self.scheme)', got '\(url.scheme ?? "")'")
        }
        try self.init(query: QueryReader(url: url, knownNames: Self.parameterNames, habits: Self.suggestion(forUnknown:value:)))
    }

    /// Checks a value built in code by the one set of rules, the parser's:
    /// throws the `URLParameterError` that `init(url:)` gives for `url` (it
    /// names the parameter and its allowed range), or one naming the URL when
    /// it reads back as another value. Every builder (`MapURL`, `AssetURL`,
    /// `AvatarURL`, `PollURL`) calls it last, so a value that exists round-trips.
    func checkReadsBack() throws {
        let url = url
        guard try Self(url: url) == self else {
            throw URLParameterError(parameter: "url", reason: "'\(url.absoluteString)' reads back as another value than the one built")
        }
    }

    /// The URL that `init(url:)` reads back as this value.
    public var url: URL {
        var writer = QueryWriter(scheme: Self.scheme)
        write(to: &writer)
        return writer.url
    }
}
