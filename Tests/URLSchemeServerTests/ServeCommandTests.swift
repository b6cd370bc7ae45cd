import Foundation
import Synchronization
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `urlscheme serve` as a user runs it: a child process, options from flags
/// and environment variables, the access log on standard output, SIGTERM.
final class ServeCommandTests: XCTestCase {
    private var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("urlscheme").path
    }

    /// Skips when the `urlscheme` product is not built, unless CI requires it
    /// (`URLSCHEMEKIT_REQUIRE_CLI=1`), where a missing binary fails the test.
    private func requireBinary() throws {
        guard !FileManager.default.isExecutableFile(atPath: binary) else { return }
        if ProcessInfo.processInfo.environment["URLSCHEMEKIT_REQUIRE_CLI"] == "1" { throw CLIMissing(path: binary) }
        throw XCTSkip("build the urlscheme product first: \(binary)")
    }

    private struct CLIMissing: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is missing" }
    }

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("serve-cli-" + UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testServeAnswersFromEnvironmentOptionsLogsAndDrainsOnSIGTERM() throws {
        try requireBinary()
        let home = try temporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--workers", "2", "--assets", home.appendingPathComponent("assets").path]
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["URLSCHEME_PORT": "0", "URLSCHEME_MAX_AGE": "77", "XDG_CACHE_HOME": home.path]) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        addTeardownBlock { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        var stderr = ""
        while !stderr.contains("\n"), process.isRunning {
            stderr += String(decoding: err.fileHandleForReading.availableData, as: UTF8.self)
        }
        let prefix = "urlscheme: serving on http://127.0.0.1:"
        XCTAssertTrue(stderr.hasPrefix(prefix), stderr)
        let port = try XCTUnwrap(Int(stderr.dropFirst(prefix.count).prefix { $0.isNumber }))

        let session = URLSession(configuration: .ephemeral)
        let done = DispatchSemaphore(value: 0)
        let answer = Mutex<(Int, String?)>((0, nil))
        session.dataTask(with: URL(string: "http://127.0.0.1:\(port)/map?latitude=10&longitude=20&width=64&height=64")!) { _, response, _ in
            let http = response as? HTTPURLResponse
            answer.withLock { $0 = (http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "Cache-Control")) }
            done.signal()
        }.resume()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(answer.withLock { $0.0 }, 200)
        XCTAssertEqual(answer.withLock { $0.1 }, "public, max-age=77", "URLSCHEME_MAX_AGE")

        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        XCTAssertFalse(process.isRunning, "SIGTERM drains and ends the server")
        XCTAssertEqual(process.terminationStatus, 0)
        let log = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let line = try XCTUnwrap(log.split(separator: "\n").first)
        let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(entry["status"] as? Int, 200)
        XCTAssertEqual(entry["route"] as? String, "map")
        stderr += String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(stderr.contains("urlscheme: draining\n"), stderr)
    }

    func testABadOptionIsOneLineNamingIt() throws {
        try requireBinary()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--port", "70000"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 2)
        XCTAssertEqual(text, "urlscheme: --port 70000: expected a whole number from 0 to 65535\n")
    }
}
