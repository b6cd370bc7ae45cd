import Foundation
import ImageCodecs
import MapRendering

/// A 512×512 snapshot of central Helsinki (our zoom 15, MapLibre's 14) from the
/// OpenMapTiles test archive with the label-free light style, against MapLibre
/// Native (PyPI `pymgl`, Mesa's software OpenGL) drawing the same style from
/// the `.mbtiles` beside it: cold (open the archive, read, inflate, decode,
/// style, draw, encode PNG; MapLibre: a new map and its PNG) with goal ≤ 0.25×,
/// and warm (tiles already decoded; MapLibre: rendering its map again) ≤ 0.5×;
/// then the same view @2x (scale 2, 1024×1024 pixels; MapLibre: pixel ratio 2)
/// with the same goals.
/// Then the same view with the built-in light style, labels and all (street
/// names along their streets, place names), ours alone: MapLibre would need
/// glyph PBFs for its labels, and its fonts differ anyway. Then the peak memory
/// of a 2048×2048 Florence snapshot (`VectorMapMemoryBenchmark`).
struct VectorMapBenchmarks: BenchmarkSuite {
    let name = "vectormap"
    let summary = "512×512 Helsinki vector map snapshot vs MapLibre Native (pymgl, Mesa), cold and warm"

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let tiles = BenchmarkContext.vectorTileFixtures
        let archiveURL = tiles.appendingPathComponent("helsinki-openmaptiles.pmtiles")
        let styleURL = tiles.appendingPathComponent("helsinki-label-free-style.json")
        let style = try VectorStyle(data: Data(contentsOf: styleURL))
        /// Cold (a new archive and renderer, drawn and encoded) and warm (drawn again) medians, and the PNG's size.
        func measure(_ style: VectorStyle, scale: Double = 1) throws -> (cold: Double, warm: Double, bytes: Int) {
            let camera = VectorMapCamera(center: GeoCoordinate(latitude: 60.170, longitude: 24.945), zoom: 15,
                                         width: 512, height: 512, scale: scale)
            var bytes = 0
            let cold = try Stopwatch.median(iterations: context.iterations) {
                let renderer = VectorMapRenderer(archive: try PMTilesArchive(url: archiveURL), sourceName: "helsinki", style: style)
                bytes = try PNGEncoder().encode(try renderer.render(camera)).count
            }
            let renderer = VectorMapRenderer(archive: try PMTilesArchive(url: archiveURL), sourceName: "helsinki", style: style)
            let warm = try Stopwatch.median(iterations: context.iterations) { _ = try renderer.render(camera) }
            return (cold, warm, bytes)
        }
        let (cold, warm, bytes) = try measure(style)
        let double = try measure(style, scale: 2)
        // Without pymgl (it needs Mesa's EGL) the rows print ours alone.
        let reference = (try? context.runReference(script: "vector_map.py", arguments: [
            "--style", styleURL.path, "--mbtiles", tiles.appendingPathComponent("helsinki-openmaptiles.mbtiles").path])) ?? [:]
        // Labelled: the built-in style, whose symbol layers place about 20 labels here.
        let labelled = try measure(try BuiltinVectorStyle(schema: .openMapTiles, look: .light).style())
        // The memory row needs the Florence archive and the `urlscheme` binary; without them it says why on stderr.
        var memory: [BenchmarkRow] = []
        do {
            memory = try VectorMapMemoryBenchmark.rows(context)
        } catch {
            FileHandle.standardError.write(Data("vectormap: no Florence memory row: \(error)\n".utf8))
        }
        return [
            BenchmarkRow(name: "vectormap-helsinki-z15-512-cold", ours: cold, reference: reference["cold"]?.seconds,
                         referenceName: reference["cold"]?.label ?? "MapLibre Native", goal: 0.25, detail: "PNG \(bytes) B"),
            BenchmarkRow(name: "vectormap-helsinki-z15-512-warm", ours: warm, reference: reference["warm"]?.seconds,
                         referenceName: reference["warm"]?.label ?? "MapLibre Native", goal: 0.5, detail: "tiles decoded, no encode"),
            BenchmarkRow(name: "vectormap-helsinki-z15-512@2x-cold", ours: double.cold, reference: reference["cold@2x"]?.seconds,
                         referenceName: reference["cold@2x"]?.label ?? "MapLibre Native", goal: 0.25, detail: "1024×1024 px, PNG \(double.bytes) B"),
            BenchmarkRow(name: "vectormap-helsinki-z15-512@2x-warm", ours: double.warm, reference: reference["warm@2x"]?.seconds,
                         referenceName: reference["warm@2x"]?.label ?? "MapLibre Native", goal: 0.5, detail: "1024×1024 px, tiles decoded, no encode"),
            BenchmarkRow(name: "vectormap-helsinki-z15-512-labelled-cold", ours: labelled.cold, reference: nil,
                         referenceName: "none (labels)", goal: nil, detail: "built-in light style, PNG \(labelled.bytes) B"),
            BenchmarkRow(name: "vectormap-helsinki-z15-512-labelled-warm", ours: labelled.warm, reference: nil,
                         referenceName: "none (labels)", goal: nil, detail: "built-in light style, tiles decoded, no encode"),
        ] + memory
    }
}
