import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request as a recorder sees it: what stubs and recordings are matched
/// against, and what ``HTTPRecorder/requests`` lists for assertions.
public struct RecordedRequest: Sendable, Equatable, CustomStringConvertible {
    /// The method, upper-case.
    public var method: String
    /// The URL.
    public var url: URL
    /// The header fields, in the order given.
    public var headers: [HARNameValue]
    /// The body: `httpBody`, or what `httpBodyStream` held (empty: none).
    public var body: Data

    /// A request of these parts.
    public init(method: String, url: URL, headers: [HARNameValue] = [], body: Data = Data()) {
        self.method = method.uppercased()
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The value of header `name` (any case), nil when absent.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// `GET https://host/path?query`.
    public var description: String { "\(method) \(url.absoluteString)" }

    /// `request` with its body, read from `httpBody` or, as a session hands it
    /// to a protocol, from `httpBodyStream` (up to `limit` bytes; a longer body throws).
    init(_ request: URLRequest, bodyLimit: Int) throws {
        var body = request.httpBody ?? Data()
        if request.httpBody == nil, let stream = request.httpBodyStream {
            body = try Self.read(stream, limit: bodyLimit, url: request.url)
        }
        guard body.count <= bodyLimit else { throw Self.tooLarge(request.url, limit: bodyLimit) }
        let headers = (request.allHTTPHeaderFields ?? [:]).map { HARNameValue(name: $0.key, value: $0.value) }
        self.init(method: request.httpMethod ?? "GET", url: request.url ?? URL(fileURLWithPath: "/"),
                  headers: HARWriter.sorted(headers), body: body)
    }

    /// The recorded request of `entry`.
    init?(_ entry: HAREntry) {
        guard let url = URL(string: entry.request.url) else { return nil }
        self.init(method: entry.request.method, url: url, headers: entry.request.headers, body: entry.request.postData?.data ?? Data())
    }

    /// This request for `URLSession`: method, headers and body.
    var urlRequest: URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for field in headers { request.addValue(field.value, forHTTPHeaderField: field.name) }
        if !body.isEmpty { request.httpBody = body }
        return request
    }

    private static func read(_ stream: InputStream, limit: Int, url: URL?) throws -> Data {
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count < 0 { throw URLError(.cannotDecodeRawData, userInfo: [NSLocalizedDescriptionKey: "the request's body stream failed"]) }
            if count == 0 { break }
            data.append(buffer, count: count)
            guard data.count <= limit else { throw tooLarge(url, limit: limit) }
        }
        return data
    }

    private static func tooLarge(_ url: URL?, limit: Int) -> URLError {
        URLError(.dataLengthExceedsMaximum, userInfo: [
            NSLocalizedDescriptionKey: "the request body is larger than \(limit) bytes (HTTPRecorder.Options.maximumRequestBodyBytes)",
        ])
    }
}
