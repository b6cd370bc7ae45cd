/// The directives of `Cache-Control` header fields (RFC 9111 §5.2), request or response.
///
/// Names are case-insensitive; a value may be a token or a quoted string. When
/// a directive appears more than once, the first occurrence counts (RFC 9111
/// §4.2.1 allows that or treating the response as stale). A delta-seconds value
/// that is not a non-negative integer counts as 0, so an invalid `max-age` makes
/// a response stale rather than fresh forever; one beyond 2³¹ counts as 2³¹
/// (§1.2.2).
struct CacheControl: Equatable {
    /// Lower-cased directive names and their unquoted values (nil: no value given).
    private(set) var directives: [String: String?] = [:]

    /// Parses every directive in `fields` (a header value may list several, comma-separated).
    init(_ fields: String?) {
        guard let fields else { return }
        var scanner = DirectiveScanner(Array(fields.utf8))
        while let (name, value) = scanner.next() {
            if !name.isEmpty, directives[name] == nil { directives[name] = value }
        }
    }

    /// Whether `name` (lower-case) is present, with or without a value.
    func contains(_ name: String) -> Bool { directives[name] != nil }

    /// The delta-seconds value of `name`: nil when absent, 0 when present but not
    /// a valid non-negative integer, at most 2³¹.
    func seconds(_ name: String) -> Int? {
        guard let entry = directives[name] else { return nil }
        guard let text = entry, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return 0 }
        return text.count > 10 ? 1 << 31 : min(Int(text) ?? 0, 1 << 31)
    }

    var noStore: Bool { contains("no-store") }
    var noCache: Bool { contains("no-cache") }
    var mustRevalidate: Bool { contains("must-revalidate") }
    var immutable: Bool { contains("immutable") }
    var onlyIfCached: Bool { contains("only-if-cached") }
    var isPublic: Bool { contains("public") }
    var maxAge: Int? { seconds("max-age") }
    /// `s-maxage`: a shared cache's own `max-age` (RFC 9111 §5.2.2.10).
    var sharedMaxAge: Int? { seconds("s-maxage") }
    var minFresh: Int? { seconds("min-fresh") }
    var staleWhileRevalidate: Int? { seconds("stale-while-revalidate") }
    var staleIfError: Int? { seconds("stale-if-error") }

    /// `max-stale`: nil when absent, `Int.max` when given without a value (any staleness).
    var maxStale: Int? {
        guard let entry = directives["max-stale"] else { return nil }
        return entry == nil ? Int.max : seconds("max-stale")
    }
}

/// Splits `name[=value], …` into directives, honouring quoted strings (a comma
/// inside quotes does not end a directive) and backslash escapes within them.
private struct DirectiveScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> (String, String?)? {
        skip { $0 == 0x20 || $0 == 0x09 || $0 == 0x2C }
        guard index < bytes.count else { return nil }
        let nameStart = index
        skip { $0 != 0x3D && $0 != 0x2C }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            .trimmingSpaces().lowercased()
        guard index < bytes.count, bytes[index] == 0x3D else { return (name, nil) }
        index += 1
        skip { $0 == 0x20 || $0 == 0x09 }
        var value: [UInt8] = []
        if index < bytes.count, bytes[index] == 0x22 {
            index += 1
            while index < bytes.count, bytes[index] != 0x22 {
                if bytes[index] == 0x5C, index + 1 < bytes.count { index += 1 }
                value.append(bytes[index])
                index += 1
            }
            index += 1
            skip { $0 != 0x2C }
        } else {
            let start = index
            skip { $0 != 0x2C }
            value = Array(bytes[start..<index])
        }
        return (name, String(decoding: value, as: UTF8.self).trimmingSpaces())
    }

    private mutating func skip(while condition: (UInt8) -> Bool) {
        while index < bytes.count, condition(bytes[index]) { index += 1 }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs (HTTP's optional white space).
    func trimmingSpaces() -> String {
        let utf8 = self.utf8
        guard let first = utf8.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
              let last = utf8.lastIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        return String(Substring(utf8[first...last]))
    }
}
