import Foundation

/// An answer to write: a status, header fields and a body. `Content-Length`
/// and `Date` are added when it is written; a `HEAD` answer keeps the
/// length of the body it leaves out.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields, in order (no `Content-Length`: it is written from `body`).
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Data

    /// An answer of these parts.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain-text error answer: `message` and a newline, never stored by a cache
    /// (`Cache-Control: no-store`), so a CDN never keeps a failure.
    public static func error(_ status: Int, _ message: String, extraHeaders: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")] + extraHeaders,
                     body: Data((message + "\n").utf8))
    }

    /// The value of the first field named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The reason phrase written after `status`.
    public static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 414: "URI Too Long"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }

    /// The bytes on the wire: status line, fields, `Content-Length` (none
    /// for a 304), `Date`, `Connection: close` when `closing`, and the body
    /// unless `headOnly` (a `HEAD` request) or the status has none.
    func serialized(headOnly: Bool, closing: Bool, date: String) -> Data {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if status != 304 && status != 204 { head += "Content-Length: \(body.count)\r\n" }
        head += "Date: \(date)\r\n"
        if closing { head += "Connection: close\r\n" }
        head += "\r\n"
        var data = Data(head.utf8)
        if !headOnly && status != 304 && status != 204 { data.append(body) }
        return data
    }
}
