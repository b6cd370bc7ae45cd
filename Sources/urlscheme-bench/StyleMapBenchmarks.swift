import Foundation
import ImageCodecs
import MapRendering

/// Whole style documents drawn 512×512 by `StyleDocumentRenderer`, against
/// MapLibre Native (PyPI `pymgl`, Mesa's software OpenGL) drawing the same
/// file (`Benchmarks/reference/style_map.py`):
/// - GeoJSON: 10 000 points clustered (`cluster: true`, radius 50) and 1 000
///   hexagons filled, generated deterministically and written inline in the
///   style, at MapLibre zoom 3;
/// - hillshade: a `raster-dem` source of the four Mapbox-encoded terrain tiles
///   of the render-test fixtures (zoom 12, 256-pixel tiles) at MapLibre zoom 11.
/// Cold: a new renderer (style read, sources read, clustered, tiled), drawn and
/// encoded as PNG; MapLibre: a new map and its PNG. Warm: drawn again (ours:
/// tiles kept; MapLibre: its map rendered again, raw pixels).
struct StyleMapBenchmarks: BenchmarkSuite {
    let name = "stylemap"
    let summary = "512×512 GeoJSON (10k points clustered, 1k polygons) and hillshade styles vs MapLibre Native (pymgl, Mesa)"

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let geojson = context.workDirectory.appendingPathComponent("stylemap-geojson.json")
        try Data(Self.geojsonStyle().utf8).write(to: geojson)
        let terrain = BenchmarkContext.benchmarksDirectory.deletingLastPathComponent()
            .appendingPathComponent("Tests/MapRenderingTests/Fixtures/maplibre-render-tests/tiles")
        let hillshade = context.workDirectory.appendingPathComponent("stylemap-hillshade.json")
        try Data(Self.hillshadeStyle(tiles: terrain).utf8).write(to: hillshade)
        var rows: [BenchmarkRow] = []
        for (key, style, detail) in [("geojson-cluster-10k-polygons-1k-512", geojson, "10 000 points clustered, 1 000 hexagons, zoom 3"),
                                     ("hillshade-terrain-z11-512", hillshade, "raster-dem, 4 Mapbox-encoded tiles, zoom 11")] {
            let (cold, warm, bytes) = try measure(style, context)
            // Without pymgl (it needs Mesa's EGL) the rows print ours alone.
            let reference = (try? context.runReference(script: "style_map.py", arguments: ["--style", style.path, "--key", key])) ?? [:]
            rows.append(BenchmarkRow(name: "\(key)-cold", ours: cold, reference: reference["\(key)-cold"]?.seconds,
                                     referenceName: reference["\(key)-cold"]?.label ?? "MapLibre Native", goal: nil,
                                     detail: "\(detail), PNG \(bytes) B"))
            rows.append(BenchmarkRow(name: "\(key)-warm", ours: warm, reference: reference["\(key)-warm"]?.seconds,
                                     referenceName: reference["\(key)-warm"]?.label ?? "MapLibre Native", goal: nil,
                                     detail: "\(detail), drawn again, no encode"))
        }
        return rows
    }

    /// Cold and warm medians of the style at `url`, and its PNG's size.
    private func measure(_ url: URL, _ context: BenchmarkContext) throws -> (cold: Double, warm: Double, bytes: Int) {
        let data = try Data(contentsOf: url)
        let resources = StyleFolderResources(folder: url.deletingLastPathComponent())
        var bytes = 0
        let cold = try Stopwatch.median(iterations: context.iterations) {
            let document = try StyleDocumentRenderer(style: data, resources: resources)
            bytes = try PNGEncoder().encode(try document.render(width: 512, height: 512)).count
        }
        let document = try StyleDocumentRenderer(style: data, resources: resources)
        let warm = try Stopwatch.median(iterations: context.iterations) { _ = try document.render(width: 512, height: 512) }
        return (cold, warm, bytes)
    }

    /// The GeoJSON style: the same points and hexagons every run (a fixed linear congruential sequence).
    static func geojsonStyle() -> String {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        func number(_ value: Double) -> String { String(format: "%.5f", value) }
        var points: [String] = []
        for i in 0..<10_000 {
            // Half spread evenly, half in eight clumps, so clusters of many sizes form.
            let clump = Double(i % 8)
            let (longitude, latitude) = i % 2 == 0
                ? (random() * 60 - 30, random() * 44 - 22)
                : (clump * 7 - 25 + (random() - 0.5) * 4, (clump.truncatingRemainder(dividingBy: 3) - 1) * 12 + (random() - 0.5) * 4)
            points.append(#"{"type":"Feature","properties":{"n":\#(i % 10)},"geometry":{"type":"Point","coordinates":[\#(number(longitude)),\#(number(latitude))]}}"#)
        }
        var polygons: [String] = []
        for i in 0..<1000 {
            let longitude = random() * 60 - 30, latitude = random() * 44 - 22, radius = 0.2 + random() * 0.6
            var ring = (0...6).map { k -> String in
                let angle = Double(k % 6) * .pi / 3
                return "[\(number(longitude + radius * cos(angle))),\(number(latitude + radius * sin(angle)))]"
            }
            ring[6] = ring[0]
            polygons.append(#"{"type":"Feature","properties":{"kind":\#(i % 4)},"geometry":{"type":"Polygon","coordinates":[[\#(ring.joined(separator: ","))]]}}"#)
        }
        return #"""
        {"version": 8, "center": [0, 0], "zoom": 3,
         "sources": {
          "points": {"type": "geojson", "cluster": true, "clusterRadius": 50,
                     "data": {"type": "FeatureCollection", "features": [\#(points.joined(separator: ","))]}},
          "areas": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\#(polygons.joined(separator: ","))]}}},
         "layers": [
          {"id": "bg", "type": "background", "paint": {"background-color": "#f4f1ea"}},
          {"id": "areas", "type": "fill", "source": "areas",
           "paint": {"fill-color": ["match", ["get", "kind"], 0, "#8fb8de", 1, "#a3d9a5", 2, "#f2c57c", "#d4a5c9"], "fill-opacity": 0.7}},
          {"id": "clusters", "type": "circle", "source": "points", "filter": ["has", "point_count"],
           "paint": {"circle-color": ["step", ["get", "point_count"], "#51bbd6", 100, "#f1f075", 750, "#f28cb1"],
                     "circle-radius": ["step", ["get", "point_count"], 12, 100, 18, 750, 24]}},
          {"id": "points", "type": "circle", "source": "points", "filter": ["!", ["has", "point_count"]],
           "paint": {"circle-color": "#11b4da", "circle-radius": 4, "circle-stroke-width": 1, "circle-stroke-color": "#ffffff"}}]}
        """#
    }

    /// The hillshade style over the terrain tiles in `tiles`, centred where the four meet.
    static func hillshadeStyle(tiles: URL) -> String {
        #"""
        {"version": 8, "center": [-113.291015625, 35.96022296929668], "zoom": 11,
         "sources": {"dem": {"type": "raster-dem", "tiles": ["file://\#(tiles.path)/{z}-{x}-{y}.terrain.png"],
                             "tileSize": 256, "minzoom": 12, "maxzoom": 12, "encoding": "mapbox"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "hillshade", "type": "hillshade", "source": "dem"}]}
        """#
    }
}
