import Foundation

/// A recorded request.
public struct HARRequest: Codable, Sendable, Equatable {
    /// The method, upper-case.
    public var method: String
    /// The absolute URL, query included.
    public var url: String
    /// The protocol version (`HTTP/1.1`).
    public var httpVersion: String
    /// The header fields, sorted by name when we write.
    public var headers: [HARNameValue]
    /// The query, as pairs (HAR keeps it beside the URL).
    public var queryString: [HARNameValue]
    /// HAR's cookie list (we write it empty: cookies are in the redacted `Cookie` header).
    public var cookies: [HARNameValue]
    /// The body, if any.
    public var postData: HARPostData?
    /// HAR's header size (-1: not known).
    public var headersSize: Int
    /// The body's size in bytes.
    public var bodySize: Int

    /// A request of `method` to `url` with `headers` and `body`.
    public init(method: String, url: String, headers: [HARNameValue], body: HARPostData?) {
        self.method = method
        self.url = url
        httpVersion = "HTTP/1.1"
        self.headers = headers
        queryString = URLComponents(string: url)?.queryItems?.map { HARNameValue(name: $0.name, value: $0.value ?? "") } ?? []
        cookies = []
        postData = body
        headersSize = -1
        bodySize = body?.byteCount ?? 0
    }

    private enum CodingKeys: String, CodingKey {
        case method, url, httpVersion, headers, queryString, cookies, postData, headersSize, bodySize
    }

    /// Reads a request; only `method` and `url` are required (hand-written files may leave out the rest).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decode(String.self, forKey: .method)
        url = try container.decode(String.self, forKey: .url)
        httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion) ?? "HTTP/1.1"
        headers = try container.decodeIfPresent([HARNameValue].self, forKey: .headers) ?? []
        queryString = try container.decodeIfPresent([HARNameValue].self, forKey: .queryString) ?? []
        cookies = []
        postData = try container.decodeIfPresent(HARPostData.self, forKey: .postData)
        headersSize = try container.decodeIfPresent(Int.self, forKey: .headersSize) ?? -1
        bodySize = try container.decodeIfPresent(Int.self, forKey: .bodySize) ?? -1
    }
}

/// A recorded request body: text when it is text, base64 otherwise (`_encoding`, our extra: HAR's
/// `postData` has text only).
public struct HARPostData: Codable, Sendable, Equatable {
    /// The body's media type.
    public var mimeType: String
    /// The body: UTF-8 text, or base64 when `encoding` says so.
    public var text: String
    /// `"base64"` for a body that is not text.
    public var encoding: String?

    private enum CodingKeys: String, CodingKey {
        case mimeType, text
        case encoding = "_encoding"
    }

    /// `body` of `mimeType`, kept as text when it is UTF-8 text.
    public init(body: Data, mimeType: String) {
        self.mimeType = mimeType
        (text, encoding) = HARContent.textOrBase64(body, mimeType: mimeType)
    }

    /// The body's bytes (nil when `_encoding` is base64 and the text is not).
    public var data: Data? { HARContent.bytes(text, encoding: encoding) }
    /// Its size in bytes.
    var byteCount: Int { data?.count ?? 0 }
}
