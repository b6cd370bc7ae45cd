import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The identity of a cached resource: scheme, host, port, path and the query
/// items in canonical order.
///
/// URLCache's own key on Linux is host + port + path only (the query and the
/// scheme are ignored, and a URL without a host is never cached), which makes
/// every `map://?…` URL either uncacheable or the same entry. Here items are
/// sorted by name with a stable sort, so repeated names keep their relative
/// order (`marker=A&marker=B` differs from `marker=B&marker=A`), and the
/// fragment is ignored.
public struct CacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The canonical text, e.g. `map://?latitude=59.9&longitude=30.3`.
    public let rawValue: String

    /// The key of `url`; nil when the URL has no scheme or cannot be parsed.
    public init?(url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let scheme = components.scheme?.lowercased() else { return nil }
        var text = scheme + "://" + (components.percentEncodedHost?.lowercased() ?? "")
        if let port = components.port { text += ":\(port)" }
        text += components.percentEncodedPath
        var items: [QueryItem] = []
        for (offset, item) in (components.percentEncodedQueryItems ?? []).enumerated() where !item.name.isEmpty {
            items.append(QueryItem(offset: offset, name: Self.normalised(item.name), value: item.value.map(Self.normalised)))
        }
        items.sort { $0.name != $1.name ? $0.name < $1.name : $0.offset < $1.offset }
        if !items.isEmpty {
            text += "?" + items.map(\.text).joined(separator: "&")
        }
        rawValue = text
    }

    /// The key of the request's URL.
    public init?(request: URLRequest) {
        guard let url = request.url else { return nil }
        self.init(url: url)
    }

    /// The canonical text (`rawValue`).
    public var description: String { rawValue }

    /// One query item with its position in the URL, for the stable sort.
    private struct QueryItem {
        var offset: Int
        var name: String
        var value: String?
        var text: String { value.map { "\(name)=\($0)" } ?? name }
    }

    /// Decodes and re-encodes one item part so `%41` and `A` are the same key.
    private static func normalised(_ part: String) -> String {
        guard let decoded = part.removingPercentEncoding else { return part }
        return decoded.addingPercentEncoding(withAllowedCharacters: allowed) ?? part
    }

    private static let allowed: CharacterSet = {
        var set = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        set.insert(charactersIn: "-._~,:")
        return set
    }()
}
