import Foundation
import ImageCodecs
import Raster

/// PNG decoding and encoding and deflate against Pillow and Python's zlib, on
/// the standard photo-like and map-like images. Goals from issue "ImageCodecs,
/// part 3": PNG decode ≤ 0.8× Pillow, deflate at the default level ≤ 0.5× zlib's
/// level 6 at ≤ 1.01× its size, inflate ≤ 0.7× zlib; encode ≤ 0.3× (part 1).
struct PNGBenchmarks: BenchmarkSuite {
    let name = "png"
    let summary = "PNG encode and deflate vs Pillow / zlib"

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let photo = try context.rawFile(.photo), map = try context.rawFile(.map)
        // One level-6 file per image, decoded by both sides.
        var files: [BenchmarkImages.Kind: Data] = [:]
        for kind in BenchmarkImages.Kind.allCases {
            let file = try PNGEncoder(level: 6).encode(try context.image(kind))
            try file.write(to: context.workDirectory.appendingPathComponent("\(kind.rawValue)-6.png"))
            files[kind] = file
        }
        let reference = try context.runReference(script: "png.py", arguments: [
            photo.path, map.path,
            context.workDirectory.appendingPathComponent("photo-6.png").path,
            context.workDirectory.appendingPathComponent("map-6.png").path,
            context.workDirectory.appendingPathComponent("photo-zlib6.z").path,
        ])
        var rows: [BenchmarkRow] = []
        for kind in BenchmarkImages.Kind.allCases {
            let file = files[kind] ?? Data()
            let seconds = try Stopwatch.median(iterations: context.iterations) { _ = try PNGDecoder().decode(file) }
            let theirs = reference["decode_\(kind.rawValue)"]
            rows.append(BenchmarkRow(name: "PNG decode \(kind.rawValue), level-6 file (\(file.count) B)", ours: seconds,
                                     reference: theirs?.seconds, referenceName: theirs?.label ?? "Pillow", goal: 0.8))
        }
        for kind in BenchmarkImages.Kind.allCases {
            let bitmap = try context.image(kind)
            var size = 0
            let seconds = try Stopwatch.median(iterations: context.iterations) {
                size = try PNGEncoder().encode(bitmap).count
            }
            let theirs = reference["encode_\(kind.rawValue)"]
            rows.append(BenchmarkRow(
                name: "PNG encode \(kind.rawValue), default level", ours: seconds, reference: theirs?.seconds,
                referenceName: theirs?.label ?? "Pillow", goal: 0.3,
                detail: "\(size) B vs \(theirs?.bytes ?? 0) B (\(String(format: "%.3f", Double(size) / Double(max(1, theirs?.bytes ?? 1))))×)"))
        }
        let raw = try context.image(.photo).pixels
        var compressed = 0
        let deflate = Stopwatch.median(iterations: context.iterations) {
            compressed = DeflateEncoder(level: 6).zlibCompress(raw).count
        }
        let zlib = reference["deflate_photo"]
        let megabytes = Double(raw.count) / 1e6
        rows.append(BenchmarkRow(
            name: "deflate level 6, photo RGBA (\(raw.count / 1_000_000) MB)", ours: deflate, reference: zlib?.seconds,
            referenceName: zlib?.label ?? "zlib", goal: 0.5,
            detail: String(format: "%.0f MB/s vs %.0f MB/s; %d B vs %d B (%.3f×; goal ≤ 1.010×)", megabytes / deflate,
                           megabytes / (zlib?.seconds ?? .nan), compressed, zlib?.bytes ?? 0,
                           Double(compressed) / Double(max(1, zlib?.bytes ?? 1)))))
        // Inflate: the same zlib stream (zlib's own level 6, written by the reference script) on both sides.
        let stream = try [UInt8](Data(contentsOf: context.workDirectory.appendingPathComponent("photo-zlib6.z")))
        let inflate = try Stopwatch.median(iterations: context.iterations) {
            _ = try Inflater.zlibDecompress(stream, expectedSize: raw.count, limit: raw.count)
        }
        let zlibInflate = reference["inflate_photo"]
        rows.append(BenchmarkRow(
            name: "inflate, photo RGBA at zlib level 6", ours: inflate, reference: zlibInflate?.seconds,
            referenceName: zlibInflate?.label ?? "zlib", goal: 0.7,
            detail: String(format: "%.0f MB/s vs %.0f MB/s (output)", megabytes / inflate, megabytes / (zlibInflate?.seconds ?? .nan))))
        return rows
    }
}
