import Foundation
import XCTest

/// One child process: its exit status, standard error, wall-clock time and
/// peak resident memory (`wait4`'s rusage, which `Process` does not expose).
struct ChildRun {
    var status: Int32
    var stderr: String
    var seconds: Double
    var peakResidentBytes: Int

    var summary: String {
        String(format: "exit %d in %.3f s, peak RSS %d MB: %@", status, seconds, peakResidentBytes >> 20,
               stderr.split(separator: "\n").first.map { String($0.prefix(160)) } ?? "")
    }

    /// Runs `executable` with `arguments`, the test process's environment plus
    /// `environment`, and waits for it. Its standard output is discarded, or
    /// with `keepingOutput` kept in `stderr` with its standard error.
    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], keepingOutput: Bool = false) throws {
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).err").path
        defer { unlink(errorFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if keepingOutput {
            posix_spawn_file_actions_adddup2(&actions, 2, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid = pid_t()
        let start = Date()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(spawned)) }
        var waitStatus: Int32 = 0
        var usage = rusage()
        while wait4(pid, &waitStatus, 0, &usage) < 0 && errno == EINTR {}
        seconds = Date().timeIntervalSince(start)
        status = (waitStatus & 0x7F) == 0 ? (waitStatus >> 8) & 0xFF : 128 + (waitStatus & 0x7F)
        peakResidentBytes = Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
        stderr = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
    }
}

extension XCTestCase {
    private static let childVariable = "URLSCHEMEKIT_CHILD_TEST"

    /// Whether this test is the copy `runInChildProcess` started.
    var isInChildProcess: Bool { ProcessInfo.processInfo.environment[Self.childVariable] == name }

    /// Runs this same test again in a child process, the test bundle started
    /// for it alone, with `environment` added (where `isInChildProcess` is
    /// true, so the test does its work there instead of coming back here).
    /// Memory is measured per process, and a runaway stays in the child.
    func runInChildProcess(environment: [String: String] = [:]) throws -> ChildRun {
        // XCTest names a test "Class.method" here, and selects one as "Module.Class/method".
        let parts = name.split(separator: ".").map(String.init)
        let selector = parts.count == 2 ? "URLSchemeKitTests.\(parts[0])/\(parts[1])" : name
        var variables = environment
        variables[Self.childVariable] = name
        return try ChildRun(CommandLine.arguments[0], [selector], environment: variables, keepingOutput: true)
    }
}

/// This process's resident memory now, from `/proc/self/status` (Linux).
func residentBytes(_ field: String = "VmRSS") -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
          let kilobytes = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") else { return 0 }
    return kilobytes * 1024
}
