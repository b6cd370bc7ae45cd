import Foundation
import ImageCodecs
import MapRendering

/// A 512×512 snapshot of central Helsinki (our zoom 15, MapLibre's 14) from the
/// OpenMapTiles test archive with the label-free light style, against MapLibre
/// Native (PyPI `pymgl`, Mesa's software OpenGL) drawing the same style from
/// the `.mbtiles` beside it: cold (open the archive, read, inflate, decode,
/// style, draw, encode PNG; MapLibre: a new map and its PNG) with goal ≤ 0.25×,
/// and warm (tiles already decoded; MapLibre: rendering its map again) ≤ 0.5×;
/// then the peak memory of a 2048×2048 Florence snapshot (`VectorMapMemoryBenchmark`).
struct VectorMapBenchmarks: BenchmarkSuite {
    let name = "vectormap"
    let summary = "512×512 Helsinki vector map snapshot vs MapLibre Native (pymgl, Mesa), cold and warm"

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let tiles = BenchmarkContext.benchmarksDirectory.deletingLastPathComponent()
            .appendingPathComponent("Tests/MapRenderingTests/Fixtures/tiles")
        let archiveURL = tiles.appendingPathComponent("helsinki-openmaptiles.pmtiles")
        let styleURL = tiles.appendingPathComponent("helsinki-label-free-style.json")
        let style = try VectorStyle(data: Data(contentsOf: styleURL))
        let camera = VectorMapCamera(center: GeoCoordinate(latitude: 60.170, longitude: 24.945), zoom: 15, width: 512, height: 512)
        var bytes = 0
        let cold = try Stopwatch.median(iterations: context.iterations) {
            let renderer = VectorMapRenderer(archive: try PMTilesArchive(url: archiveURL), sourceName: "helsinki", style: style)
            bytes = try PNGEncoder().encode(try renderer.render(camera)).count
        }
        let renderer = VectorMapRenderer(archive: try PMTilesArchive(url: archiveURL), sourceName: "helsinki", style: style)
        let warm = try Stopwatch.median(iterations: context.iterations) { _ = try renderer.render(camera) }
        // Without pymgl (it needs Mesa's EGL) the rows print ours alone.
        let reference = (try? context.runReference(script: "vector_map.py", arguments: [
            "--style", styleURL.path, "--mbtiles", tiles.appendingPathComponent("helsinki-openmaptiles.mbtiles").path])) ?? [:]
        return [
            BenchmarkRow(name: "vectormap-helsinki-z15-512-cold", ours: cold, reference: reference["cold"]?.seconds,
                         referenceName: reference["cold"]?.label ?? "MapLibre Native", goal: 0.25, detail: "PNG \(bytes) B"),
            BenchmarkRow(name: "vectormap-helsinki-z15-512-warm", ours: warm, reference: reference["warm"]?.seconds,
                         referenceName: reference["warm"]?.label ?? "MapLibre Native", goal: 0.5, detail: "tiles decoded, no encode"),
        ] + (try VectorMapMemoryBenchmark.rows(context))
    }
}
