import Foundation
import MapRendering

/// MVT decode of the heaviest tile of the Florence archive (14/8704/5971,
/// 531 KB of protobuf, 12 613 features) against vtzero's full decode of the
/// same bytes (C++ -O2: every table, property and point, into flat arrays).
/// Goal ≤ 2× (issue 25). The archive is `../shared/data/pmtiles/firenze.pmtiles`
/// beside the checkout, or `$URLSCHEME_FLORENCE_PMTILES`.
struct VectorTileBenchmarks: BenchmarkSuite {
    let name = "vectortiles"
    let summary = "MVT decode of the heaviest Florence z14 tile vs vtzero (C++ -O2)"

    static let tile = TileCoordinate(z: 14, x: 8704, y: 5971)

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let archive = try PMTilesArchive(url: try Self.florence())
        guard let bytes = try archive.tileData(at: Self.tile) else {
            throw BenchmarkError("the Florence archive has no tile \(Self.tile)")
        }
        let file = context.workDirectory.appendingPathComponent("firenze-14-8704-5971.mvt")
        try Data(bytes).write(to: file)
        var features = 0, points = 0
        let seconds = try Stopwatch.median(iterations: max(21, context.iterations)) {
            let tile = try bytes.withUnsafeBufferPointer { try VectorTile(bytes: $0) }
            features = tile.featureCount
            points = tile.layers.reduce(0) { $0 + $1.points.count }
        }
        let row = "mvt-decode-firenze-14-8704-5971"
        let reference = try context.runReference(script: "mvt.py", arguments: ["--tile", file.path, "--row", row, "--work", context.workDirectory.path])
        let detail = "\(bytes.count) B, \(features) features, \(points) points"
        return [BenchmarkRow(name: row, ours: seconds, reference: reference[row]?.seconds,
                             referenceName: reference[row]?.label ?? "vtzero", goal: 2.0, detail: detail)]
    }

    /// The Florence archive: `$URLSCHEME_FLORENCE_PMTILES`, or `shared/data`
    /// beside the checkout (or beside its parent, for a worktree).
    static func florence() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["URLSCHEME_FLORENCE_PMTILES"] { return URL(fileURLWithPath: path) }
        let package = BenchmarkContext.benchmarksDirectory.deletingLastPathComponent()
        for up in ["..", "../.."] {
            let url = package.appendingPathComponent("\(up)/shared/data/pmtiles/firenze.pmtiles").standardizedFileURL
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        throw BenchmarkError("firenze.pmtiles not found beside the checkout; set URLSCHEME_FLORENCE_PMTILES")
    }
}
