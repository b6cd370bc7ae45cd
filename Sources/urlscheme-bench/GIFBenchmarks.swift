import Foundation
import ImageCodecs
import Raster

/// GIF decode of an animated 800×450, 20-frame file (written by the reference
/// script, deterministic) to every composited RGBA frame, through
/// `ImageDecoder.animation`, against Pillow doing the same (seek, then
/// convert to RGBA). Goal ≤ 1.0× (issue 26).
struct GIFBenchmarks: BenchmarkSuite {
    let name = "gif"
    let summary = "GIF decode of an animated 800×450, 20-frame file to composited RGBA frames vs Pillow"

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let url = context.workDirectory.appendingPathComponent("animated-800x450.gif")
        // The reference writes the input first, then times its own side.
        let reference = try context.runReference(script: "gif.py", arguments: ["--gif", url.path])
        let data = try Data(contentsOf: url)
        var frames = 0
        let seconds = try Stopwatch.median(iterations: context.iterations) {
            var animation = try ImageDecoder.animation(data)
            frames = 0
            while try animation.nextFrame() != nil { frames += 1 }
        }
        let key = "decode-animated-800x450"
        let theirs = reference[key]
        return [BenchmarkRow(name: key, ours: seconds, reference: theirs?.seconds, referenceName: theirs?.label ?? "Pillow",
                             goal: 1.0, detail: "\(frames) frames, \(data.count) B")]
    }
}
