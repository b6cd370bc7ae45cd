import XCTest
import ImageCodecs
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
        let server = try LoopbackFileServer(root: root, test: self)
        let cacheHome = try makeTemporaryDirectory()
        let output = root.appendingPathComponent("out.png").path
        let result = try run(["get", server.url("/photo.png"), "-o", output], environment: ["XDG_CACHE_HOME": cacheHome.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: output)), body)
        XCTAssertTrue(result.stderr.hasPrefix("200 image/png 5000 bytes in "), result.stderr)

        let toStdout = try run(["get", server.url("/photo.png"), "--no-cache"])
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

    /// add → get asset:// and avatar:// → list → remove, in a store directory of the test's own.
    func testAddedPhotosLoadByAssetAndAvatarURLs() throws {
        let assets = try makeTemporaryDirectory().path
        let photo = AssetFixtures.directory.appendingPathComponent("photo.jpg").path
        let added = try run(["add", photo, "--assets", assets])
        XCTAssertEqual(added.status, 0, added.stderr)
        let id = String(decoding: added.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(id.count, 26, id)

        let listed = try run(["list", "--assets", assets])
        XCTAssertEqual(String(decoding: listed.stdout, as: UTF8.self), "\(id)\tjpeg\t96x64\t\(try AssetFixtures.data("photo.jpg").count) bytes\n")

        let output = try makeTemporaryDirectory().appendingPathComponent("thumb.jpg")
        let got = try run(["get", "asset://?id=\(id)&width=48&rotate=90", "-o", output.path, "--no-cache", "--assets", assets])
        XCTAssertEqual(got.status, 0, got.stderr)
        let thumbnail = try JPEGDecoder().decode(Data(contentsOf: output))
        XCTAssertEqual([thumbnail.width, thumbnail.height], [48, 72])

        let avatar = try run(["get", "avatar://?id=\(id)&id=\(id)&size=40", "--no-cache"], environment: ["URLSCHEME_ASSETS": assets])
        XCTAssertEqual(avatar.status, 0, avatar.stderr)
        XCTAssertEqual(try PNGDecoder().decode(avatar.stdout).width, 40)

        XCTAssertEqual(try run(["remove", id, "--assets", assets]).status, 0)
        let gone = try run(["get", "asset://?id=\(id)", "--no-cache", "--assets", assets])
        XCTAssertEqual(gone.status, 1)
        XCTAssertTrue(gone.stderr.contains("no asset with id"), gone.stderr)

        let notAnImage = try run(["add", binary.path, "--assets", assets])
        XCTAssertEqual(notAnImage.status, 1)
        XCTAssertTrue(notAnImage.stderr.hasPrefix("urlscheme: cannot add "), notAnImage.stderr)
    }
}
