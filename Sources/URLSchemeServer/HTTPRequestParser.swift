/// Reads an HTTP/1.1 request head from the bytes received so far, strictly
/// as RFC 9112 asks of a server that must not be confused about where one
/// request ends and the next begins (request smuggling):
/// - the request line is `METHOD SP TARGET SP HTTP/1.x` with single spaces,
///   at most ``Limits/requestLine`` bytes (else 414);
/// - lines end with CRLF: a bare CR or a bare LF anywhere is refused (400);
/// - a field line starting with a space or tab (obs-fold) is refused (400), as
///   is whitespace before the colon, a name that is not a token, or a control
///   character in a value; bytes 0x80–0xFF in a value (obs-text) are kept,
///   one Latin-1 character per byte;
/// - at most ``Limits/headerCount`` fields and ``Limits/headSize`` bytes in
///   all (else 431);
/// - HTTP/1.1 needs exactly one `Host`;
/// - a body is never read: any `Transfer-Encoding`, or a `Content-Length`
///   other than 0, is refused (400; `Content-Length` with `Transfer-Encoding`
///   named as such), so nothing a front proxy took for a body can be read here
///   as a request;
/// - methods other than `GET` and `HEAD` are 405 (a method HTTP defines) or
///   501 (any other token).
///
/// One empty line before the request line is skipped (RFC 9112 §2.2).
/// The parser keeps no state: it is given the whole buffer each time.
public struct HTTPRequestParser: Sendable {
    /// The bounds of a request head.
    public struct Limits: Sendable, Equatable {
        /// The longest request line, CRLF excluded (nginx's default large buffer is 8 KiB).
        public var requestLine = 8 * 1024
        /// The most header fields.
        public var headerCount = 100
        /// The largest head in all: request line, fields and the empty line.
        public var headSize = 16 * 1024

        /// The defaults: 8 KiB, 100 fields, 16 KiB.
        public init() {}
    }

    /// What ``parse(_:)`` found.
    public enum Outcome: Sendable, Equatable {
        /// The head is not complete yet (and within its limits): read more.
        case incomplete
        /// A request, whose head took the first `consumed` bytes.
        case request(HTTPRequest, consumed: Int)
        /// A refusal: answer it and close the connection.
        case refused(HTTPRequestError)
    }

    /// The limits this parser applies.
    public var limits: Limits

    /// A parser applying `limits`.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    private static let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
    private static let definedMethods: Set<String> = ["POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]

    /// The request at the start of `bytes`, or why there is none yet.
    public func parse(_ bytes: some Collection<UInt8>) -> Outcome {
        let buffer = Array(bytes.prefix(limits.headSize + 4))
        var start = 0
        // One empty line before the request line is tolerated (RFC 9112 §2.2).
        if buffer.count >= 2, buffer[0] == Self.cr, buffer[1] == Self.lf { start = 2 }
        // Find each line end; refuse a bare CR or LF as soon as it is seen.
        var lines: [Range<Int>] = []
        var lineStart = start
        var index = start
        while index < buffer.count {
            let byte = buffer[index]
            if byte == Self.lf {
                return .refused(HTTPRequestError(400, "a bare LF ends a line of the request head; lines end with CRLF"))
            }
            if byte == Self.cr {
                guard index + 1 < buffer.count else { break }
                guard buffer[index + 1] == Self.lf else {
                    return .refused(HTTPRequestError(400, "a bare CR in the request head (not followed by LF)"))
                }
                if lines.isEmpty, index - lineStart > limits.requestLine { return .refused(Self.lineTooLong(limits)) }
                if lineStart == index {
                    // The empty line: the head is complete.
                    guard index + 2 - start <= limits.headSize else { return .refused(Self.headTooLarge(limits)) }
                    guard !lines.isEmpty else { return .refused(HTTPRequestError(400, "an empty request line")) }
                    return finish(buffer, lines: lines, consumed: index + 2)
                }
                lines.append(lineStart..<index)
                if lines.count > limits.headerCount + 1 {
                    return .refused(HTTPRequestError(431, "more than \(limits.headerCount) header fields (the limit)"))
                }
                index += 2
                lineStart = index
                continue
            }
            index += 1
        }
        // Incomplete: refuse as soon as a limit is certainly passed.
        if lines.isEmpty, index - lineStart > limits.requestLine { return .refused(Self.lineTooLong(limits)) }
        if buffer.count - start > limits.headSize { return .refused(Self.headTooLarge(limits)) }
        return .incomplete
    }

    private static func lineTooLong(_ limits: Limits) -> HTTPRequestError {
        HTTPRequestError(414, "the request line is longer than \(limits.requestLine) bytes (the limit)")
    }

    private static func headTooLarge(_ limits: Limits) -> HTTPRequestError {
        HTTPRequestError(431, "the request head is larger than \(limits.headSize) bytes (the limit)")
    }

    /// The request of a complete head whose lines are `lines`.
    private func finish(_ buffer: [UInt8], lines: [Range<Int>], consumed: Int) -> Outcome {
        let requestLine = buffer[lines[0]]
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
            return .refused(HTTPRequestError(400, "the request line is not METHOD SP TARGET SP VERSION with single spaces"))
        }
        guard parts[0].allSatisfy(Self.isTokenByte) else { return .refused(HTTPRequestError(400, "the method is not a token")) }
        let method = String(decoding: parts[0], as: UTF8.self)
        let version = Array(parts[2])
        let prefix = Array("HTTP/".utf8)
        guard version.count == 8, Array(version[0..<5]) == prefix, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(version[5]),
              version[6] == UInt8(ascii: "."), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(version[7]) else {
            return .refused(HTTPRequestError(400, "the version is not HTTP/x.y"))
        }
        guard version[5] == UInt8(ascii: "1") else {
            return .refused(HTTPRequestError(505, "HTTP/\(Character(UnicodeScalar(version[5]))).\(Character(UnicodeScalar(version[7]))) is not served; use HTTP/1.1"))
        }
        let minor = Int(version[7] - UInt8(ascii: "0"))
        // Visible ASCII only: no control characters, spaces or bytes above 0x7E in the target.
        guard parts[1].allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return .refused(HTTPRequestError(400, "the request target has a byte that is not visible ASCII; percent-encode it"))
        }
        var target = String(decoding: parts[1], as: UTF8.self)
        if !target.hasPrefix("/") {
            // Absolute form (RFC 9112 §3.2.2): keep the path and query.
            let lowered = target.lowercased()
            guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
                return .refused(HTTPRequestError(400, "the request target is neither a path (/…) nor an http(s) URL"))
            }
            let afterScheme = target.dropFirst(lowered.hasPrefix("https") ? 8 : 7)
            let path = afterScheme.firstIndex { $0 == "/" || $0 == "?" }.map { afterScheme[$0...] } ?? ""
            target = path.hasPrefix("/") ? String(path) : "/" + path
        }
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(lines.count - 1)
        for line in lines.dropFirst() {
            let bytes = buffer[line]
            guard let first = bytes.first, first != UInt8(ascii: " "), first != UInt8(ascii: "\t") else {
                return .refused(HTTPRequestError(400, "a header line starts with whitespace (obs-fold is refused)"))
            }
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else {
                return .refused(HTTPRequestError(400, "a header line has no colon"))
            }
            let name = bytes[bytes.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else {
                return .refused(HTTPRequestError(400, "a header name is not a token (or has whitespace before its colon)"))
            }
            var value = bytes[(colon + 1)...]
            while let byte = value.first, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { value = value.dropFirst() }
            while let byte = value.last, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { value = value.dropLast() }
            let nameText = String(decoding: name, as: UTF8.self)
            guard value.allSatisfy({ $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 }) else {
                return .refused(HTTPRequestError(400, "the value of \(nameText) has a control character"))
            }
            // Latin-1, one character per byte: obs-text (0x80–0xFF, RFC 9110 §5.5) is
            // opaque data, kept byte for byte instead of turned into U+FFFD.
            let text = value.allSatisfy({ $0 < 0x80 }) ? String(decoding: value, as: UTF8.self)  // ASCII: the same either way
                : String(String.UnicodeScalarView(value.map { Unicode.Scalar($0) }))
            headers.append((nameText, text))
        }
        let request = HTTPRequest(method: method, target: target, minorVersion: minor, headers: headers)
        if let refusal = Self.check(request) { return .refused(refusal) }
        return .request(request, consumed: consumed)
    }

    /// The refusal of a well-formed head this server does not serve.
    private static func check(_ request: HTTPRequest) -> HTTPRequestError? {
        func values(_ name: String) -> [String] {
            request.headers.filter { HTTPFieldName.matches($0.name, name) }.map(\.value)
        }
        let hosts = values("Host"), encodings = values("Transfer-Encoding"), lengths = values("Content-Length")
        if !encodings.isEmpty && !lengths.isEmpty {
            return HTTPRequestError(400, "both Content-Length and Transfer-Encoding are given (a smuggling pattern)")
        }
        if !encodings.isEmpty { return HTTPRequestError(400, "Transfer-Encoding is given, but \(request.method) requests take no body") }
        if lengths.count > 1 { return HTTPRequestError(400, "Content-Length is given \(lengths.count) times") }
        if let length = lengths.first {
            guard !length.isEmpty, length.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                return HTTPRequestError(400, "Content-Length '\(length)' is not a number")
            }
            guard length.utf8.allSatisfy({ $0 == UInt8(ascii: "0") }) else {
                return HTTPRequestError(400, "Content-Length is \(length), but requests here take no body")
            }
        }
        if request.minorVersion >= 1, hosts.count != 1 {
            return HTTPRequestError(400, hosts.isEmpty ? "an HTTP/1.1 request without Host" : "Host is given \(hosts.count) times")
        }
        if hosts.count > 1 { return HTTPRequestError(400, "Host is given \(hosts.count) times") }
        if request.method != "GET" && request.method != "HEAD" {
            if definedMethods.contains(request.method) { return HTTPRequestError(405, "\(request.method) is not allowed; use GET or HEAD") }
            return HTTPRequestError(501, "the method \(request.method) is not implemented; use GET or HEAD")
        }
        return nil
    }

    /// tchar (RFC 9110 §5.6.2).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
