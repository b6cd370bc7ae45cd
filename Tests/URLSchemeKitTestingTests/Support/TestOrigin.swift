import Foundation
import URLSchemeKitTesting
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real HTTP origin on 127.0.0.1: the HTTP cache tests' python3 origin
/// (`Tests/URLSchemeKitTests/Fixtures/http/origin_server.py`), whose routes
/// the test sets. Stopped with SIGKILL (a process started from a worker
/// thread ignores SIGTERM: docs/linux-url-loading.md), at the end of the test
/// or by `stop()`, which is how a test takes the network away.
final class TestOrigin {
    let port: Int
    private let process: Process
    private let control = URLSession(configuration: .ephemeral)

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("URLSchemeKitTests/Fixtures/http/origin_server.py")

    init(test: XCTestCase) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, "127.0.0.1"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        test.addTeardownBlock { Self.kill(process) }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            Self.kill(process)
            throw NSError(domain: "TestOrigin", code: 1, userInfo: [NSLocalizedDescriptionKey: "the origin did not start"])
        }
        self.port = port
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Sets what `path` answers (see origin_server.py for the fields).
    func route(_ path: String, status: Int = 200, headers: [String: String] = [:], body: String = "", gzipZeros: Int = 0) async throws {
        var request = URLRequest(url: URL(string: url("/__route"))!)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: ["path": path, "status": status, "headers": headers,
                                                                        "body": body, "gzip_zeros": gzipZeros])
        _ = try await control.data(for: request)
    }

    /// How many requests reached `path`.
    func count(_ path: String) async throws -> Int {
        let (data, _) = try await control.data(for: URLRequest(url: URL(string: url("/__stats?path=" + path.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!))!))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["count"] as? Int ?? -1
    }

    func stop() { Self.kill(process) }

    private static func kill(_ process: Process) {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// A fresh temporary folder, removed when the test ends.
func temporaryFolder(_ test: XCTestCase) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("urlschemekit-testing-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    return folder
}

/// A load's outcome: the response and body, or the error.
struct Loaded {
    var status: Int
    var body: Data
    var response: HTTPURLResponse?
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Loads `request` with `session`, returning the HTTP status and body.
func load(_ session: URLSession, _ request: URLRequest) async throws -> Loaded {
    let (data, response) = try await session.data(for: request)
    let http = response as? HTTPURLResponse
    return Loaded(status: http?.statusCode ?? -1, body: data, response: http)
}

/// Loads `url` with `session`.
func load(_ session: URLSession, _ url: String) async throws -> Loaded {
    try await load(session, URLRequest(url: URL(string: url)!))
}

/// Loads `request` expecting a failure, returning the `URLError`.
func failure(_ session: URLSession, _ request: URLRequest, file: StaticString = #filePath, line: UInt = #line) async -> URLError? {
    do {
        let loaded = try await load(session, request)
        XCTFail("expected a failure, got \(loaded.status) \(loaded.text)", file: file, line: line)
        return nil
    } catch let error as URLError {
        return error
    } catch {
        XCTFail("expected a URLError, got \(error)", file: file, line: line)
        return nil
    }
}

/// Options for a test: the mode given, no `CI` or recording variable from the outside.
func options(_ mode: RecordingMode?, environment: [String: String] = [:]) -> HTTPRecorder.Options {
    var options = HTTPRecorder.Options()
    options.mode = mode
    options.environment = environment
    return options
}
