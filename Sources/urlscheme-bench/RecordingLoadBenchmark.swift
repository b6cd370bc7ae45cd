import Foundation
import URLSchemeKitTesting

/// A 50 MB HAR recording (5,000 entries of 10,000-character text bodies)
/// read by `HTTPRecorder` in a child process (`urlscheme-bench
/// recording-load-child FILE`), so its wall time and peak resident memory
/// (`wait4`'s rusage) are the load's: start, read, parse, index, exit.
enum RecordingLoadBenchmark {
    static let entries = 5_000
    static let bodySize = 10_000

    /// A hostile recording of 100,000 entries, refused by `HARReader.maximumEntries`
    /// (status 1, the error on stderr): its time and peak memory in the same child.
    static func hostileRow(_ context: BenchmarkContext) throws -> BenchmarkRow {
        let file = context.workDirectory.appendingPathComponent("hostile-100000.har")
        let entry = #"{"request": {"method": "GET", "url": "https://h/"}, "response": {"status": 200}}"#
        try Data((#"{"log": {"version": "1.2", "entries": ["# + Array(repeating: entry, count: 100_000).joined(separator: ",") + "]}}").utf8).write(to: file)
        let (status, seconds, peak) = try VectorMapMemoryBenchmark.run(CommandLine.arguments[0], ["recording-load-child", file.path])
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
        let (status, seconds, peak) = try VectorMapMemoryBenchmark.run(CommandLine.arguments[0], ["recording-load-child", file.path])
        guard status == 0 else { throw BenchmarkError("recording-load-child \(file.path) exited with \(status)") }
        let (baseStatus, baseSeconds, basePeak) = try VectorMapMemoryBenchmark.run(CommandLine.arguments[0], ["recording-load-child"])
        guard baseStatus == 0 else { throw BenchmarkError("recording-load-child without a file exited with \(baseStatus)") }
        return BenchmarkRow(name: "load a \(size / 1_000_000) MB recording (\(entries) entries), child process", ours: seconds,
                            reference: baseSeconds, referenceName: "the same child loading nothing", goal: nil,
                            detail: "peak RSS \(peak >> 20) MiB (\(basePeak >> 20) MiB loading nothing)")
    }

    /// The child: reads the recording at `arguments[0]` (none: starts and exits), then exits 0.
    static func runChild(_ arguments: [String]) -> Never {
        if let path = arguments.first {
            var options = HTTPRecorder.Options()
            options.mode = .replay
            options.environment = [:]
            do {
                let recorder = try HTTPRecorder(file: URL(fileURLWithPath: path), options: options)
                guard recorder.entries.count == entries else { exit(3) }
            } catch {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                exit(1)
            }
        }
        exit(0)
    }
}
