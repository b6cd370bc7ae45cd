import Foundation
import ImageCodecs
import Raster

/// Animated WebP decode of 100 lossless frames at 1000×1000 (written by the
/// reference script with libwebp's encoder) to every composited RGBA frame,
/// through `ImageDecoder.animation`, against Pillow (libwebp's
/// WebPAnimDecoder); the row also gives our peak memory while decoding, in
/// frames of 4 MB above the process's peak before (issue 26's goal: at most
/// 4; meaningful when the suite runs first, or alone).
struct WebPAnimatedBenchmarks: BenchmarkSuite {
    let name = "webp-animated"
    let summary = "animated WebP (100 lossless frames at 1000×1000) to composited RGBA frames vs Pillow; peak memory"

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let url = context.workDirectory.appendingPathComponent("animated-1000x1000-100.webp")
        let reference = try context.runReference(script: "webp_animated.py", arguments: [url.path])
        let data = try Data(contentsOf: url)
        let before = Stopwatch.peakResidentBytes()
        var frames = try Self.decodeAll(data)
        let growth = Double(max(0, Stopwatch.peakResidentBytes() - before)) / Double(1000 * 1000 * 4)
        let seconds = try Stopwatch.median(iterations: context.iterations) { frames = try Self.decodeAll(data) }
        let key = "decode-animated-1000x1000-100"
        return [BenchmarkRow(name: key, ours: seconds, reference: reference[key]?.seconds,
                             referenceName: reference[key]?.label ?? "Pillow", goal: 1.0,
                             detail: String(format: "%d frames, %d B; peak memory +%.2f frames of 4 MB (goal ≤ 4)", frames, data.count, growth))]
    }

    /// Decodes every frame, keeping none; returns how many there were.
    private static func decodeAll(_ data: Data) throws -> Int {
        var animation = try ImageDecoder.animation(data)
        var count = 0
        while try animation.nextFrame() != nil { count += 1 }
        return count
    }

}
