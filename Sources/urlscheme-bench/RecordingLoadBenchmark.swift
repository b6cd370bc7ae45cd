import Foundation
import URLSchemeKitTesting

/// A 50 MB HAR recording (5,000 entries of 9,000-character text bodies)
/// read by `HTTPRecorder` in a child process (`urlscheme-bench
/// recording-load-child FILE`), so its wall time and peak resident memory
/// are the load's: start, read, parse, index, exit. The child reports its
/// own peak (`VmHWM` in /proc/self/status): `wait4`'s `ru_maxrss` would
/// include the parent's peak, which Linux carries into a child spawned
/// with a shared address space across its exec.
enum RecordingLoadBenchmark {
    static let entries = 5_000
    static let bodySize = 9_000

    /// A hostile recording of 100,000 entries, refused by `HARReader.maximumEntries`
    /// (status 1, the error on stderr): its time and peak memory in the same child.
    static func hostileRow(_ context: BenchmarkContext) throws -> BenchmarkRow {
        let file = context.workDirectory.appendingPathComponent("hostile-100000.har")
        let entry = #"{"request": {"method": "GET", "url": "https://h/"}, "response": {"status": 200}}"#
        try Data((#"{"log": {"version": "1.2", "entries": ["# + Array(repeating: entry, count: 100_000).joined(separator: ",") + "]}}").utf8).write(to: file)
        let (status, seconds, peak) = try child([file.path])
        guard status == 1 else { throw BenchmarkError("recording-load-child of 100,000 entries exited with \(status), not 1 (refused)") }
        return BenchmarkRow(name: "refuse a hostile recording of 100,000 entries, child process", ours: seconds, reference: nil,
                            referenceName: "", goal: nil, detail: "peak RSS \(peak >> 20) MiB (budget: 2 s, 300 MB)")
    }

    static func row(_ context: BenchmarkContext) throws -> BenchmarkRow {
        let file = context.workDirectory.appendingPathComponent("load-50mb.har")
        let body = Data(String(repeating: "0123456789", count: bodySize / 10).utf8)
        let har = HARFile(log: HARLog(entries: (0..<entries).map { index in
            HAREntry(startedDateTime: "2026-11-29T00:00:00.000Z", time: 1,
                     request: HARRequest(method: "GET", url: "https://api.example/items/\(index)", headers: [], body: nil),
                     response: HARResponse(status: 200, headers: [HARNameValue(name: "Content-Type", value: "text/plain")],
                                           content: HARContent(body: body, mimeType: "text/plain")))
        }))
        try HARWriter().write(har, to: file)
        let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        let (status, seconds, peak) = try child([file.path])
        guard status == 0 else { throw BenchmarkError("recording-load-child \(file.path) exited with \(status)") }
        let (baseStatus, baseSeconds, basePeak) = try child([])
        guard baseStatus == 0 else { throw BenchmarkError("recording-load-child without a file exited with \(baseStatus)") }
        return BenchmarkRow(name: "load a \(size / 1_000_000) MB recording (\(entries) entries), child process", ours: seconds,
                            reference: baseSeconds, referenceName: "the same child loading nothing", goal: nil,
                            detail: "peak RSS \(peak >> 20) MiB (\(basePeak >> 20) MiB loading nothing)")
    }

    /// Runs the child to its end: exit status, seconds, the peak resident bytes it reported.
    private static func child(_ arguments: [String]) throws -> (Int32, Double, Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["recording-load-child"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let start = Stopwatch.now()
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let seconds = Stopwatch.now() - start
        guard let kilobytes = text.split(separator: " ").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
            throw BenchmarkError("recording-load-child reported no peak: \(text)")
        }
        return (process.terminationStatus, seconds, kilobytes * 1024)
    }

    /// This process's peak resident set in kilobytes (`VmHWM`), or -1.
    private static func peakKilobytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line.flatMap { Int($0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") } ?? -1
    }

    /// The child: reads the recording at `arguments[0]` (none: starts and exits),
    /// prints `peak KB`, then exits 0 (1 when the recording is refused).
    static func runChild(_ arguments: [String]) -> Never {
        let status = load(arguments.first)
        print("peak \(peakKilobytes())")
        exit(status)
    }

    /// Reads the recording at `path` (nil: nothing): 0, 1 when refused, 3 for a wrong entry count.
    private static func load(_ path: String?) -> Int32 {
        guard let path else { return 0 }
        var options = HTTPRecorder.Options()
        options.mode = .replay
        options.environment = [:]
        do {
            let recorder = try HTTPRecorder(file: URL(fileURLWithPath: path), options: options)
            return recorder.entries.count == entries ? 0 : 3
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return 1
        }
    }
}
