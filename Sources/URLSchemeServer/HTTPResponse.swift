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

    /// The answer to a request head the parser refused (`Allow` added to a 405).
    static func refusal(_ error: HTTPRequestError) -> HTTPResponse {
        .error(error.status, error.message, extraHeaders: error.status == 405 ? [("Allow", "GET, HEAD")] : [])
    }

    /// The 408 of a head that did not arrive within `seconds`.
    static func headerTimeout(_ seconds: TimeInterval) -> HTTPResponse {
        let text = seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
        return .error(408, "the request head did not arrive within \(text) (the header timeout)")
    }

    /// The value of the first field named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { HTTPFieldName.matches($0.name, name) }?.value
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

    /// Whether the status carries a body (all but `304` and `204`).
    var hasBody: Bool { status != 304 && status != 204 }

    /// The head on the wire: status line, fields, `Content-Length` (none
    /// for a 304 or 204), `Date`, `Connection: close` when `closing`, and
    /// the empty line. A `HEAD` answer (`headOnly`) keeps the length of the
    /// body it leaves out; the body is written after the head unless `headOnly`.
    func serializedHead(headOnly: Bool, closing: Bool, date: String) -> [UInt8] {
        var head: [UInt8] = []
        head.reserveCapacity(128 + headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 })
        func line(_ parts: String...) {
            for part in parts { head.append(contentsOf: part.utf8) }
            head.append(contentsOf: [0x0D, 0x0A])
        }
        line("HTTP/1.1 ", String(status), " ", Self.reason(status))
        for (name, value) in headers { line(name, ": ", value) }
        if hasBody { line("Content-Length: ", String(body.count)) }
        line("Date: ", date)
        if closing { line("Connection: close") }
        line()
        return head
    }
}
