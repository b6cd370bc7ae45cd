import XCTest

/// Runs one test of this test binary again, alone, in a child process: for
/// what would kill the test run (a platform trap, a crash a fix prevents).
/// The child sees `URLSCHEMEKIT_CHILD_TEST` naming the test, so the test
/// body knows which side it is on.
extension XCTestCase {
    /// True in the child process that `runInChildProcess` started for this test.
    var isChildTest: Bool { ProcessInfo.processInfo.environment["URLSCHEMEKIT_CHILD_TEST"] == name }

    /// Runs the calling test alone in a child process of this test binary.
    /// Returns how the child ended (nil: still running at `timeout`, then
    /// killed), its exit status or signal, and what it printed.
    func runInChildProcess(_ function: String = #function, timeout: TimeInterval) throws
        -> (reason: Process.TerminationReason?, status: Int32, output: String) {
        let method = function.replacingOccurrences(of: "()", with: "")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["URLSchemeKitTests.\(String(describing: type(of: self)))/\(method)"]
        process.environment = ProcessInfo.processInfo.environment.merging(["URLSCHEMEKIT_CHILD_TEST": name]) { $1 }
        let log = try makeTemporaryDirectory().appendingPathComponent("child.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        let finished = !process.isRunning
        if !finished { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try handle.close()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return (finished ? process.terminationReason : nil, process.terminationStatus, output)
    }
}
