import Foundation

/// What a recorder keeps off the disk.
///
/// By default the values of `Authorization`, `Cookie`, `Set-Cookie` and
/// `Proxy-Authorization` and a URL's password are written as `REDACTED`.
/// Named headers, query parameters and JSON fields can be replaced by a
/// placeholder that is put back on replay (so the request still matches and
/// the answer reads as recorded), and any value given as a secret makes
/// saving fail while the recording still holds it.
///
/// ```swift
/// options.redaction.replace(queryParameter: "api_key", with: "API_KEY", value: apiKey)
/// options.redaction.replace(jsonField: "token", with: "TOKEN")
/// options.redaction.secret("password", value: password)
/// ```
public struct Redaction: Sendable {
    /// Header fields whose values are written as `REDACTED` (lower-case names).
    public var redactedHeaders: Set<String> = ["authorization", "cookie", "set-cookie", "proxy-authorization"]
    /// Whether a URL's password is written as `REDACTED`.
    public var redactsURLPasswords = true
    /// The placeholders written in place of values.
    public private(set) var placeholders: [Placeholder] = []
    /// Values that must never be written, by name.
    public private(set) var secrets: [(name: String, value: String)] = []
    /// Tokens refused (not letters, digits, `_`, `-`, `.`): a recorder made with them throws.
    private(set) var refusedTokens: [String] = []

    /// The default redaction.
    public init() {}

    /// Where a placeholder goes.
    public enum Place: Sendable, Equatable {
        /// A header field (any case).
        case header(String)
        /// A query parameter of the URL.
        case queryParameter(String)
        /// Every JSON object member of this name, at any depth, in request and response bodies.
        case jsonField(String)

        /// Whether this is header `name` (lower-case).
        func isHeader(named name: String) -> Bool {
            if case let .header(header) = self { return header.lowercased() == name }
            return false
        }
    }

    /// A value written as `token`, and put back as `value` on replay (when given).
    public struct Placeholder: Sendable {
        /// Where it goes.
        public var place: Place
        /// What is written: letters, digits, `_`, `-` and `.` only, so it reads the same in a URL, a header and JSON.
        public var token: String
        /// What replay puts back (nil: the token stays).
        public var value: String?
    }

    /// Writes header `name`'s value as `token`; `value`, when given, is put back on replay and is a secret.
    public mutating func replace(header name: String, with token: String, value: String? = nil) {
        add(Placeholder(place: .header(name), token: token, value: value))
    }

    /// Writes query parameter `name`'s value as `token`; `value`, when given, is put back on replay and is a secret.
    public mutating func replace(queryParameter name: String, with token: String, value: String? = nil) {
        add(Placeholder(place: .queryParameter(name), token: token, value: value))
    }

    /// Writes JSON field `name`'s value as `token`; `value`, when given, is put back on replay and is a secret.
    public mutating func replace(jsonField name: String, with token: String, value: String? = nil) {
        add(Placeholder(place: .jsonField(name), token: token, value: value))
    }

    /// Declares `value` secret: a recording still holding it is not written
    /// (``HTTPRecorderError/secretInRecording(name:field:)``).
    public mutating func secret(_ name: String, value: String) {
        guard !value.isEmpty else { return }
        secrets.append((name, value))
    }

    private mutating func add(_ placeholder: Placeholder) {
        let safe = !placeholder.token.isEmpty && placeholder.token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) }
        guard safe else { return refusedTokens.append(placeholder.token) }
        placeholders.append(placeholder)
        if let value = placeholder.value { secret(placeholder.token, value: value) }
    }

    /// `entry` as it may be written: redacted headers, password and placeholders in place.
    func redact(_ entry: HAREntry) -> HAREntry {
        var entry = entry
        entry.request.url = redact(url: entry.request.url)
        entry.request.queryString = URLComponents(string: entry.request.url)?.queryItems?.map { HARNameValue(name: $0.name, value: $0.value ?? "") } ?? []
        entry.request.headers = redact(headers: entry.request.headers)
        entry.response.headers = redact(headers: entry.response.headers)
        entry.response.redirectURL = entry.response.redirectURL.isEmpty ? "" : redact(url: entry.response.redirectURL)
        let fields = placeholders.compactMap { placeholder -> (String, String)? in
            if case let .jsonField(name) = placeholder.place { return (name, placeholder.token) }
            return nil
        }
        if !fields.isEmpty {
            if let post = entry.request.postData, let data = post.data, let redacted = Self.redact(json: data, fields: fields) {
                entry.request.postData = HARPostData(body: redacted, mimeType: post.mimeType)
            }
            if let data = entry.response.content.data, let redacted = Self.redact(json: data, fields: fields) {
                entry.response.content = HARContent(body: redacted, mimeType: entry.response.content.mimeType)
            }
        }
        return entry
    }

    /// `entry` as replay uses it: each placeholder's value put back where its token is.
    func restore(_ entry: HAREntry) -> HAREntry {
        let known = placeholders.filter { $0.value != nil }
        guard !known.isEmpty else { return entry }
        var entry = entry
        func put(_ text: String, inURL: Bool = false) -> String {
            known.reduce(text) { text, placeholder in
                let value = placeholder.value ?? ""
                return text.replacingOccurrences(of: placeholder.token,
                                                 with: inURL ? value.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+"))) ?? value : value)
            }
        }
        entry.request.url = put(entry.request.url, inURL: true)
        entry.request.headers = entry.request.headers.map { HARNameValue(name: $0.name, value: put($0.value)) }
        entry.response.headers = entry.response.headers.map { HARNameValue(name: $0.name, value: put($0.value)) }
        if let post = entry.request.postData, post.encoding == nil { entry.request.postData?.text = put(post.text) }
        if let text = entry.response.content.text, entry.response.content.encoding == nil {
            entry.response.content = HARContent(body: Data(put(text).utf8), mimeType: entry.response.content.mimeType)
        }
        return entry
    }

    /// Throws when `entries`, as they would be written, still hold a secret's value
    /// (as is or percent-encoded); `entries[0]` is named `log.entries[firstIndex]`.
    func check(_ entries: [HAREntry], firstIndex: Int = 0) throws {
        guard !secrets.isEmpty else { return }
        let writer = HARWriter()
        for (index, entry) in entries.enumerated() {
            let text = String(decoding: try writer.data(HARFile(log: HARLog(entries: [entry]))), as: UTF8.self)
            for secret in secrets {
                let forms = [secret.value, secret.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret.value]
                if forms.contains(where: { text.contains($0) }) {
                    throw HTTPRecorderError.secretInRecording(name: secret.name, field: "log.entries[\(firstIndex + index)]")
                }
            }
        }
    }

    private func redact(headers: [HARNameValue]) -> [HARNameValue] {
        headers.map { field in
            let name = field.name.lowercased()
            if let placeholder = placeholders.first(where: { $0.place.isHeader(named: name) }) {
                return HARNameValue(name: field.name, value: placeholder.token)
            }
            return redactedHeaders.contains(name) ? HARNameValue(name: field.name, value: "REDACTED") : field
        }
    }

    private func redact(url text: String) -> String {
        guard var components = URLComponents(string: text) else { return text }
        var changed = false
        if redactsURLPasswords, components.password != nil {
            components.password = "REDACTED"
            changed = true
        }
        if let items = components.queryItems {
            let replaced = items.map { item -> URLQueryItem in
                guard let placeholder = placeholders.first(where: { $0.place == .queryParameter(item.name) }) else { return item }
                changed = true
                return URLQueryItem(name: item.name, value: placeholder.token)
            }
            if changed { components.queryItems = replaced }
        }
        return changed ? components.string ?? text : text
    }

    /// `data` with each JSON member named in `fields` set to its token; nil when `data` is not JSON or nothing changed.
    private static func redact(json data: Data, fields: [(String, String)]) -> Data? {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) else { return nil }
        var changed = false
        func walk(_ value: Any) -> Any {
            if let dictionary = value as? [String: Any] {
                var copy: [String: Any] = [:]
                for (key, member) in dictionary {
                    if let token = fields.first(where: { $0.0 == key })?.1 {
                        copy[key] = token
                        changed = true
                    } else {
                        copy[key] = walk(member)
                    }
                }
                return copy
            }
            if let array = value as? [Any] { return array.map(walk) }
            return value
        }
        let redacted = walk(object)
        guard changed else { return nil }
        return try? JSONSerialization.data(withJSONObject: redacted, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
    }
}
