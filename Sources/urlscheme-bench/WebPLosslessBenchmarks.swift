import Foundation
import ImageCodecs
import Raster

/// WebP lossless decode of a photo-sized image (the benchmark photo at
/// 3600×2400, 8.6 MP, made lossless by `cwebp -lossless`) to RGBA, against
/// Pillow (libwebp). Goal ≤ 1.0× (issue 26).
struct WebPLosslessBenchmarks: BenchmarkSuite {
    let name = "webp-lossless"
    let summary = "WebP lossless decode of an 8.6 MP photo (cwebp -lossless) vs Pillow (libwebp)"

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let width = 3600, height = 2400
        let raw = context.workDirectory.appendingPathComponent("photo-\(width)x\(height).rgba")
        try Data(BenchmarkImages.photo(width: width, height: height).pixels).write(to: raw)
        let file = context.workDirectory.appendingPathComponent("photo-lossless.webp")
        let reference = try context.runReference(script: "webp_lossless.py",
                                                 arguments: [raw.path, String(width), String(height), file.path])
        let data = try Data(contentsOf: file)
        let decoder = WebPDecoder()
        let seconds = try Stopwatch.median(iterations: context.iterations) { _ = try decoder.decode(data) }
        let theirs = reference["decode-lossless-photo"]
        return [BenchmarkRow(name: "decode-lossless-photo-8.6MP", ours: seconds, reference: theirs?.seconds,
                             referenceName: theirs?.label ?? "Pillow", goal: 1.0,
                             detail: "\(data.count) B from cwebp -lossless")]
    }
}
