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
///   of the render-test fixtures (zoom 12, 256-pixel tiles) at MapLibre zoom 11;
/// - labelled: the built-in OpenMapTiles light style with its street, water and
///   place labels, plus points of interest by icon from the render tests'
///   `emerald` sprite, over central Helsinki at MapLibre zoom 14 (our 15) from
///   the OpenMapTiles test archive (ours the `.pmtiles`, MapLibre the
///   `.mbtiles` it was packed from); glyphs from a folder both read, the
///   built-in glyph set written out as ranges (issue 37's speed goals:
///   ≤ 0.25× cold, ≤ 0.5× warm).
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
        let labelled = context.workDirectory.appendingPathComponent("stylemap-labelled.json")
        let archives = BenchmarkContext.vectorTileFixtures
        try Data(Self.labelledStyle(glyphs: try Self.writeBuiltInGlyphs(to: context.workDirectory.appendingPathComponent("stylemap-glyphs")),
                                    sprite: terrain.deletingLastPathComponent().appendingPathComponent("sprites/emerald"),
                                    archive: archives.appendingPathComponent("helsinki-openmaptiles.pmtiles")).utf8).write(to: labelled)
        var rows: [BenchmarkRow] = []
        for (key, style, detail, goals, source) in [
            ("geojson-cluster-10k-polygons-1k-512", geojson, "10 000 points clustered, 1 000 hexagons, zoom 3", (cold: nil, warm: nil), nil),
            ("hillshade-terrain-z11-512", hillshade, "raster-dem, 4 Mapbox-encoded tiles, zoom 11", (nil, nil), nil),
            ("labelled-helsinki-z14-512", labelled, "OpenMapTiles light, labels and POI icons, zoom 14", (0.25, 0.5),
             "openmaptiles=mbtiles://" + archives.appendingPathComponent("helsinki-openmaptiles.mbtiles").path),
        ] as [(String, URL, String, (cold: Double?, warm: Double?), String?)] {
            let (cold, warm, bytes) = try measure(style, context)
            // Without pymgl (it needs Mesa's EGL) the rows print ours alone.
            let arguments = ["--style", style.path, "--key", key] + (source.map { ["--source", $0] } ?? [])
            let reference = (try? context.runReference(script: "style_map.py", arguments: arguments)) ?? [:]
            rows.append(BenchmarkRow(name: "\(key)-cold", ours: cold, reference: reference["\(key)-cold"]?.seconds,
                                     referenceName: reference["\(key)-cold"]?.label ?? "MapLibre Native", goal: goals.cold,
                                     detail: "\(detail), PNG \(bytes) B"))
            rows.append(BenchmarkRow(name: "\(key)-warm", ours: warm, reference: reference["\(key)-warm"]?.seconds,
                                     referenceName: reference["\(key)-warm"]?.label ?? "MapLibre Native", goal: goals.warm,
                                     detail: "\(detail), drawn again, no encode"))
        }
        return rows
    }

    /// Writes every range of the built-in glyph set into `folder` once per
    /// font stack the built-in OpenMapTiles style names, as a glyph server
    /// lays them out (`STACK/FIRST-LAST.pbf`), and returns its `glyphs` URL.
    static func writeBuiltInGlyphs(to folder: URL) throws -> String {
        let glyphs = BuiltInGlyphs()
        for stack in ["Noto Sans Regular", "Noto Sans Italic", "Noto Sans Bold"] {
            let directory = folder.appendingPathComponent(stack)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for start in BuiltInGlyphs.rangeStarts {
                let range = "\(start)-\(start + 255)"
                guard let data = try glyphs.glyphRange(fontStack: stack, range: range, limits: .default) else { continue }
                try data.write(to: directory.appendingPathComponent("\(range).pbf"))
            }
        }
        return "file://\(folder.path)/{fontstack}/{range}.pbf"
    }

    /// The built-in OpenMapTiles light style with `glyphs`, the sprite at
    /// `sprite` (a path without `.json`/`.png`), a point-of-interest layer
    /// (the class's icon, else a generic one, its name below it, both
    /// optional to each other as real styles have them), and `archive` as its
    /// source, centred on Helsinki at MapLibre zoom 14.
    static func labelledStyle(glyphs: String, sprite: URL, archive: URL) throws -> String {
        let base = BuiltinVectorStyle(schema: .openMapTiles, look: .light).json
        guard var style = try JSONSerialization.jsonObject(with: Data(base.utf8)) as? [String: Any],
              var layers = style["layers"] as? [[String: Any]], var sources = style["sources"] as? [String: Any],
              var source = sources["openmaptiles"] as? [String: Any] else {
            throw BenchmarkError("the built-in OpenMapTiles style is not a style object")
        }
        source["url"] = "pmtiles://" + archive.path
        sources["openmaptiles"] = source
        layers.append([
            "id": "poi", "type": "symbol", "source": "openmaptiles", "source-layer": "poi",
            "filter": ["<=", ["get", "rank"], 24],
            "layout": [
                "icon-image": ["coalesce", ["image", ["concat", ["get", "class"], "_icon"]], ["image", "generic_icon"]],
                "text-field": ["coalesce", ["get", "name:latin"], ["get", "name"]],
                "text-font": ["Noto Sans Regular"], "text-size": 11, "text-anchor": "top", "text-offset": [0, 0.8],
                "text-max-width": 8, "text-optional": true, "symbol-sort-key": ["get", "rank"],
            ] as [String: Any],
            "paint": ["text-color": "#5a5a5a", "text-halo-color": "#ffffff", "text-halo-width": 1],
        ])
        style["sources"] = sources
        style["layers"] = layers
        style["glyphs"] = glyphs
        style["sprite"] = "file://" + sprite.path
        style["center"] = [24.945, 60.170]
        style["zoom"] = 14
        return String(decoding: try JSONSerialization.data(withJSONObject: style, options: [.sortedKeys]), as: UTF8.self)
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
