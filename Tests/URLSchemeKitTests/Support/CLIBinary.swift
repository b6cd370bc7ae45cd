import Foundation
import XCTest

/// The `urlscheme` executable built beside the test bundle, for tests that run
/// it in a child process (a SIGKILL mid-write, the hostile corpus).
enum CLIBinary {
    /// Its path in the build folder of the running tests.
    static var path: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("urlscheme").path
    }

    /// Skips the test when the binary has not been built (a bare `swift test`
    /// builds only the test targets), but fails it when
    /// `URLSCHEMEKIT_REQUIRE_CLI=1` says it must be there, as `.ci/run` does,
    /// so CI can never pass by skipping.
    static func require() throws -> String {
        if FileManager.default.isExecutableFile(atPath: path) { return path }
        let message = "build the urlscheme product first (swift build --product urlscheme): \(path) is missing"
        if ProcessInfo.processInfo.environment["URLSCHEMEKIT_REQUIRE_CLI"] == "1" { throw Missing(description: message) }
        throw XCTSkip(message)
    }

    /// The binary is required and absent: an error, so the test fails.
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }
}
