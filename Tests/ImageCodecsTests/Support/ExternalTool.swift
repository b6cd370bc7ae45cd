import Foundation
import XCTest

/// A reference tool from a Debian package (libwebp's `dwebp`, `gifsicle` …)
/// that a test runs on files we wrote: where it is not installed the test is
/// skipped, except where the environment variable `requiredBy` is set, where
/// that fails the test instead.
enum ExternalTool {
    /// The installed `name` (in /usr/bin or /usr/local/bin), or a skip (a
    /// failure when `requiredBy` is set) naming `package`.
    static func path(_ name: String, package: String, requiredBy variable: String) throws -> String {
        guard let tool = ["/usr/bin/", "/usr/local/bin/"].map({ $0 + name }).first(where: FileManager.default.isExecutableFile) else {
            if ProcessInfo.processInfo.environment[variable] != nil { XCTFail("\(name) is not installed (\(package))") }
            throw XCTSkip("\(name) (\(package)) is not installed")
        }
        return tool
    }
}
