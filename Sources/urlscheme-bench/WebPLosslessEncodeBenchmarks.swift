import Foundation
import ImageCodecs
import Raster

/// Lossless WebP encoding of the photo-like and map-like images against
/// libwebp at `cwebp -lossless -z 6 -exact`'s settings (method 4, quality
/// 75, through Pillow, in process), time and size. Goals (issue 39): size
/// ≤ 1.02× libwebp's, time ≤ 1.0×.
struct WebPLosslessEncodeBenchmarks: BenchmarkSuite {
    let name = "webp-encode-lossless"
    let summary = "WebP lossless encode of the photo and map images vs libwebp (cwebp -z 6)"

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let photo = try context.rawFile(.photo), map = try context.rawFile(.map)
        let reference = try context.runReference(script: "webp_encode_lossless.py", arguments: [photo.path, map.path])
        var rows: [BenchmarkRow] = []
        for kind in BenchmarkImages.Kind.allCases {
            let bitmap = try context.image(kind)
            var file = Data()
            let seconds = try Stopwatch.median(iterations: context.iterations) {
                file = try WebPLosslessEncoder().encode(bitmap)
            }
            // Exact, or the row means nothing.
            guard try WebPDecoder().decode(file).pixels == bitmap.pixels else {
                throw BenchmarkError("the lossless WebP of the \(kind.rawValue) image does not decode to the same pixels")
            }
            let theirs = reference["encode_\(kind.rawValue)"]
            let theirBytes = theirs?.bytes ?? 0
            rows.append(BenchmarkRow(
                name: "WebP lossless encode \(kind.rawValue), effort 6", ours: seconds, reference: theirs?.seconds,
                referenceName: theirs?.label ?? "libwebp", goal: 1.0,
                detail: String(format: "%d B vs %d B (%.3f×; goal ≤ 1.02×)", file.count, theirBytes,
                               Double(file.count) / Double(max(1, theirBytes)))))
        }
        return rows
    }
}
