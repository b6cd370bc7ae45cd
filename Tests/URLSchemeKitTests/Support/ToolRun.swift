import Foundation
import Synchronization

/// One run of the built `urlscheme` binary, as a user runs it: its exit
/// status, standard output and standard error.
struct ToolRun {
    var status: Int32
    var stdout: Data
    var stderr: String

    /// The `urlscheme` beside the test bundle.
    static var binary: URL { URL(fileURLWithPath: CLIBinary.path) }

    /// Runs `urlscheme arguments` with the test process's environment plus
    /// `environment`, in `directory` when given, and waits for it.
    init(_ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil) throws {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Standard error is read on another thread, so a child filling one pipe never waits on the other.
        let errors = DispatchQueue(label: "ToolRun.stderr")
        let stderrData = Mutex(Data())
        errors.async { stderrData.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() } }
        stdout = out.fileHandleForReading.readDataToEndOfFile()
        errors.sync {}
        process.waitUntilExit()
        status = process.terminationStatus
        stderr = String(decoding: stderrData.withLock { $0 }, as: UTF8.self)
    }
}
