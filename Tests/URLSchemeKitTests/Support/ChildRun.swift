import Foundation
import XCTest

/// One child process: its exit status, standard error, wall-clock time and
/// peak resident memory.
///
/// The peak is the child's own `VmHWM` (`/proc/PID/status`), read every 5 ms
/// while it runs, not `wait4`'s `ru_maxrss`: `posix_spawn` runs the child in
/// the parent's memory until `exec`, and Linux carries that memory's peak into
/// the child's `ru_maxrss`, so a test process of 265 MB made every child read
/// at least 265 MB. `ru_maxrss` stays the figure when no sample was read.
struct ChildRun {
    /// The exit status, or 128 + the signal that ended it.
    var status: Int32
    /// The signal that ended it (a crash, a trap, or our SIGKILL at the time-out).
    var signal: Int32?
    /// Whether it was still running at the time-out, and killed.
    var timedOut = false
    var stderr: String
    var seconds: Double
    var peakResidentBytes: Int

    /// What it printed: standard error, with standard output when kept.
    var output: String { stderr }
    /// Whether it ended by itself with `exit`, neither killed nor crashed.
    var exited: Bool { signal == nil && !timedOut }

    var summary: String {
        String(format: "exit %d in %.3f s, peak RSS %d MB: %@", status, seconds, peakResidentBytes >> 20,
               stderr.split(separator: "\n").first.map { String($0.prefix(160)) } ?? "")
    }

    /// Runs `executable` with `arguments`, the test process's environment plus
    /// `environment`, and waits for it. Its standard output is discarded, or
    /// with `keepingOutput` kept in `stderr` with its standard error.
    /// Past `timeout` seconds it is killed (SIGKILL) and `timedOut` is set.
    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], keepingOutput: Bool = false,
         timeout: TimeInterval = 600) throws {
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
        let deadline = start.addingTimeInterval(timeout)
        var sampledPeak = 0
        while true {
            // posix_spawn returns once the child has exec'd: its VmHWM is its own image's from here on.
            sampledPeak = max(sampledPeak, Self.peakResidentBytes(of: pid))
            let waited = wait4(pid, &waitStatus, WNOHANG, &usage)
            if waited == pid || (waited < 0 && errno != EINTR) { break }
            if Date() > deadline, !timedOut {
                timedOut = true
                kill(pid, SIGKILL)
            }
            usleep(5_000)
        }
        seconds = Date().timeIntervalSince(start)
        let terminatingSignal = waitStatus & 0x7F
        signal = terminatingSignal == 0 ? nil : terminatingSignal
        status = terminatingSignal == 0 ? (waitStatus >> 8) & 0xFF : 128 + terminatingSignal
        peakResidentBytes = sampledPeak > 0 ? sampledPeak : Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
        stderr = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
    }

    /// `pid`'s peak resident memory so far (`VmHWM`), or 0 when it cannot be read.
    private static func peakResidentBytes(of pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
        return kilobytes * 1024
    }
}

/// Runs one test of this test binary again, alone, in a child process: for
/// what would kill the test run (a platform trap, a crash a fix prevents) and
/// for memory, which is measured per process (a runaway stays in the child).
extension XCTestCase {
    private static let childVariable = "URLSCHEMEKIT_CHILD_TEST"

    /// True in the child process that `runInChildProcess` started for this test.
    var isChildTest: Bool { ProcessInfo.processInfo.environment[Self.childVariable] == name }

    /// Runs this same test again in a child process, the test bundle started
    /// for it alone, with `environment` added (where `isChildTest` is true, so
    /// the test does its work there instead of coming back here). Its output
    /// is kept; past `timeout` it is killed.
    func runInChildProcess(environment: [String: String] = [:], timeout: TimeInterval = 120) throws -> ChildRun {
        // XCTest names a test "Class.method" here, and selects one as "Module.Class/method".
        let parts = name.split(separator: ".").map(String.init)
        let selector = parts.count == 2 ? "URLSchemeKitTests.\(parts[0])/\(parts[1])" : name
        var variables = environment
        variables[Self.childVariable] = name
        return try ChildRun(CommandLine.arguments[0], [selector], environment: variables, keepingOutput: true, timeout: timeout)
    }
}

/// This process's resident memory now, from `/proc/self/status` (Linux).
func residentBytes(_ field: String = "VmRSS") -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
          let kilobytes = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") else { return 0 }
    return kilobytes * 1024
}
