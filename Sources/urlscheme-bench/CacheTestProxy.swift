import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import URLSchemeKit

/// `urlscheme-bench cache-proxy`: an HTTP/1.1 reverse proxy on 127.0.0.1 that
/// loads every request it receives through a `URLSession` with
/// `HTTPCacheURLProtocol`, so an HTTP caching conformance suite
/// (http-tests/cache-tests, run by `Benchmarks/cache-tests.sh`) tests our
/// cache the way a browser's private cache is tested: its client talks to the
/// proxy, its origin server stands behind it.
///
///     suite client ──HTTP/1.1──► proxy ──URLRequest──► URLSession + HTTPCacheURLProtocol ──► suite origin
///                  ◄─status, fields, body (+ Cache-Status)──┘
///
/// One thread per connection, keep-alive, `Content-Length` request bodies.
/// When the session fails (the origin closed the connection, say) the client
/// gets a `502` naming the `URLError`, as from any gateway.
///
/// The suite's Node client marks every request `Pragma: foo` and
/// `Cache-Control: nothing-to-see-here` (its "dirty hack for Fetch", which a
/// browser's own cache never sees); the proxy removes exactly those tokens, so
/// `Pragma: no-cache` and request directives reach the cache as in a browser.
final class CacheTestProxy: Sendable {
    /// What the command line asked for.
    struct Options {
        /// Where misses go: scheme, host and port (a path is prefixed to each request's).
        var origin: URL
        /// 0: any free port.
        var port: UInt16
        /// The HTTPCache's folder; nil: a new temporary one.
        var cacheDirectory: URL?
        /// One log line per request on standard error.
        var verbose: Bool
    }

    static let usage = """
        usage: urlscheme-bench cache-proxy --origin URL [--port N] [--cache-directory PATH] [--verbose]

        Listens on 127.0.0.1:N (0: any free port; the line "listening on URL" on
        standard output names it) and answers every request through a URLSession
        with HTTPCacheURLProtocol and an HTTPCache under PATH (default: a new
        temporary folder), forwarding misses to the origin URL. --verbose logs one
        line per request on standard error: test id, request number, method,
        target, status and the Cache-Status field.
        """

    private let origin: String
    private let session: URLSession
    private let verbose: Bool

    init(_ options: Options) throws {
        origin = options.origin.absoluteString.hasSuffix("/")
            ? String(options.origin.absoluteString.dropLast()) : options.origin.absoluteString
        verbose = options.verbose
        let directory = options.cacheDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("cache-proxy-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        // The suite's CLI judges a private cache (a browser's); its shared-cache tests are a second suite.
        var cacheConfiguration = HTTPCache.Configuration()
        cacheConfiguration.isPrivate = true
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0),
                                                                  httpCache: HTTPCache(directory: directory, configuration: cacheConfiguration)))
        session = URLSession(configuration: configuration)
    }

    /// Parses the subcommand's arguments, listens and serves until killed.
    static func run(_ arguments: [String]) -> Never {
        do {
            let options = try parse(arguments)
            let proxy = try CacheTestProxy(options)
            let listener = try Self.listen(port: options.port)
            // Written straight to the descriptor: a script waits for this line.
            FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(listener.port) for \(proxy.origin)\n".utf8))
            proxy.serve(listener.socket)
        } catch let error as ProxyError {
            FileHandle.standardError.write(Data("urlscheme-bench cache-proxy: \(error.message)\n".utf8))
            exit(2)
        } catch {
            FileHandle.standardError.write(Data("urlscheme-bench cache-proxy: \(error)\n".utf8))
            exit(1)
        }
    }

    static func parse(_ arguments: [String]) throws -> Options {
        var arguments = arguments[...]
        var origin: URL?
        var port: UInt16 = 0
        var cacheDirectory: URL?
        var verbose = false
        func value(_ name: String) throws -> String {
            guard let value = arguments.popFirst() else { throw ProxyError("\(name) needs a value\n\(usage)") }
            return value
        }
        while let argument = arguments.popFirst() {
            switch argument {
            case "--help", "-h":
                print(usage)
                exit(0)
            case "--origin":
                let text = try value(argument)
                guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                    throw ProxyError("--origin must be an http(s) URL with a host, not \(text)")
                }
                origin = url
            case "--port":
                let text = try value(argument)
                guard let number = UInt16(text) else { throw ProxyError("--port must be 0...65535, not \(text)") }
                port = number
            case "--cache-directory":
                cacheDirectory = URL(fileURLWithPath: try value(argument), isDirectory: true)
            case "--verbose":
                verbose = true
            default:
                throw ProxyError("unknown argument \(argument)\n\(usage)")
            }
        }
        guard let origin else { throw ProxyError("--origin is required\n\(usage)") }
        return Options(origin: origin, port: port, cacheDirectory: cacheDirectory, verbose: verbose)
    }

    // MARK: Listening

    /// A listening socket on 127.0.0.1 and the port it got.
    private static func listen(port: UInt16) throws -> (socket: Int32, port: UInt16) {
        signal(SIGPIPE, SIG_IGN)   // a client that hangs up must not end the proxy
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw ProxyError("socket() failed: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && Foundation.listen(fd, 128) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ProxyError("cannot listen on 127.0.0.1:\(port): \(reason)")
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    private func serve(_ listener: Int32) -> Never {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                FileHandle.standardError.write(Data("urlscheme-bench cache-proxy: accept failed: \(String(cString: strerror(errno)))\n".utf8))
                exit(1)
            }
            Thread { self.handleConnection(client) }.start()
        }
    }

    // MARK: One connection

    private func handleConnection(_ fd: Int32) {
        defer { close(fd) }
        var reader = RequestReader(fd: fd)
        while true {
            let request: ProxyRequest
            switch reader.next() {
            case .closed:
                return
            case let .malformed(reason):
                _ = Self.write(fd, ProxyResponse.error(400, "malformed request: \(reason)"), method: "GET")
                return
            case let .request(next):
                request = next
            }
            let response = forward(request)
            if verbose { log(request, response) }
            guard Self.write(fd, response, method: request.method), request.keepAlive else { return }
        }
    }

    /// The request through the session: the origin's (or the cache's) answer, or a 502.
    private func forward(_ request: ProxyRequest) -> ProxyResponse {
        guard request.target.hasPrefix("/"), let url = URL(string: origin + request.target) else {
            return .error(400, "the request target \(request.target) is not an absolute path")
        }
        var outgoing = URLRequest(url: url, timeoutInterval: 30)
        outgoing.httpMethod = request.method
        for (name, value) in request.forwardedFields() { outgoing.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { outgoing.httpBody = request.body }

        let outcome = LoadOutcome()
        session.dataTask(with: outgoing) { data, response, error in
            outcome.finish(data: data, response: response, error: error)
        }.resume()
        return outcome.wait()
    }

    private func log(_ request: ProxyRequest, _ response: ProxyResponse) {
        let testID = request.field("Test-ID") ?? "-"
        let number = request.field("Req-Num") ?? "-"
        let status = response.field("Cache-Status") ?? response.field("Proxy-Error") ?? "-"
        FileHandle.standardError.write(Data("\(testID)\t\(number)\t\(request.method)\t\(request.target)\t\(response.status)\t\(status)\n".utf8))
    }

    /// Writes `response` whole; false when the client has gone.
    private static func write(_ fd: Int32, _ response: ProxyResponse, method: String) -> Bool {
        let bytes = response.serialized(forHEAD: method == "HEAD")
        return bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let sent = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if sent < 0, errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }
}

/// A usage or start-up problem, printed as it is.
struct ProxyError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// One request as the client sent it.
struct ProxyRequest {
    var method: String
    var target: String
    /// Field lines in arrival order, names as sent.
    var fields: [(name: String, value: String)]
    var body: Data
    var keepAlive: Bool

    /// Fields that belong to one connection, not to the request (RFC 9110 §7.6.1),
    /// and those the session sets itself.
    private static let connectionFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
        "host", "content-length", "expect",
    ]

    /// The suite client's markers, per field (see `CacheTestProxy`).
    private static let suiteMarkers: [String: String] = ["cache-control": "nothing-to-see-here", "pragma": "foo"]

    func field(_ name: String) -> String? {
        let values = fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The end-to-end fields, lines of one name joined by ", " (RFC 9110 §5.3),
    /// without the suite's markers.
    func forwardedFields() -> [(name: String, value: String)] {
        var listed = Self.connectionFields
        for field in fields where field.name.lowercased() == "connection" {
            for token in field.value.split(separator: ",") { listed.insert(token.trimmingCharacters(in: .whitespaces).lowercased()) }
        }
        var order: [String] = []
        var joined: [String: (name: String, values: [String])] = [:]
        for (name, value) in fields where !listed.contains(name.lowercased()) {
            let key = name.lowercased()
            if joined[key] == nil { order.append(key) }
            joined[key, default: (name, [])].values.append(value)
        }
        return order.compactMap { key in
            guard let (name, values) = joined[key] else { return nil }
            var value = values.joined(separator: ", ")
            if let marker = Self.suiteMarkers[key] {
                value = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { $0.lowercased() != marker }.joined(separator: ", ")
                if value.isEmpty { return nil }
            }
            return (name, value)
        }
    }
}

/// One answer to write back.
struct ProxyResponse {
    var status: Int
    var fields: [(name: String, value: String)]
    var body: Data

    /// Response fields the proxy writes itself (length) or that belong to the inner connection.
    private static let connectionFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "content-length",
    ]

    init(status: Int, fields: [(name: String, value: String)], body: Data) {
        self.status = status
        self.fields = fields
        self.body = body
    }

    init(_ response: HTTPURLResponse, body: Data) {
        var fields: [(name: String, value: String)] = []
        var length: String?
        for case let (name as String, value as String) in response.allHeaderFields {
            if name.lowercased() == "content-length" { length = value }
            guard !Self.connectionFields.contains(name.lowercased()) else { continue }
            fields.append((name, value))
        }
        fields.sort { $0.name.lowercased() < $1.name.lowercased() }
        // Kept for HEAD answers (no body, the length of the GET's); written for others.
        if let length { fields.append(("Content-Length", length)) }
        self.init(status: response.statusCode, fields: fields, body: body)
    }

    static func error(_ status: Int, _ message: String) -> ProxyResponse {
        ProxyResponse(status: status, fields: [("Content-Type", "text/plain"), ("Proxy-Error", message)],
                      body: Data("urlscheme-bench cache-proxy: \(message)\n".utf8))
    }

    func field(_ name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Status line, fields and body; the length written from the body, except
    /// for statuses without one and for HEAD (where the GET's length is kept).
    func serialized(forHEAD: Bool) -> Data {
        let bodiless = (100..<200).contains(status) || status == 204 || status == 304
        let reason = HTTPURLResponse.localizedString(forStatusCode: status).filter { $0 != "\r" && $0 != "\n" }
        var head = "HTTP/1.1 \(status) \(reason)\r\n"
        for (name, value) in fields {
            if name.lowercased() == "content-length", !forHEAD { continue }
            head += "\(name): \(value.filter { $0 != "\r" && $0 != "\n" })\r\n"
        }
        if !bodiless, !forHEAD { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        var bytes = Data(head.utf8)
        if !bodiless, !forHEAD { bytes.append(body) }
        return bytes
    }
}

/// The result of one session load, handed from the session's queue to the
/// connection's thread, which waits for it.
private final class LoadOutcome: Sendable {
    private let result = Mutex<ProxyResponse?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
        let answer: ProxyResponse
        if let response = response as? HTTPURLResponse, error == nil {
            answer = ProxyResponse(response, body: data ?? Data())
        } else {
            let reason = (error as? URLError).map { "URLError \($0.code.rawValue): \($0.localizedDescription)" }
                ?? error.map { "\($0)" } ?? "no HTTP response"
            answer = .error(502, reason)
        }
        result.withLock { $0 = answer }
        done.signal()
    }

    func wait() -> ProxyResponse {
        done.wait()
        return result.withLock { $0 } ?? .error(502, "no answer")
    }
}

/// Reads requests off one connection: head up to 64 KiB, `Content-Length` bodies up to 16 MiB.
private struct RequestReader {
    enum Next {
        case request(ProxyRequest)
        case malformed(String)
        case closed
    }

    let fd: Int32
    private var buffer: [UInt8] = []
    private static let maximumHead = 64 << 10
    private static let maximumBody = 16 << 20

    init(fd: Int32) { self.fd = fd }

    mutating func next() -> Next {
        var headEnd: Int?
        while true {
            if let end = Self.find([13, 10, 13, 10], in: buffer) { headEnd = end; break }
            guard buffer.count <= Self.maximumHead else { return .malformed("request head over \(Self.maximumHead) bytes") }
            guard fill() else { return buffer.isEmpty ? .closed : .malformed("connection closed inside the request head") }
        }
        guard let headEnd else { return .closed }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")[...]
        let requestLine = lines.popFirst()?.split(separator: " ") ?? []
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else { return .malformed("bad request line") }
        var fields: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { return .malformed("field line without a colon: \(line.prefix(80))") }
            fields.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var request = ProxyRequest(method: String(requestLine[0]), target: String(requestLine[1]), fields: fields,
                                   body: Data(), keepAlive: true)
        if request.field("Transfer-Encoding") != nil { return .malformed("chunked request bodies are not supported") }
        let connection = request.field("Connection")?.lowercased() ?? ""
        request.keepAlive = requestLine[2] == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
        if let lengthText = request.field("Content-Length") {
            guard let length = Int(lengthText), (0...Self.maximumBody).contains(length) else {
                return .malformed("Content-Length \(lengthText) is not 0...\(Self.maximumBody)")
            }
            while buffer.count < length {
                guard fill() else { return .malformed("connection closed inside the body") }
            }
            request.body = Data(buffer[..<length])
            buffer.removeFirst(length)
        }
        return .request(request)
    }

    /// Reads what the socket has; false at end of stream or on an error.
    private mutating func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[..<count])
            return true
        }
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for start in 0...(bytes.count - pattern.count) where bytes[start] == pattern[0] {
            if bytes[start..<start + pattern.count].elementsEqual(pattern) { return start }
        }
        return nil
    }
}
