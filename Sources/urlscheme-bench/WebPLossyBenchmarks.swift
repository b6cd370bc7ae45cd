import Foundation
import ImageCodecs
import Raster

/// WebP lossy decode of a photo-sized image (the benchmark photo at
/// 4000×3000, 12 MP, encoded at quality 80 by Pillow's writer, libwebp's
/// encoder) to RGBA, against Pillow (libwebp) and `dwebp` (libwebp with its
/// SIMD, one thread). Goals ≤ 1.0× Pillow and ≤ 1.5× dwebp (issue 26).
struct WebPLossyBenchmarks: BenchmarkSuite {
    let name = "webp-lossy"
    let summary = "WebP lossy decode of a 12 MP q80 photo vs Pillow and dwebp (libwebp)"

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let width = 4000, height = 3000
        let raw = context.workDirectory.appendingPathComponent("photo-\(width)x\(height).rgba")
        try Data(BenchmarkImages.photo(width: width, height: height).pixels).write(to: raw)
        let file = context.workDirectory.appendingPathComponent("photo-lossy-q80.webp")
        let reference = try context.runReference(script: "webp_lossy.py",
                                                 arguments: [raw.path, String(width), String(height), file.path])
        let data = try Data(contentsOf: file)
        let decoder = WebPDecoder()
        let seconds = try Stopwatch.median(iterations: context.iterations) { _ = try decoder.decode(data) }
        let pillow = reference["decode-lossy-photo"], dwebp = reference["decode-lossy-photo-dwebp"]
        var rows = [BenchmarkRow(name: "decode-lossy-photo-12MP", ours: seconds, reference: pillow?.seconds,
                                 referenceName: pillow?.label ?? "Pillow", goal: 1.0,
                                 detail: "\(data.count) B, q80 from Pillow's writer")]
        if let dwebp {
            rows.append(BenchmarkRow(name: "decode-lossy-photo-12MP", ours: seconds, reference: dwebp.seconds,
                                     referenceName: dwebp.label ?? "dwebp", goal: 1.5,
                                     detail: "dwebp's time includes starting its process"))
        }
        return rows
    }
}
