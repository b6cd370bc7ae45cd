import Foundation

/// The body and media type a renderer produced.
public struct RenderedImage: Sendable, Equatable {
    /// The encoded body (PNG, JPEG, …).
    public var data: Data
    /// The `Content-Type` of `data`, such as `image/png`.
    public var mimeType: String
    /// What the image lacks and why, in words (a map view outside its tiles'
    /// data): sent in the response's `Warning` header (``warningHeader``),
    /// which `urlscheme get` prints.
    public var warnings: [String]

    /// A body, its media type and any warnings.
    public init(data: Data, mimeType: String, warnings: [String] = []) {
        self.data = data
        self.mimeType = mimeType
        self.warnings = warnings
    }

    /// `warnings` as one HTTP `Warning` header value (RFC 7234's
    /// `199 - "text"`, "miscellaneous warning", one per warning, comma
    /// separated), nil when there are none. Quotes and backslashes in a
    /// warning are escaped, other control characters dropped.
    public var warningHeader: String? {
        guard !warnings.isEmpty else { return nil }
        return warnings.map { warning in
            let text = warning.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
                .map { $0 == "\"" || $0 == "\\" ? "\\\($0)" : String($0) }.joined()
            return "199 - \"\(text)\""
        }.joined(separator: ", ")
    }

    /// The warnings of a `Warning` header value as ``warningHeader`` writes
    /// it (`199 - "text", 199 - "text"`): each quoted text, unescaped.
    public static func warnings(inHeader value: String) -> [String] {
        var warnings: [String] = [], current = "", inQuote = false, escaped = false
        for character in value {
            if escaped {
                current.append(character)
                escaped = false
            } else if inQuote && character == "\\" {
                escaped = true
            } else if character == "\"" {
                if inQuote { warnings.append(current); current = "" }
                inQuote.toggle()
            } else if inQuote {
                current.append(character)
            }
        }
        return warnings
    }
}
