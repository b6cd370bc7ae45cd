import Foundation
import ImageCodecs
import Raster

/// Lossy WebP encoding of the photo-like and map-like images against libwebp
/// at `cwebp -q 75 -m 4`'s settings (through Pillow, in process): time, size,
/// and the PSNR and SSIM of both files decoded by Pillow. Goals (issue 39):
/// at equal quality (PSNR within 0.1 dB, SSIM within 0.002), size ≤ 1.05×
/// libwebp's and time ≤ 1.0×.
struct WebPLossyEncodeBenchmarks: BenchmarkSuite {
    let name = "webp-encode-lossy"
    let summary = "WebP lossy encode (q75) of the photo and map images vs libwebp (cwebp -q 75 -m 4)"

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        var arguments: [String] = []
        var ours: [BenchmarkImages.Kind: (seconds: Double, bytes: Int)] = [:]
        for kind in BenchmarkImages.Kind.allCases {
            let bitmap = try context.image(kind)
            var file = Data()
            let seconds = try Stopwatch.median(iterations: context.iterations) {
                file = try WebPLossyEncoder(quality: 75).encode(bitmap)
            }
            let url = context.workDirectory.appendingPathComponent("\(kind.rawValue)-ours-q75.webp")
            try file.write(to: url)
            ours[kind] = (seconds, file.count)
            arguments += [try context.rawFile(kind).path, url.path]
        }
        let reference = try context.runReference(script: "webp_encode_lossy.py", arguments: arguments)
        return BenchmarkImages.Kind.allCases.map { kind in
            let mine = ours[kind]!, theirs = reference["encode_\(kind.rawValue)"]
            var detail = String(format: "%d B vs %d B (%.3f×; goal ≤ 1.05×)", mine.bytes, theirs?.bytes ?? 0,
                                Double(mine.bytes) / Double(max(1, theirs?.bytes ?? 0)))
            if let psnr = theirs?.psnr, let oursPSNR = theirs?.oursPSNR, let ssim = theirs?.ssim, let oursSSIM = theirs?.oursSSIM {
                detail += String(format: "; PSNR %.2f vs %.2f dB, SSIM %.4f vs %.4f (Pillow decodes both)",
                                 oursPSNR, psnr, oursSSIM, ssim)
            }
            return BenchmarkRow(name: "WebP lossy encode \(kind.rawValue), q75", ours: mine.seconds, reference: theirs?.seconds,
                                referenceName: theirs?.label ?? "libwebp", goal: 1.0, detail: detail)
        }
    }
}
