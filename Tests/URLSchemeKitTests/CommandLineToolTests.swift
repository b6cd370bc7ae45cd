import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs the built `urlscheme` binary the way a user does, against a real HTTP
/// server (python3's http.server) on loopback.
final class CommandLineToolTests: XCTestCase {
    private struct Run {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    private var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("urlscheme")
    }

    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderr, as: UTF8.self))
    }

    func testGetSavesTheBodyAndReportsOnStandardError() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary.path), "build the urlscheme product first: \(binary.path)")
        let root = try makeTemporaryDirectory()
        let body = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        try body.write(to: root.appendingPathComponent("photo.png"))
        let port = 18_000 + Int(getpid() % 2000)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", root.path]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }

        let cacheHome = try makeTemporaryDirectory()
        let output = root.appendingPathComponent("out.png").path
        var result = Run(status: -1, stdout: Data(), stderr: "")
        for _ in 0..<50 {  // until the server listens
            result = try run(["get", "http://127.0.0.1:\(port)/photo.png", "-o", output], environment: ["XDG_CACHE_HOME": cacheHome.path])
            if result.status == 0 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: output)), body)
        XCTAssertTrue(result.stderr.hasPrefix("200 image/png 5000 bytes in "), result.stderr)

        let toStdout = try run(["get", "http://127.0.0.1:\(port)/photo.png", "--no-cache"])
        XCTAssertEqual(toStdout.stdout, body)
    }

    func testFailuresAreOneLineWithANonZeroExit() throws {
        let unsupported = try run(["get", "nosuchscheme://?a=1"])
        XCTAssertEqual(unsupported.status, 1)
        XCTAssertEqual(unsupported.stderr.split(separator: "\n").count, 1, unsupported.stderr)
        XCTAssertTrue(unsupported.stderr.hasPrefix("urlscheme: "), unsupported.stderr)

        let usage = try run(["get"])
        XCTAssertEqual(usage.status, 2)
        XCTAssertEqual(usage.stderr, "urlscheme: no URL given; try 'urlscheme --help'\n")

        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(String(decoding: help.stdout, as: UTF8.self).contains("usage: urlscheme get URL"))
    }
}
