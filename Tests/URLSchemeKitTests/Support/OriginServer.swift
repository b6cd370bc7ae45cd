import Foundation
import XCTest
import URLSchemeKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real HTTP origin on 127.0.0.1 for the HTTP cache tests: a python3 process
/// (`Fixtures/http/origin_server.py`) whose routes the test sets and whose
/// request counts it reads. Stopped with SIGKILL when the test ends (see
/// `LoopbackFileServer` for why not SIGTERM), or earlier by `stop()`, which
/// is how tests take the network away.
final class OriginServer {
    let port: Int
    /// The loopback address it listens on (127.0.0.2 and up stand for other hosts).
    let host: String
    private let process: Process
    /// A plain session (no URLSchemeKit protocol) for the control requests.
    private let control = URLSession(configuration: .ephemeral)

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/http/origin_server.py")

    init(test: XCTestCase, host: String = "127.0.0.1") throws {
        self.host = host
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, host]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        test.addTeardownBlock { Self.kill(process) }
        // The first line is the port the server bound.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            Self.kill(process)
            throw NSError(domain: "OriginServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "the origin did not start"])
        }
        self.port = port
    }

    func url(_ path: String) -> URL { URL(string: "http://\(host):\(port)\(path)")! }

    /// Sets what `path` answers. `endless`: a chunked body ending at
    /// `endlessBytes`, in chunks of `endlessChunk` bytes, `chunkDelay` seconds
    /// apart; `gzipZeros`: that many zero bytes, chunked and sent gzipped;
    /// `trickle`: seconds between the body's bytes.
    func route(_ path: String, status: Int = 200, headers: [String: String] = [:], body: String = "",
               bodySize: Int = 0, echoHeader: String? = nil, echoMap: [String: String]? = nil, delay: Double = 0,
               unsafeStatus: Int = 200, unsafeHeaders: [String: String] = [:], endless: Bool = false,
               endlessBytes: Int = 256 << 20, endlessChunk: Int = 65_536, chunkDelay: Double = 0, gzipZeros: Int = 0,
               trickle: Double = 0) throws {
        var route: [String: Any] = ["path": path, "status": status, "headers": headers, "body": body,
                                    "body_size": bodySize, "delay": delay,
                                    "unsafe_status": unsafeStatus, "unsafe_headers": unsafeHeaders, "endless": endless,
                                    "endless_bytes": endlessBytes, "endless_chunk": endlessChunk, "chunk_delay": chunkDelay,
                                    "gzip_zeros": gzipZeros, "trickle": trickle]
        if let echoHeader { route["echo_header"] = echoHeader }
        if let echoMap { route["echo_map"] = echoMap }
        var request = URLRequest(url: url("/__route"))
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: route)
        _ = try send(request)
    }

    /// How many requests reached `path`, their methods, and the last one's headers.
    func stats(_ path: String) throws -> (count: Int, methods: [String], lastHeaders: [String: String]) {
        var components = URLComponents(url: url("/__stats"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "path", value: path)]
        let data = try send(URLRequest(url: components.url!))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return (object["count"] as? Int ?? -1, object["methods"] as? [String] ?? [],
                object["last_headers"] as? [String: String] ?? [:])
    }

    func count(_ path: String) throws -> Int { try stats(path).count }

    /// Makes the origin's `Date` header run `offset` seconds ahead of real time.
    func setClockOffset(_ offset: TimeInterval) throws {
        guard process.isRunning else { return }   // a stopped origin sends no Date
        var request = URLRequest(url: url("/__clock"))
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: ["offset": offset])
        _ = try send(request)
    }

    /// Stops the origin: from now on its port refuses connections.
    func stop() { Self.kill(process) }

    private func send(_ request: URLRequest) throws -> Data {
        let result = Result<Data, Error>.waiting { done in
            control.dataTask(with: request) { data, _, error in
                done(data.map { .success($0) } ?? .failure(error ?? URLError(.badServerResponse)))
            }.resume()
        }
        return try result.get()
    }

    private static func kill(_ process: Process) {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

extension Result where Failure == Error {
    /// Blocks until `body` calls its completion (for control requests from synchronous test code).
    static func waiting(_ body: (@escaping @Sendable (Result<Success, Error>) -> Void) -> Void) -> Result<Success, Error>
    where Success: Sendable {
        let box = ResultBox<Success>()
        let done = DispatchSemaphore(value: 0)
        body { result in
            box.set(result)
            done.signal()
        }
        done.wait()
        return box.value ?? .failure(URLError(.unknown))
    }
}

private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: written once before the semaphore is signalled and
    // read only after it was waited for.
    private(set) var value: Result<Value, Error>?
    func set(_ value: Result<Value, Error>) { self.value = value }
}

extension XCTestCase {
    /// A session loading http(s) through `cache` (and a small image cache),
    /// as an app sets one up; invalidated when the test ends.
    func makeCachedSession(_ cache: HTTPCache) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(
            imageCache: QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0), httpCache: cache))
        let session = URLSession(configuration: configuration)
        addTeardownBlock { session.invalidateAndCancel() }
        return session
    }
}
