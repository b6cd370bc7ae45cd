import Foundation
import XCTest

/// libwebp's `dwebp`, run as a process on a file we wrote: where it is not
/// installed the test is skipped, except where `URLSCHEMEKIT_REQUIRE_DWEBP`
/// is set (CI installs it), where that fails the test instead.
enum Dwebp {
    /// The installed `dwebp`, or a skip (a failure when it is required).
    static func path() throws -> String {
        try ExternalTool.path("dwebp", package: "Debian's webp package", requiredBy: "URLSCHEMEKIT_REQUIRE_DWEBP")
    }

    /// What `dwebp -pam` decodes `data` to (RGBA rows), or nil after
    /// recording a failure when it refuses the file (`name` says which).
    static func decode(_ data: Data, name: String, file: StaticString = #filePath, line: UInt = #line) throws -> [UInt8]? {
        let dwebp = try path()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dwebp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("\(name).webp"), output = folder.appendingPathComponent("\(name).pam")
        try data.write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: dwebp)
        process.arguments = ["-quiet", "-pam", input.path, "-o", output.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            XCTFail("dwebp refused \(name).webp", file: file, line: line)
            return nil
        }
        // A PAM file: a text header ending in ENDHDR, then RGBA rows.
        let pam = try Data(contentsOf: output)
        let end = try XCTUnwrap(pam.range(of: Data("ENDHDR\n".utf8)), file: file, line: line).upperBound
        return Array(pam[end...])
    }
}
