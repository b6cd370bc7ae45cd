import Foundation
import ImageCodecs
import Raster

/// JPEG encode (q90 and q70, 4:2:0) and decode (full and 1/4 scale) of the
/// 1920×1280 photo and map images, and progressive q90 encode (optimised
/// tables) of the photo, against Pillow (libjpeg-turbo). Goal ≤ 1.0× on every
/// row (issue "ImageCodecs, part 3"; issue 4's first goal was 2×).
/// Both sides decode the same files (ours, written at q90). Encode rows also
/// give both files' PSNR against the raw image, as Pillow decodes them.
struct JPEGBenchmarks: BenchmarkSuite {
    let name = "jpeg"
    let summary = "JPEG encode q90/q70 4:2:0 (and progressive q90 photo) and decode full/quarter scale vs Pillow (libjpeg-turbo)"

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        var rows: [BenchmarkRow] = []
        var arguments: [String] = []
        var ours: [String: (seconds: Double, bytes: Int?)] = [:]
        for kind in [BenchmarkImages.Kind.photo, .map] {
            let bitmap = try context.image(kind)
            let image = kind.rawValue
            // Times `encoder` on the image and keeps its file for the reference script to judge.
            func timeEncode(_ name: String, _ encoder: JPEGEncoder) throws {
                var size = 0
                let seconds = try Stopwatch.median(iterations: context.iterations) {
                    size = try encoder.encode(bitmap).count
                }
                ours["encode-\(name)-\(image)"] = (seconds, size)
                let url = context.workDirectory.appendingPathComponent("\(image)-ours-\(name).jpg")
                try encoder.encode(bitmap).write(to: url)
                arguments += ["--\(image)-ours-\(name)", url.path]
            }
            for quality in [90, 70] {
                try timeEncode("q\(quality)", JPEGEncoder(quality: quality, subsampling: .yuv420))
            }
            if kind == .photo {
                try timeEncode("progressive-q90", JPEGEncoder(quality: 90, subsampling: .yuv420, progressive: true))
            }
            let file = try JPEGEncoder(quality: 90).encode(bitmap)
            let url = context.workDirectory.appendingPathComponent("\(image)-q90.jpg")
            try file.write(to: url)
            let decoder = JPEGDecoder()
            ours["decode-q90-\(image)"] = (try Stopwatch.median(iterations: context.iterations) {
                _ = try decoder.decode(file)
            }, nil)
            ours["decode-quarter-\(image)"] = (try Stopwatch.median(iterations: context.iterations) {
                _ = try decoder.decode(file, scale: .quarter)
            }, nil)
            arguments += ["--\(image)", try context.rawFile(kind).path, "--\(image)-jpeg", url.path]
        }
        let reference = try context.runReference(script: "jpeg.py", arguments: arguments)
        for key in ours.keys.sorted() {
            let mine = ours[key]!
            let theirs = reference[key]
            var detail = ""
            if let bytes = mine.bytes, let theirBytes = theirs?.bytes {
                detail = "\(bytes) B vs \(theirBytes) B"
            }
            if let psnr = theirs?.psnr, let oursPSNR = theirs?.oursPSNR {
                detail += String(format: "; PSNR %.2f dB vs %.2f dB (Pillow decodes both)", oursPSNR, psnr)
            }
            rows.append(BenchmarkRow(name: key, ours: mine.seconds, reference: theirs?.seconds,
                                     referenceName: theirs?.label ?? "Pillow", goal: 1.0, detail: detail))
        }
        return rows
    }
}
