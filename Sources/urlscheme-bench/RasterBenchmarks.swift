import Foundation
import Raster

/// Issue 5's speed goals: Lanczos resize and Gaussian blur against Pillow, and a
/// vector scene (filled polygons + stroked polylines) against aggdraw (AGG) and pycairo.
struct RasterBenchmarks: BenchmarkSuite {
    let name = "raster"
    let summary = "resize, blur and anti-aliased vector drawing vs Pillow, aggdraw and pycairo"

    /// The vector scene, deterministic and written to a file so both sides draw the same thing.
    struct Scene {
        static let size = 1024
        var polygons: [[Point]] = []
        var polylines: [[Point]] = []

        init() {
            var random = SplitMix(seed: 0x5EED_0005)
            func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
            for _ in 0..<2000 {
                let cx = unit() * 1024, cy = unit() * 1024, base = 10 + unit() * 50
                polygons.append((0..<50).map { i in
                    let angle = Double(i) / 50 * 2 * .pi
                    let r = base * (0.6 + 0.4 * unit())
                    return Point(cx + r * cos(angle), cy + r * sin(angle))
                })
            }
            for _ in 0..<500 {
                var p = Point(unit() * 1024, unit() * 1024)
                var line = [p]
                for _ in 0..<19 {
                    p = Point(p.x + (unit() - 0.5) * 60, p.y + (unit() - 0.5) * 60)
                    line.append(p)
                }
                polylines.append(line)
            }
        }

        /// Colour of the i-th shape (the reference script computes the same).
        static func colour(_ i: Int) -> RGBA {
            RGBA(UInt8(i * 37 % 256), UInt8(i * 91 % 256), UInt8(i * 53 % 256))
        }

        /// Little-endian float64 x, y pairs: polygons first (2000 × 50), then polylines (500 × 20).
        func write(to url: URL) throws {
            var values: [Double] = []
            for shape in polygons + polylines { for p in shape { values += [p.x, p.y] } }
            let data = values.withUnsafeBufferPointer { Data(buffer: $0) }
            try data.write(to: url)
        }

        func draw() throws -> Canvas {
            var canvas = try Canvas(width: Scene.size, height: Scene.size, background: .white)
            for (i, polygon) in polygons.enumerated() {
                try canvas.fill(polygons: [polygon], color: Scene.colour(i))
            }
            let style = StrokeStyle(width: 3, join: .miter, cap: .butt)
            for (i, line) in polylines.enumerated() {
                try canvas.stroke(Path(polyline: line), color: Scene.colour(i + 7), style: style)
            }
            return canvas
        }
    }

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let photo = try context.image(.photo)
        let photoFile = try context.rawFile(.photo)
        let scene = Scene()
        let sceneFile = context.workDirectory.appendingPathComponent("raster-scene.f64")
        try scene.write(to: sceneFile)
        let reference = try context.runReference(script: "raster.py", arguments: [photoFile.path, sceneFile.path])

        var rows: [BenchmarkRow] = []
        let resize = try Stopwatch.median(iterations: context.iterations) {
            _ = try photo.resized(width: 480, height: 320, filter: .lanczos3)
        }
        rows.append(BenchmarkRow(name: "resize 1920×1280 → 480×320 Lanczos", ours: resize,
                                 reference: reference["resize"]?.seconds, referenceName: reference["resize"]?.label ?? "Pillow",
                                 goal: 1.0))
        let blur = try Stopwatch.median(iterations: context.iterations) {
            _ = try photo.applying(.blur(radius: 2))
        }
        rows.append(BenchmarkRow(name: "Gaussian blur radius 2, photo", ours: blur,
                                 reference: reference["blur"]?.seconds, referenceName: reference["blur"]?.label ?? "Pillow",
                                 goal: 1.0))
        let vector = try Stopwatch.median(iterations: context.iterations) { _ = try scene.draw() }
        let detail = "2,000 polygons × 50 pts + 500 polylines × 20 pts, width 3, 1024²"
        for key in ["aggdraw", "cairo"] {
            guard let result = reference[key] else { continue }
            rows.append(BenchmarkRow(name: "vector scene", ours: vector, reference: result.seconds,
                                     referenceName: result.label ?? key, goal: key == "aggdraw" ? 1.0 : nil, detail: detail))
        }
        if reference["aggdraw"] == nil && reference["cairo"] == nil {
            rows.append(BenchmarkRow(name: "vector scene", ours: vector, reference: nil, referenceName: "aggdraw missing",
                                     goal: 1.0, detail: detail))
        }
        return rows
    }
}
