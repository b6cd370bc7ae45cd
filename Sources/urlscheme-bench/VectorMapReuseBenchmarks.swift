import Foundation
import MapRendering

/// What a `map://…&tiles=NAME` request costs when another URL has already
/// drawn the same area: a 512×512 Helsinki snapshot (zoom 15, built-in light
/// style, no labels) with another marker each time, its tiles decoded. Ours
/// draws the layers its source keeps prepared (as every request does now);
/// the reference is the same render with a fresh prepared-layer cache over the
/// same decoded tiles, as every request drew before the source kept them.
struct VectorMapReuseBenchmarks: BenchmarkSuite {
    let name = "vectormap-reuse"
    let summary = "another map:// snapshot of a drawn area: source-kept prepared layers vs prepared anew"

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let archiveURL = BenchmarkContext.vectorTileFixtures.appendingPathComponent("helsinki-openmaptiles.pmtiles")
        let style = try BuiltinVectorStyle(schema: .openMapTiles, look: .light).style()
        let source = VectorTileSource(tiles: try PMTilesArchive(url: archiveURL), lightStyle: style, darkStyle: style,
                                      attribution: "© OpenStreetMap contributors", identity: "bench")
        let center = GeoCoordinate(latitude: 60.170, longitude: 24.945)
        var marker = 0
        /// The next request's options: the same view, its marker moved a little.
        func options() -> MapSnapshotOptions {
            marker += 1
            let spot = GeoCoordinate(latitude: center.latitude + Double(marker % 50) * 1e-5, longitude: center.longitude)
            return MapSnapshotOptions(camera: .zoom(center: center, zoom: 15), width: 512, height: 512, scale: 1,
                                      labels: .none, markers: [MapMarker(coordinate: spot)])
        }
        func draw(_ source: VectorTileSource) throws {
            let options = options()
            _ = try VectorTileMapRenderer(source: source, sourceName: "helsinki").render(options, in: MapViewport(options: options))
        }
        let kept = try Stopwatch.median(iterations: context.iterations) { try draw(source) }
        // A source sharing the decoded tiles but not the prepared layers, made per request.
        let anew = try Stopwatch.median(iterations: context.iterations) {
            try draw(VectorTileSource(tiles: source.tiles, lightStyle: style, darkStyle: style, attribution: source.attribution,
                                      identity: "bench", cache: source.cache))
        }
        return [
            BenchmarkRow(name: "vectormap-helsinki-z15-512-another-url", ours: kept, reference: anew,
                         referenceName: "layers prepared anew", goal: nil, detail: "tiles decoded, another marker, no encode"),
        ]
    }
}
