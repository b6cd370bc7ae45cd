import Foundation
import ImageCodecs

/// Peak memory of decoding an animation of 100 frames at 1000×1000, frame by
/// frame through `ImageDecoder.animation`, each frame let go before the next,
/// measured in a child process of its own (this binary run as
/// `urlscheme-bench animation-memory-child FILE`), so nothing the rest of the
/// run allocated hides the growth: the child reads the file, resets its peak
/// resident set to the current one (Linux's `/proc/self/clear_refs`, so the
/// reading's own transient copies are not a head start) and notes it as the
/// baseline, decodes every frame, and reads the peak (`VmHWM`).
/// Issue 26's goal: at most 4 frames' worth (4 × 4 MB) above the baseline.
/// The inputs are the GIF and WebP suites' (written by their reference
/// scripts at run time); ours is the child's decode time, no reference.
struct AnimationMemoryBenchmarks: BenchmarkSuite {
    let name = "animation-memory"
    let summary = "peak memory above baseline of 100-frame 1000×1000 GIF and WebP animations decoded frame by frame, in a child process"

    /// Bytes of one 1000×1000 RGBA frame.
    static let frameBytes = 1000 * 1000 * 4

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let gif = context.workDirectory.appendingPathComponent("animated-1000x1000-100.gif")
        let webP = context.workDirectory.appendingPathComponent("animated-1000x1000-100.webp")
        if !FileManager.default.fileExists(atPath: gif.path) {
            let small = context.workDirectory.appendingPathComponent("animated-800x450.gif")
            _ = try context.runReference(script: "gif.py", arguments: ["--gif", small.path, "--big-gif", gif.path], iterations: 1)
        }
        if !FileManager.default.fileExists(atPath: webP.path) {
            _ = try context.runReference(script: "webp_animated.py", arguments: [webP.path], iterations: 1)
        }
        return try [("gif", gif), ("webp", webP)].map { format, file in
            let child = try Self.measure(file)
            let growth = Double(child.peak - child.baseline) / Double(Self.frameBytes)
            let detail = String(format: "%d frames, %d B; child's peak RSS %.1f MB, baseline %.1f MB (file read): +%.2f frames of 4 MB (goal ≤ 4)%@",
                                child.frames, (try? Data(contentsOf: file).count) ?? 0, Double(child.peak) / 1e6, Double(child.baseline) / 1e6,
                                growth, growth <= 4 ? " ✓" : " ✗")
            return BenchmarkRow(name: "memory-animated-\(format)-1000x1000-100", ours: child.seconds, reference: nil,
                                referenceName: "–", goal: nil, detail: detail)
        }
    }

    /// Runs this binary as a child that decodes `file` and reports its memory.
    private static func measure(_ file: URL) throws -> (baseline: Int, peak: Int, frames: Int, seconds: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["animation-memory-child", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard process.terminationStatus == 0, fields.count == 4, let baseline = Int(fields[0]), let peak = Int(fields[1]),
              let frames = Int(fields[2]), let seconds = Double(fields[3]) else {
            throw BenchmarkError("the animation-memory child for \(file.lastPathComponent) failed (status \(process.terminationStatus)): \(text)")
        }
        return (baseline, peak, frames, seconds)
    }

    /// Sets the peak resident set to the current one and returns it; without
    /// `/proc` (not Linux), the peak so far.
    private static func resetPeak() -> Int {
        guard let file = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return Stopwatch.peakResidentBytes() }
        file.write(Data("5".utf8))
        try? file.close()
        return status("VmHWM") ?? Stopwatch.peakResidentBytes()
    }

    /// A `/proc/self/status` field given in kB, in bytes.
    private static func status(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    /// The child's side: prints "BASELINE PEAK FRAMES SECONDS" (bytes, bytes, count, seconds) and exits.
    static func runChild(_ arguments: [String]) -> Never {
        guard let path = arguments.first, let data = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write(Data("usage: urlscheme-bench animation-memory-child FILE\n".utf8))
            exit(2)
        }
        let baseline = resetPeak()
        let start = Date()
        do {
            var animation = try ImageDecoder.animation(data)
            var frames = 0
            while try animation.nextFrame() != nil { frames += 1 }
            print(baseline, status("VmHWM") ?? Stopwatch.peakResidentBytes(), frames, Date().timeIntervalSince(start))
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
    }
}
