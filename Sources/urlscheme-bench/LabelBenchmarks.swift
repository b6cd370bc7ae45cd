import Foundation
import ImageCodecs
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MapRendering
import Raster
import URLSchemeKit

/// Issue "Maps that say where they are": 2,000 place names of 12 px text with
/// halos against Pillow's `ImageDraw.text` (FreeType, `stroke_width` for the
/// halo) with the same font file and size; and the README's zoom-5 map through
/// URLSession with labels against the same map with `labels=none`.
struct LabelBenchmarks: BenchmarkSuite {
    let name = "labels"
    let summary = "map labels: 2,000 haloed 12 px names vs Pillow ImageDraw.text; a zoom-5 map with and without labels"

    static let labelCount = 2000
    static let canvasSize = 1024
    static let textSize = 12.0
    static let haloWidth = 1.5
    static let text = RGBA(60, 60, 60), halo = RGBA(255, 255, 255)
    /// The README's Europe picture.
    static let europe = "map://?latitude=52&longitude=20&zoom=5&width=1000&height=600"

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let font = try TrueTypeFont.dejaVuSans
        // Real names (Latin with diacritics), at spread-out baseline origins.
        let names = try Place.all.prefix(Self.labelCount).map(\.name)
        let labels = names.enumerated().map { i, name in (name, Double(i * 97 % 900 + 10), Double(i * 53 % 1000 + 15)) }
        let fontFile = context.workDirectory.appendingPathComponent("DejaVuSans-subset.ttf")
        try Data(font.bytes).write(to: fontFile)
        let labelFile = context.workDirectory.appendingPathComponent("labels.json")
        try JSONSerialization.data(withJSONObject: labels.map { [$0.0, $0.1, $0.2] as [Any] }).write(to: labelFile)

        let ours = try Stopwatch.median(iterations: context.iterations) {
            var canvas = try Canvas(width: Self.canvasSize, height: Self.canvasSize, background: .white)
            for (name, x, y) in labels {
                try canvas.draw(text: name, font: font, size: Self.textSize, at: Point(x, y), color: Self.text, halo: Self.halo, haloWidth: Self.haloWidth)
            }
        }
        let reference = try context.runReference(script: "labels.py", arguments: [fontFile.path, labelFile.path])
        let pillow = reference["pillow"]
        let plain = try Stopwatch.median(iterations: context.iterations) {
            var canvas = try Canvas(width: Self.canvasSize, height: Self.canvasSize, background: .white)
            for (name, x, y) in labels { try canvas.draw(text: name, font: font, size: Self.textSize, at: Point(x, y), color: Self.text) }
        }
        var rows = [BenchmarkRow(name: "2,000 labels, 12 px DejaVu Sans with 1.5 px halos, 1024² canvas", ours: ours, reference: pillow?.seconds,
                                 referenceName: pillow?.label ?? "Pillow (not installed)", goal: 1.0,
                                 detail: String(format: "%.1f µs per label; without halos: ours %.2f ms, Pillow %@", ours / Double(Self.labelCount) * 1e6,
                                                plain * 1000, reference["pillow_plain"].map { String(format: "%.2f ms", $0.seconds * 1000) } ?? "–"))]

        // The README's zoom-5 map, cold, through URLSession: with labels and without.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: nil))
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let labelled = URL(string: Self.europe)!, unlabelled = URL(string: Self.europe + "&labels=none")!
        var png = Data()
        let withLabels = try Stopwatch.median(iterations: context.iterations) { png = try MapBenchmarks.load(labelled, session) }
        let withoutLabels = try Stopwatch.median(iterations: context.iterations) { _ = try MapBenchmarks.load(unlabelled, session) }
        // Where the time goes, stage by stage.
        let options = try MapURL(url: labelled).options
        let viewport = MapViewport(options: options)
        let palette = options.style.palette
        let project = try Stopwatch.median(iterations: context.iterations) { _ = try MapGeometry(viewport: viewport) }
        let geometry = try MapGeometry(viewport: viewport)
        var canvas = try Canvas(width: viewport.pixelWidth, height: viewport.pixelHeight, background: palette.water)
        let draw = try Stopwatch.median(iterations: context.iterations) {
            canvas = try Canvas(width: viewport.pixelWidth, height: viewport.pixelHeight, background: palette.water)
            try geometry.draw(on: &canvas, palette: palette, scale: options.scale)
        }
        let layout = try Stopwatch.median(iterations: context.iterations) { _ = try PlaceLabel.layout(options, in: viewport) }
        let bitmap = try BasemapRenderer().render(options)
        let encode = try Stopwatch.median(iterations: context.iterations) { _ = try PNGEncoder().encode(bitmap) }
        rows.append(BenchmarkRow(name: "zoom-5 Europe 1000×600, render + PNG via URLSession: labels vs labels=none", ours: withLabels,
                                 reference: withoutLabels, referenceName: "same map, labels=none", goal: 1.3,
                                 detail: String(format: "%d B PNG; both with lakes and region borders; stages: project %.1f, draw basemap %.1f, place labels %.1f, encode PNG %.1f ms",
                                                png.count, project * 1000, draw * 1000, layout * 1000, encode * 1000)))
        return rows
    }
}
