import Foundation
import ImageCodecs
import Raster

/// GIF decode to every composited RGBA frame, through
/// `ImageDecoder.animation`, against Pillow doing the same (seek, then
/// convert to RGBA), on two files the reference script writes
/// (deterministic): an animated 800×450 of 20 frames (goal ≤ 1.0×, issue 26)
/// and a 1000×1000 of 100 frames, whose row also gives our peak memory while
/// decoding it, in frames of 4 MB above the process's peak before (goal:
/// at most 4, issue 26).
struct GIFBenchmarks: BenchmarkSuite {
    let name = "gif"
    let summary = "GIF decode of animated files to composited RGBA frames vs Pillow; peak memory of 100 frames at 1000×1000"

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let small = context.workDirectory.appendingPathComponent("animated-800x450.gif")
        let big = context.workDirectory.appendingPathComponent("animated-1000x1000-100.gif")
        // The reference writes the inputs first, then times its own side.
        let reference = try context.runReference(script: "gif.py", arguments: ["--gif", small.path, "--big-gif", big.path])
        var rows: [BenchmarkRow] = []

        // Memory first, while the process's peak is still its baseline.
        let bigData = try Data(contentsOf: big)
        let before = Self.peakResidentBytes()
        var frames = try Self.decodeAll(bigData)
        let growth = Double(max(0, Self.peakResidentBytes() - before)) / Double(1000 * 1000 * 4)
        let bigSeconds = try Stopwatch.median(iterations: context.iterations) { frames = try Self.decodeAll(bigData) }
        rows.append(row("decode-animated-1000x1000-100", bigSeconds, reference, goal: nil,
                        detail: String(format: "%d frames, %d B; peak memory +%.2f frames of 4 MB (goal ≤ 4)", frames, bigData.count, growth)))

        let data = try Data(contentsOf: small)
        let seconds = try Stopwatch.median(iterations: context.iterations) { frames = try Self.decodeAll(data) }
        rows.append(row("decode-animated-800x450", seconds, reference, goal: 1.0, detail: "\(frames) frames, \(data.count) B"))
        return rows
    }

    private func row(_ key: String, _ seconds: Double, _ reference: [String: ReferenceResult], goal: Double?, detail: String) -> BenchmarkRow {
        BenchmarkRow(name: key, ours: seconds, reference: reference[key]?.seconds,
                     referenceName: reference[key]?.label ?? "Pillow", goal: goal, detail: detail)
    }

    /// Decodes every frame, keeping none; returns how many there were.
    private static func decodeAll(_ data: Data) throws -> Int {
        var animation = try ImageDecoder.animation(data)
        var count = 0
        while try animation.nextFrame() != nil { count += 1 }
        return count
    }

    /// The process's peak resident set so far (`getrusage`, kilobytes on Linux).
    private static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024
    }
}
