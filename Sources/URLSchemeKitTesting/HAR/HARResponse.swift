import Foundation

/// A recorded response (or, with `_error`, a recorded failure).
public struct HARResponse: Codable, Sendable, Equatable {
    /// The status code (0 with `_error`).
    public var status: Int
    /// The reason phrase.
    public var statusText: String
    /// The protocol version.
    public var httpVersion: String
    /// The header fields, sorted by name when we write.
    public var headers: [HARNameValue]
    /// HAR's cookie list (empty when we write: `Set-Cookie` is redacted).
    public var cookies: [HARNameValue]
    /// The body, decoded (no `Content-Encoding` left).
    public var content: HARContent
    /// The `Location` of a redirect, "" otherwise.
    public var redirectURL: String
    /// HAR's header size (-1: not known).
    public var headersSize: Int
    /// The body's size on the wire (-1: not known).
    public var bodySize: Int
    /// Ours: the `URLError` code (its raw value) the request failed with instead of an answer.
    public var error: Int?

    /// A response of `status` with `headers` and `content`.
    public init(status: Int, headers: [HARNameValue], content: HARContent) {
        self.status = status
        statusText = Self.reasons[status] ?? ""
        httpVersion = "HTTP/1.1"
        self.headers = headers
        cookies = []
        self.content = content
        redirectURL = headers.first { $0.name.lowercased() == "location" }?.value ?? ""
        headersSize = -1
        bodySize = content.size
        error = nil
    }

    /// The reason phrases of the common statuses (written as `statusText`; HAR requires one).
    static let reasons: [Int: String] = [
        200: "OK", 201: "Created", 204: "No Content", 206: "Partial Content", 301: "Moved Permanently", 302: "Found",
        303: "See Other", 304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request",
        401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 409: "Conflict", 429: "Too Many Requests",
        500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    private enum CodingKeys: String, CodingKey {
        case status, statusText, httpVersion, headers, cookies, content, redirectURL, headersSize, bodySize
        case error = "_error"
    }

    /// Reads a response; only `status` is required.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decode(Int.self, forKey: .status)
        statusText = try container.decodeIfPresent(String.self, forKey: .statusText) ?? ""
        httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion) ?? "HTTP/1.1"
        headers = try container.decodeIfPresent([HARNameValue].self, forKey: .headers) ?? []
        cookies = []
        content = try container.decodeIfPresent(HARContent.self, forKey: .content) ?? HARContent(body: Data(), mimeType: "")
        redirectURL = try container.decodeIfPresent(String.self, forKey: .redirectURL) ?? ""
        headersSize = try container.decodeIfPresent(Int.self, forKey: .headersSize) ?? -1
        bodySize = try container.decodeIfPresent(Int.self, forKey: .bodySize) ?? -1
        error = try container.decodeIfPresent(Int.self, forKey: .error)
    }
}
