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
package struct CacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The canonical text, e.g. `map://?latitude=59.9&longitude=30.3`.
    package let rawValue: String

    /// The key of `url`; nil when the URL has no scheme or cannot be parsed.
    package init?(url: URL) {
        // Every cache lookup makes a key, and URLComponents takes about 19 µs
        // here: read the common case straight from the URL's characters.
        if let text = Self.directKey(url.absoluteString) {
            self.init(rawValue: text)
        } else {
            self.init(components: url)
        }
    }

    init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The key of an `http(s)` resource: the whole URI, query order included (an
    /// origin may give `?a=1&b=2` and `?b=2&a=1` different answers), with what
    /// RFC 3986 §6 lets a cache normalise: the scheme and host lower-cased, the
    /// default port dropped, an empty path written `/`, the fragment removed.
    /// Nil when the URL has no scheme or host.
    init?(resource url: URL) {
        if let text = Self.directResourceKey(url.absoluteString) {
            self.init(rawValue: text)
            return
        }
        self.init(resourceComponents: url)
    }

    /// The resource key through `URL`'s parts (any URL); the direct reading agrees with it.
    init?(resourceComponents url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        var text = scheme + "://" + (host.contains(":") ? "[\(host)]" : host)
        if let port = url.port, !(scheme == "http" && port == 80) && !(scheme == "https" && port == 443) {
            text += ":\(port)"
        }
        let path = url.path(percentEncoded: true)
        text += path.isEmpty ? "/" : path
        if let query = url.query(percentEncoded: true) { text += "?" + query }
        self.init(rawValue: text)
    }

    /// The resource key read straight from the common form of an `http(s)`
    /// URL string (`scheme://host[:port]/path?query#fragment`, an ASCII host
    /// with no user info, brackets or escapes); nil sends the URL the general
    /// way. Every cache lookup of the HTTP cache makes a key, and asking `URL`
    /// for its parts parses it four times.
    static func directResourceKey(_ string: String) -> String? {
        var utf8 = string.utf8[...]
        let scheme: String
        if utf8.starts(with: "http://".utf8) || utf8.starts(with: "HTTP://".utf8) {
            scheme = "http"
            utf8 = utf8.dropFirst(7)
        } else if utf8.starts(with: "https://".utf8) || utf8.starts(with: "HTTPS://".utf8) {
            scheme = "https"
            utf8 = utf8.dropFirst(8)
        } else {
            return nil
        }
        let authorityEnd = utf8.firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? utf8.endIndex
        let authority = utf8[..<authorityEnd]
        guard !authority.isEmpty,
              !authority.contains(where: { $0 == 0x40 || $0 == 0x5B || $0 == 0x25 || $0 >= 0x80 || $0 <= 0x20 }) else { return nil }
        var text = scheme + "://"
        if let portColon = authority.firstIndex(of: UInt8(ascii: ":")) {
            let digits = authority[authority.index(after: portColon)...]
            guard portColon != authority.startIndex, !digits.isEmpty, digits.count <= 5, digits.allSatisfy(\.isASCIIDigit),
                  let port = Int(String(Substring(digits))), port <= 65_535 else { return nil }
            text += String(Substring(authority[..<portColon])).lowercased()
            if !(scheme == "http" && port == 80) && !(scheme == "https" && port == 443) { text += ":\(port)" }
        } else {
            text += String(Substring(authority)).lowercased()
        }
        utf8 = utf8[authorityEnd...]
        let pathEnd = utf8.firstIndex { $0 == 0x3F || $0 == 0x23 } ?? utf8.endIndex
        let path = utf8[..<pathEnd]
        text += path.isEmpty ? "/" : String(Substring(path))
        utf8 = utf8[pathEnd...]
        if utf8.first == 0x3F {
            text += String(Substring(utf8.prefix { $0 != 0x23 }))
        }
        return text
    }

    /// A key derived from this one for a variant of the same resource: never
    /// equal to a URL's key, since those never contain `#`.
    func variant(_ suffix: String) -> CacheKey {
        CacheKey(rawValue: rawValue + "#" + suffix)
    }

    /// The key of `url` through URLComponents (any URL).
    init?(components url: URL) {
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
        self.init(rawValue: text)
    }

    /// The key text read directly from an absolute URL string, when nothing in
    /// it needs URLComponents: `scheme://host[:port]/path?query#fragment` with
    /// no user info, an ASCII host without escapes, and query names and values
    /// made only of `allowed` characters (so normalising them changes nothing).
    /// Nil sends the URL the general way; both give the same key.
    static func directKey(_ string: String) -> String? {
        var utf8 = string.utf8[...]
        // Scheme: a letter, then letters, digits, "+", "-", "." up to ":".
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")), colon != utf8.startIndex,
              utf8[utf8.startIndex].isASCIILetter,
              utf8[..<colon].allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else { return nil }
        let scheme = String(Substring(utf8[..<colon])).lowercased()
        utf8 = utf8[utf8.index(after: colon)...]
        guard utf8.starts(with: "//".utf8) else { return nil }
        utf8 = utf8.dropFirst(2)
        // Authority: host[:port], up to the path, query or fragment.
        let authorityEnd = utf8.firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? utf8.endIndex
        let authority = utf8[..<authorityEnd]
        guard !authority.contains(where: { $0 == 0x40 || $0 == 0x5B || $0 == 0x25 || $0 >= 0x80 }) else { return nil }
        // An IDNA host (URL's absoluteString may hold the punycode of a host
        // URLComponents reports percent-encoded) or a very long one (URLComponents
        // drops hosts over 2,048 characters; DNS names have at most 253) goes the
        // general way, which agrees with itself.
        guard authority.count <= 255, !String(Substring(authority)).lowercased().contains("xn--") else { return nil }
        var text = scheme + "://"
        if let portColon = authority.firstIndex(of: UInt8(ascii: ":")) {
            let digits = authority[authority.index(after: portColon)...]
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCIIDigit),
                  let port = Int(String(Substring(digits))) else { return nil }
            text += String(Substring(authority[..<portColon])).lowercased() + ":\(port)"
        } else {
            text += String(Substring(authority)).lowercased()
        }
        utf8 = utf8[authorityEnd...]
        let pathEnd = utf8.firstIndex { $0 == 0x3F || $0 == 0x23 } ?? utf8.endIndex
        text += String(Substring(utf8[..<pathEnd]))
        utf8 = utf8[pathEnd...]
        guard utf8.first == 0x3F else { return text }
        let query = utf8.dropFirst().prefix { $0 != 0x23 }
        var items: [(name: Substring, item: Substring)] = []
        for part in query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            guard part.allSatisfy({ $0.isKeyCharacter || $0 == 0x3D }) else { return nil }
            let name = part.prefix { $0 != 0x3D }
            guard !name.isEmpty else { continue }
            // A "=" inside the value is not an allowed character: normalising would escape it.
            if let equals = part.firstIndex(of: 0x3D), part[part.index(after: equals)...].contains(0x3D) { return nil }
            items.append((Substring(name), Substring(part)))
        }
        // Stable: repeated names keep their order.
        let sorted = items.enumerated().sorted { $0.element.name != $1.element.name ? $0.element.name < $1.element.name : $0.offset < $1.offset }
        if !sorted.isEmpty { text += "?" + sorted.map { String($0.element.item) }.joined(separator: "&") }
        return text
    }

    /// The key of the request's URL.
    init?(request: URLRequest) {
        guard let url = request.url else { return nil }
        self.init(url: url)
    }

    /// The canonical text (`rawValue`).
    package var description: String { rawValue }

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

private extension UInt8 {
    var isASCIILetter: Bool { (self | 0x20) >= 0x61 && (self | 0x20) <= 0x7A }
    var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
    /// In `CacheKey`'s allowed set: ASCII letters and digits and "-._~,:".
    var isKeyCharacter: Bool {
        isASCIILetter || isASCIIDigit || self == 0x2D || self == 0x2E || self == 0x5F || self == 0x7E || self == 0x2C || self == 0x3A
    }
}
