import Foundation
import Raster

/// Issue "Raster": the polygon-and-polyline scene of `anchors.md` drawn by our
/// `Canvas` and by aggdraw (anti-aliased AGG), from the same geometry file.
struct RasterBenchmarks: BenchmarkSuite {
    let name = "raster"
    let summary = "2,000 AA polygons + 500 polylines on 1024² vs aggdraw"

    struct Scene: Codable {
        var polygons: [[Double]]
        var polygonColors: [[UInt8]]
        var lines: [[Double]]
        var lineColors: [[UInt8]]
    }

    /// Deterministic geometry: star-shaped polygons of 50 vertices and
    /// 20-point random-walk polylines, in translucent colours.
    static func scene() -> Scene {
        var random = SplitMix(seed: 0xA66D_2A11)
        func unit() -> Double { Double(random.next() % 1_000_000) / 1_000_000 }
        func color() -> [UInt8] { [UInt8(random.next() % 256), UInt8(random.next() % 256), UInt8(random.next() % 256), 200] }
        var scene = Scene(polygons: [], polygonColors: [], lines: [], lineColors: [])
        for _ in 0..<2_000 {
            let cx = unit() * 1024, cy = unit() * 1024, radius = 10 + unit() * 50
            var points: [Double] = []
            for i in 0..<50 {
                let angle = Double(i) / 50 * 2 * .pi, r = radius * (0.5 + 0.5 * unit())
                points += [cx + r * cos(angle), cy + r * sin(angle)]
            }
            scene.polygons.append(points)
            scene.polygonColors.append(color())
        }
        for _ in 0..<500 {
            var x = unit() * 1024, y = unit() * 1024
            var points: [Double] = [x, y]
            for _ in 1..<20 {
                x += (unit() - 0.5) * 80
                y += (unit() - 0.5) * 80
                points += [x, y]
            }
            scene.lines.append(points)
            scene.lineColors.append(color())
        }
        return scene
    }

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let scene = Self.scene()
        let file = context.workDirectory.appendingPathComponent("scene.json")
        try JSONEncoder().encode(scene).write(to: file)
        let reference = try context.runReference(script: "raster.py", arguments: [file.path])
        let polygons = scene.polygons.map { flat in Path(polygon: stride(from: 0, to: flat.count, by: 2).map { Point(flat[$0], flat[$0 + 1]) }) }
        let lines = scene.lines.map { flat in Path(polyline: stride(from: 0, to: flat.count, by: 2).map { Point(flat[$0], flat[$0 + 1]) }) }
        let rgba = { (c: [UInt8]) in RGBA(c[0], c[1], c[2], c[3]) }
        let seconds = try Stopwatch.median(iterations: context.iterations) {
            var canvas = try Canvas(width: 1024, height: 1024, background: .white)
            for (path, color) in zip(polygons, scene.polygonColors) { try canvas.fill(path, color: rgba(color)) }
            let style = StrokeStyle(width: 3, join: .miter, cap: .butt)
            for (path, color) in zip(lines, scene.lineColors) { try canvas.stroke(path, color: rgba(color), style: style) }
        }
        return reference.sorted { $0.key < $1.key }.map { key, theirs in
            BenchmarkRow(name: "2,000 polygons (50 pts) + 500 polylines (w 3), 1024²", ours: seconds, reference: theirs.seconds,
                         referenceName: theirs.label ?? key, goal: 1.0)
        }
    }
}
