import XCTest
import Synchronization
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MapRendering
@testable import URLSchemeKit

/// `map://…&tiles=NAME` drawn from the Helsinki PMTiles fixtures through a real
/// URLSession: pixels where PyPI `pmtiles`/`mapbox-vector-tile`/`shapely`
/// (`Scripts/make_vector_map_references.py`,
/// `Scripts/make_vector_map_url_references.py`) found one feature alone
/// decides them, errors naming what failed, caching, and HTTP range reads.
final class VectorMapURLTests: XCTestCase {
    static let tiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("MapRenderingTests/Fixtures/tiles")
    static let references = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/vectormap")
    static let schemas: [(file: String, schema: BuiltinVectorStyle.Schema)] = [("openmaptiles", .openMapTiles), ("protomaps", .protomaps)]
    /// Zoom 15 over the centre, tall enough for the park (north) and the road stretch (south).
    static let center = GeoCoordinate(latitude: 60.1705, longitude: 24.945)
    static func view(width: Int = 512, height: Int = 640) -> String {
        "latitude=\(center.latitude)&longitude=\(center.longitude)&zoom=15&width=\(width)&height=\(height)&labels=none"
    }

    static func archive(_ name: String) -> URL { tiles.appendingPathComponent("helsinki-\(name).pmtiles") }

    func session(_ sources: MapTileSources, renderers: SchemeRenderers = SchemeRenderers()) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(tileSources: sources, imageCache: QueryKeyedURLCache(memoryCapacity: 16 << 20, diskCapacity: 0),
                                                                  httpCache: nil, renderers: renderers))
        return URLSession(configuration: configuration)
    }

    func sources(_ name: String, style: VectorSourceStyle = .automatic) throws -> MapTileSources {
        var sources = MapTileSources()
        sources.register("hel", try VectorTileSource.open(Self.archive(name), style: style))
        return sources
    }

    func image(_ session: URLSession, _ query: String) async throws -> Bitmap {
        let (data, response) = try await session.data(from: try XCTUnwrap(URL(string: "map://?" + query)))
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        return try ImageDecoder.decode(data).bitmap
    }

    /// The pixel of `coordinate` in the zoom-15 view of `view()`.
    static func pixel(_ coordinate: GeoCoordinate, zoom: Double = 15, width: Int = 512, height: Int = 640, center: GeoCoordinate = center) -> (x: Int, y: Int) {
        let p = WebMercator.project(latitude: coordinate.latitude, longitude: coordinate.longitude, zoom: zoom)
        let c = WebMercator.project(latitude: center.latitude, longitude: center.longitude, zoom: zoom)
        return (Int((p.x - c.x + Double(width) / 2).rounded(.down)), Int((p.y - c.y + Double(height) / 2).rounded(.down)))
    }

    struct Feature: StyleFeature {
        var properties: [String: StyleValue]
        var styleGeometryType: StyleGeometryType
        var featureID: UInt64? { nil }
        func styleValue(forKey key: String) -> StyleValue? { properties[key] }
    }

    /// The colour the style gives a point covered by `feature` of `layer` alone:
    /// the background, then every fill and solid line layer drawing it, blended
    /// by opacity (casings, drawn beside a line, and dashed lines left out).
    /// On land, the Protomaps `earth` polygon (the extract's box less the sea)
    /// lies under it too.
    static func expected(_ style: VectorStyle, layer: String, _ feature: Feature, zoom: Double = 14, onLand: Bool = true) -> RGBA {
        let earth = Feature(properties: ["kind": .string("earth")], styleGeometryType: .polygon)
        var color = (r: 0.0, g: 0.0, b: 0.0)
        func blend(_ c: RGBA, _ opacity: Double) {
            let a = opacity * Double(c.a) / 255
            color = (Double(c.r) * a + color.r * (1 - a), Double(c.g) * a + color.g * (1 - a), Double(c.b) * a + color.b * (1 - a))
        }
        for styleLayer in style.layers where styleLayer.isShown(atZoom: zoom) {
            switch styleLayer.atZoom(zoom).kind {
            case .background(let background):
                blend(background.color.value(atZoom: zoom).rgba, background.opacity.value(atZoom: zoom))
            case .fill(let fill) where onLand && styleLayer.sourceLayer == "earth" && styleLayer.matches(earth, atZoom: zoom):
                blend(fill.color.value(atZoom: zoom, for: earth).rgba, fill.opacity.value(atZoom: zoom, for: earth))
            case .fill(let fill) where styleLayer.sourceLayer == layer && styleLayer.matches(feature, atZoom: zoom):
                blend(fill.color.value(atZoom: zoom, for: feature).rgba, fill.opacity.value(atZoom: zoom, for: feature))
            case .line(let line) where styleLayer.sourceLayer == layer && styleLayer.matches(feature, atZoom: zoom)
                && line.gapWidth.value(atZoom: zoom, for: feature) == 0 && line.dashArray.value(atZoom: zoom, for: feature).isEmpty:
                blend(line.color.value(atZoom: zoom, for: feature).rgba, line.opacity.value(atZoom: zoom, for: feature))
            default:
                break
            }
        }
        return RGBA(UInt8(color.r.rounded()), UInt8(color.g.rounded()), UInt8(color.b.rounded()), 255)
    }

    func assertColor(_ actual: RGBA, _ expected: RGBA, tolerance: Int = 3, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        let channels = [(actual.r, expected.r), (actual.g, expected.g), (actual.b, expected.b)]
        XCTAssertTrue(channels.allSatisfy { abs(Int($0.0) - Int($0.1)) <= tolerance }, "\(message): \(actual) is not \(expected)", file: file, line: line)
    }

    /// Places found by the reference scripts: the park's grass in each schema,
    /// and a building, a lake, the harbour's sea, the land beside it and a road
    /// stretch (the same OSM features in both archives).
    static func places() throws -> (park: [String: (layer: String, at: GeoCoordinate, properties: [String: StyleValue])], building: GeoCoordinate, water: GeoCoordinate, sea: GeoCoordinate, quay: GeoCoordinate, road: GeoCoordinate) {
        func coordinate(_ value: Any?) throws -> GeoCoordinate {
            let pair = try XCTUnwrap(value as? [Double])
            return GeoCoordinate(latitude: pair[0], longitude: pair[1])
        }
        let parkJSON = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: references.appendingPathComponent("helsinki-park.json"))) as? [String: Any])
        var park: [String: (layer: String, at: GeoCoordinate, properties: [String: StyleValue])] = [:]
        for (schema, value) in try XCTUnwrap(parkJSON["park"] as? [String: [String: Any]]) {
            let properties = (value["properties"] as? [String: String] ?? [:]).mapValues { StyleValue.string($0) }
            park[schema] = (try XCTUnwrap(value["layer"] as? String), try coordinate(value["coordinate"]), properties)
        }
        let placesJSON = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: tiles.appendingPathComponent("helsinki-openmaptiles-places.json"))) as? [String: Any])
        var found: [String: GeoCoordinate] = [:]
        for entry in try XCTUnwrap(placesJSON["places"] as? [[String: Any]]) {
            found[try XCTUnwrap(entry["name"] as? String ?? entry["layer"] as? String)] = try coordinate(entry["coordinate"])
        }
        return (park, try XCTUnwrap(found["building"]), try XCTUnwrap(found["water"]), try XCTUnwrap(found["sea"]), try XCTUnwrap(found["quay"]), try XCTUnwrap(found["road"]))
    }

    /// Zoom 15 over central Helsinki, light and dark, both schemas: Kaisaniemi
    /// park's grass, the lake, the harbour's sea off the Market Square quay and
    /// the land beside it, and a building in their style colours; the road
    /// stretch in the colour of one of the schema's road layers; markers and the
    /// archive's "© OpenStreetMap contributors" on top.
    func testHelsinkiZoom15InBothSchemasAndLooks() async throws {
        let places = try Self.places()
        for (file, schema) in Self.schemas {
            let session = session(try sources(file))
            for look in MapStyle.allCases {
                let style = try BuiltinVectorStyle(schema: schema, look: look).style()
                let map = try await image(session, Self.view() + "&tiles=hel&style=\(look.rawValue)&marker=60.1655,24.950,color:ff00ff")
                XCTAssertEqual(map.width, 512)
                let what = "\(file) \(look)"
                let park = try XCTUnwrap(places.park[file])
                let green = Self.expected(style, layer: park.layer, Feature(properties: park.properties, styleGeometryType: .polygon))
                XCTAssertGreaterThan(Int(green.g), Int(green.r), "\(what): the style's park is green")
                let p = Self.pixel(park.at)
                assertColor(map[p.x, p.y], green, "\(what) Kaisaniemi park")

                let water = Self.expected(style, layer: "water", Feature(properties: [:], styleGeometryType: .polygon))
                let w = Self.pixel(places.water)
                assertColor(map[w.x, w.y], water, "\(what) lake")

                let ocean: [String: StyleValue] = schema == .openMapTiles ? ["class": .string("ocean")] : ["kind": .string("ocean")]
                let sea = Self.expected(style, layer: "water", Feature(properties: ocean, styleGeometryType: .polygon), onLand: false)
                let land = Self.expected(style, layer: "none", Feature(properties: [:], styleGeometryType: .polygon))
                XCTAssertGreaterThan(abs(Int(sea.r) - Int(land.r)) + abs(Int(sea.g) - Int(land.g)) + abs(Int(sea.b) - Int(land.b)), 30,
                                     "\(what): the style's sea is not the colour of the land")
                let s = Self.pixel(places.sea)
                assertColor(map[s.x, s.y], sea, "\(what) harbour")
                let q = Self.pixel(places.quay)
                assertColor(map[q.x, q.y], land, "\(what) quay beside the harbour")

                let buildingLayer = schema == .openMapTiles ? "building" : "buildings"
                let building = Self.expected(style, layer: buildingLayer, Feature(properties: [:], styleGeometryType: .polygon))
                let b = Self.pixel(places.building)
                assertColor(map[b.x, b.y], building, tolerance: 4, "\(what) building")

                // The road stretch (a tertiary street): one of the road colours the style gives streets.
                let roadLayer = schema == .openMapTiles ? "transportation" : "roads"
                let kinds: [[String: StyleValue]] = schema == .openMapTiles
                    ? [["class": .string("tertiary")], ["class": .string("minor")], ["class": .string("secondary")]]
                    : [["kind": .string("minor_road")], ["kind": .string("medium_road")], ["kind": .string("major_road")]]
                let roadColors = kinds.map { Self.expected(style, layer: roadLayer, Feature(properties: $0, styleGeometryType: .lineString)) }
                let r = Self.pixel(places.road)
                let onRoad = map[r.x, r.y]
                XCTAssertTrue(roadColors.contains { c in [(onRoad.r, c.r), (onRoad.g, c.g), (onRoad.b, c.b)].allSatisfy { abs(Int($0.0) - Int($0.1)) <= 3 } },
                              "\(what) road: \(onRoad) is none of \(roadColors)")

                let m = Self.pixel(GeoCoordinate(latitude: 60.1655, longitude: 24.950))
                XCTAssertEqual(map[m.x, m.y - 9], RGBA(255, 0, 255), "\(what): the marker is drawn on top")
                let text = look.palette.text
                let credit = (380..<510).flatMap { x in (624..<638).map { y in map[x, y] } }
                XCTAssertGreaterThan(credit.filter { abs(Int($0.r) - Int(text.r)) + abs(Int($0.g) - Int(text.g)) + abs(Int($0.b) - Int(text.b)) < 120 }.count, 15,
                                     "\(what): the attribution's text in the corner")
            }
        }
    }

    /// Zoom 18, three levels past the archive's 14 (+1 for 512-point tiles): the
    /// road across the view is as wide as the style says at 17, its edges one
    /// anti-aliased pixel, at @1x and @2x.
    func testOverZoomDrawsSharpLines() async throws {
        let session = session(try sources("openmaptiles"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: Self.tiles.appendingPathComponent("helsinki-openmaptiles-places.json"))) as? [String: Any])
        let road = try XCTUnwrap((json["places"] as? [[String: Any]])?.first { $0["layer"] as? String == "road" })
        func coordinate(_ key: String) throws -> GeoCoordinate {
            let pair = try XCTUnwrap(road[key] as? [Double])
            return GeoCoordinate(latitude: pair[0], longitude: pair[1])
        }
        let center = try coordinate("coordinate"), from = try coordinate("from"), to = try coordinate("to")
        let style = try BuiltinVectorStyle(schema: .openMapTiles, look: .light).style()
        let feature = Feature(properties: ["class": .string("tertiary")], styleGeometryType: .lineString)
        guard case .line(let line) = try XCTUnwrap(style.layers.first { $0.id == "road" }).atZoom(17).kind,
              case .line(let casing) = try XCTUnwrap(style.layers.first { $0.id == "road-casing" }).atZoom(17).kind else { return XCTFail("road layers") }
        let roadColor = line.color.value(atZoom: 17, for: feature).rgba
        let casingColor = casing.color.value(atZoom: 17, for: feature).rgba
        func distance(_ u: RGBA, _ v: RGBA) -> Int { abs(Int(u.r) - Int(v.r)) + abs(Int(u.g) - Int(v.g)) + abs(Int(u.b) - Int(v.b)) }
        for scale in [1, 2] {
            let map = try await image(session, "latitude=\(center.latitude)&longitude=\(center.longitude)&zoom=18&width=96&height=96&scale=\(scale)&labels=none&tiles=hel")
            let a = Self.pixel(from, zoom: 18, width: 96, height: 96, center: center), b = Self.pixel(to, zoom: 18, width: 96, height: 96, center: center)
            let (dx, dy) = (Double(b.x - a.x), Double(b.y - a.y))
            let length = (dx * dx + dy * dy).squareRoot()
            let normal = (x: -dy / length, y: dx / length)
            let width = line.width.value(atZoom: 17, for: feature)
            XCTAssertGreaterThan(width, 5)
            var full = 0, partial = 0, casingSides = (false, false)
            for step in -40...40 {
                let t = Double(step) / 2   // half-point steps across the road
                let x = Int((Double(48 * scale) + normal.x * t * Double(scale)).rounded(.down)), y = Int((Double(48 * scale) + normal.y * t * Double(scale)).rounded(.down))
                let pixel = map[x, y]
                if distance(pixel, roadColor) < 8 { full += 1 }
                if distance(pixel, casingColor) < 8 { if t < 0 { casingSides.0 = true } else { casingSides.1 = true } }
                if abs(t) < width / 2 - 1, distance(pixel, roadColor) >= 8 { partial += 1 }
            }
            // Blurred 8× (pixels scaled up) the road would be a ramp; drawn as geometry it is full colour across its width.
            XCTAssertEqual(Double(full) / 2, width, accuracy: 2, "@\(scale)x: \(full) half-point steps of road colour for a \(width)-point road")
            XCTAssertEqual(partial, 0, "@\(scale)x: pixels inside the road not its colour")
            XCTAssertTrue(casingSides.0 && casingSides.1, "@\(scale)x: the casing on both sides")
        }
    }

    /// A truncated archive is refused when opened, naming the file; a
    /// corrupted tile fails the snapshot naming the source and the tile; an
    /// unknown name fails naming it and the known ones.
    func testTruncatedArchiveCorruptTileAndUnknownNameNameThemselves() async throws {
        let directory = try makeTemporaryDirectory()
        let original = try Data(contentsOf: Self.archive("openmaptiles"))
        let truncated = directory.appendingPathComponent("cut.pmtiles")
        try original.prefix(original.count / 2).write(to: truncated)
        XCTAssertThrowsError(try VectorTileSource.open(truncated)) { error in
            XCTAssertEqual((error as? VectorTileError)?.kind, .truncated)
            XCTAssertTrue("\(error)".contains(truncated.path) && "\(error)".contains("truncated"), "\(error)")
        }

        // Tile 14/9327/4742 (under the view's centre) with its gzip body overwritten.
        let archive = try PMTilesArchive(url: Self.archive("openmaptiles"))
        let tile = TileCoordinate(z: 14, x: 9327, y: 4742)
        let range = try XCTUnwrap(try archive.tileRange(PMTilesTileID.id(of: tile)))
        let at = Int(archive.header.tileData.lowerBound + range.lowerBound)
        var damaged = original
        for i in at + 12..<at + 60 { damaged[i] = 0xA5 }
        let corrupt = directory.appendingPathComponent("corrupt.pmtiles")
        try damaged.write(to: corrupt)
        var sources = MapTileSources()
        sources.register("damaged", try VectorTileSource.open(corrupt))
        sources.register("hel", try VectorTileSource.open(Self.archive("openmaptiles")))
        let session = session(sources)
        do {
            _ = try await session.data(from: try XCTUnwrap(URL(string: "map://?" + Self.view() + "&tiles=damaged")))
            XCTFail("a corrupt tile drew")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .cannotDecodeContentData)
            XCTAssertTrue(error.localizedDescription.contains("tile source 'damaged'") && error.localizedDescription.contains("tile 14/9327/4742"), error.localizedDescription)
        }
        do {
            _ = try await session.data(from: try XCTUnwrap(URL(string: "map://?" + Self.view() + "&tiles=nosuch")))
            XCTFail("an unknown source drew")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .badURL)
            XCTAssertTrue(error.localizedDescription.contains("'nosuch'") && error.localizedDescription.contains("damaged, hel"), error.localizedDescription)
        }
    }

    /// Counts the renders of the map renderer it wraps.
    final class CountingMapRenderer: Renderer {
        let count = Mutex(0)
        func render(_ request: MapURL, in context: RenderContext) throws -> RenderedImage {
            count.withLock { $0 += 1 }
            return try MapSnapshotRenderer().render(request, in: context)
        }
    }

    /// The same URL twice is one render; the same view from another archive or
    /// style is another entry (its version names them).
    func testSameURLTwiceIsOneRender() async throws {
        let counter = CountingMapRenderer()
        var renderers = SchemeRenderers()
        renderers.set(counter)
        let query = Self.view(width: 128, height: 128) + "&tiles=hel"
        let first = try await image(session(try sources("openmaptiles"), renderers: renderers), query)
        let sameSession = session(try sources("openmaptiles"), renderers: renderers)
        let a = try await sameSession.data(from: try XCTUnwrap(URL(string: "map://?" + query)))
        let b = try await sameSession.data(from: try XCTUnwrap(URL(string: "map://?" + query)))
        XCTAssertEqual(a.0, b.0)
        XCTAssertEqual(try ImageDecoder.decode(a.0).bitmap.pixels, first.pixels)
        XCTAssertEqual(counter.count.withLock { $0 }, 2, "one render per session: the second load is answered from the cache")

        // Two environments sharing one cache and partition, whose sources differ
        // only in style: the second draws anew (the version names the style), and differently.
        let shared = QueryKeyedURLCache(memoryCapacity: 16 << 20, diskCapacity: 0)
        func sharing(_ style: VectorSourceStyle) throws -> URLSession {
            var sources = MapTileSources()
            sources.register("hel", try VectorTileSource.open(Self.archive("openmaptiles"), style: style))
            let configuration = URLSessionConfiguration.ephemeral
            configuration.installURLSchemeKit(URLSchemeKitEnvironment(tileSources: sources, imageCache: shared, httpCache: nil,
                                                                      renderers: renderers, cachePartition: "tenant"))
            return URLSession(configuration: configuration)
        }
        let fromLight = try await sharing(.builtin(.light)).data(from: try XCTUnwrap(URL(string: "map://?" + query)))
        _ = try await sharing(.builtin(.light)).data(from: try XCTUnwrap(URL(string: "map://?" + query)))
        XCTAssertEqual(counter.count.withLock { $0 }, 3, "the same source in another session: found in the shared cache")
        let fromDark = try await sharing(.builtin(.dark)).data(from: try XCTUnwrap(URL(string: "map://?" + query)))
        XCTAssertEqual(counter.count.withLock { $0 }, 4, "another style: drawn again, not served from the light entry")
        XCTAssertNotEqual(fromLight.0, fromDark.0)

        let light = try VectorTileSource.open(Self.archive("openmaptiles"), style: .builtin(.light))
        let automatic = try VectorTileSource.open(Self.archive("openmaptiles"))
        let protomaps = try VectorTileSource.open(Self.archive("protomaps"))
        XCTAssertEqual(automatic.identity, try VectorTileSource.open(Self.archive("openmaptiles")).identity, "the same archive and style")
        XCTAssertNotEqual(light.identity, automatic.identity, "another style")
        XCTAssertNotEqual(protomaps.identity.prefix(16), automatic.identity.prefix(16), "another archive")
    }

    /// Two different URLs over the same area (another marker and width, so
    /// the snapshot cache cannot answer) through one session: the second
    /// prepares no layer, it draws the source's kept ones, and its bytes are
    /// those of a fresh source's. Another look, or the same look with labels
    /// (its layer indices shifted by the `symbol` layers), prepares its own,
    /// and also draws a fresh source's bytes.
    func testAnotherSnapshotOfTheAreaReusesPreparedLayers() async throws {
        let area = "latitude=\(Self.center.latitude)&longitude=\(Self.center.longitude)&zoom=15&height=256&tiles=hel"
        let first = area + "&width=256&labels=none&marker=60.1705,24.945"
        let second = area + "&width=240&labels=none&marker=60.171,24.944"
        let sources = try sources("openmaptiles")
        let prepared = try XCTUnwrap(sources.vectorSource(named: "hel")).preparedLayers
        let shared = session(sources)
        func fresh(_ query: String) async throws -> Bitmap { try await image(session(try self.sources("openmaptiles")), query) }

        _ = try await image(shared, first)
        let afterFirst = prepared.statistics
        XCTAssertGreaterThan(afterFirst.preparations, 0)
        let reused = try await image(shared, second)
        let afterSecond = prepared.statistics
        XCTAssertEqual(afterSecond.preparations, afterFirst.preparations, "the second snapshot prepares no layer anew")
        XCTAssertGreaterThan(afterSecond.hits, afterFirst.hits)
        XCTAssertEqual(reused.width, 240)
        let freshSecond = try await fresh(second)
        XCTAssertEqual(reused.pixels, freshSecond.pixels, "kept layers draw what a fresh source draws")

        var preparations = afterSecond.preparations
        for other in [area + "&width=240&marker=60.171,24.944", area + "&width=240&labels=none&style=dark&marker=60.171,24.944"] {
            let drawn = try await image(shared, other)
            XCTAssertGreaterThan(prepared.statistics.preparations, preparations, "\(other): another style's layers are its own")
            preparations = prepared.statistics.preparations
            let freshOther = try await fresh(other)
            XCTAssertEqual(drawn.pixels, freshOther.pixels, other)
        }
    }

    /// Four URLs over one area loaded at once through one session race to
    /// prepare the source's layers (the second render of each look below
    /// finds them kept): each draws what a fresh source draws alone, and the
    /// source keeps what a light and a dark source would, once.
    func testConcurrentSnapshotsShareThePreparedLayers() async throws {
        let area = "latitude=\(Self.center.latitude)&longitude=\(Self.center.longitude)&zoom=15&width=200&height=200&labels=none&tiles=hel"
        let queries = (0..<4).map { area + "&style=\($0 % 2 == 0 ? "light" : "dark")&marker=60.17\($0),24.945" }
        let sources = try sources("openmaptiles")
        let prepared = try XCTUnwrap(sources.vectorSource(named: "hel")).preparedLayers
        let shared = session(sources)
        let drawn = try await withThrowingTaskGroup(of: (Int, Bitmap).self) { group in
            for (i, query) in queries.enumerated() {
                let url = try XCTUnwrap(URL(string: "map://?" + query))
                group.addTask { (i, try ImageDecoder.decode(try await shared.data(from: url).0).bitmap) }
            }
            return try await group.reduce(into: [Int: Bitmap]()) { $0[$1.0] = $1.1 }
        }
        var keptAlone = 0
        for (i, query) in queries.enumerated() {
            let fresh = try self.sources("openmaptiles")
            let alone = try await image(session(fresh), query)
            XCTAssertEqual(drawn[i]?.pixels, alone.pixels, query)
            if i < 2 { keptAlone += try XCTUnwrap(fresh.vectorSource(named: "hel")).preparedLayers.count }
        }
        XCTAssertEqual(prepared.count, keptAlone, "one entry per tile and layer of each look, however the loads raced")
    }

    /// The environment's budget bounds a vector source: a tile over
    /// `vectorTile.compressedTileBytes`, a view over
    /// `vectorSnapshot.tilesPerSnapshot`, a style over `vectorStyle`'s layers,
    /// each refused before the work, naming the limit.
    func testBudgetLimitsAreCheckedBeforeTheWork() async throws {
        var budget = ResourceBudget()
        budget.vectorTile.compressedTileBytes = 1000
        budget.vectorSnapshot.tilesPerSnapshot = 2
        var sources = MapTileSources()
        sources.register("hel", try VectorTileSource.open(Self.archive("openmaptiles"), budget: budget))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(budget: budget, tileSources: sources, imageCache: nil, httpCache: nil))
        let session = URLSession(configuration: configuration)
        for (query, text) in [(Self.view() + "&tiles=hel", "over the limit of 2 per snapshot"),
                              (Self.view(width: 64, height: 64) + "&tiles=hel", "over the limit of 1000")] {
            do {
                _ = try await session.data(from: try XCTUnwrap(URL(string: "map://?" + query)))
                XCTFail("\(query) drew")
            } catch let error as URLError {
                XCTAssertEqual(error.code, .cannotDecodeContentData)
                XCTAssertTrue(error.localizedDescription.contains("tile source 'hel'") && error.localizedDescription.contains(text), error.localizedDescription)
            }
        }
        budget.vectorStyle.maximumLayerCount = 3
        let style = try Data(contentsOf: Self.tiles.appendingPathComponent("helsinki-label-free-style.json"))
        XCTAssertThrowsError(try VectorTileSource.open(Self.archive("openmaptiles"), style: .json(style), budget: budget)) { error in
            XCTAssertEqual((error as? VectorStyleError)?.kind, .limitExceeded)
        }
        budget.vectorStyle.maximumByteCount = 100
        XCTAssertThrowsError(try VectorTileSource.open(Self.archive("openmaptiles"), style: .json(style), budget: budget)) { error in
            XCTAssertTrue("\(error)".contains("over the limit of 100"), "\(error)")
        }
    }

    /// A style's one vector source draws from the archive it is given with,
    /// whatever its `url` says; a style of two sources is refused, naming them.
    func testAStyleDrawsFromTheArchiveWhateverItsSourceURLSays() async throws {
        let twoSources = Data(#"{"version": 8, "sources": {"a": {"type": "vector", "url": "pmtiles://a"}, "b": {"type": "vector"}}, "layers": []}"#.utf8)
        XCTAssertThrowsError(try VectorTileSource.open(Self.archive("openmaptiles"), style: .json(twoSources))) { error in
            XCTAssertTrue("\(error)".contains("2 vector sources (a, b)"), "\(error)")
        }
        let withGeoJSON = Data(#"{"version": 8, "sources": {"a": {"type": "vector"}, "g": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}}, "layers": []}"#.utf8)
        XCTAssertNoThrow(try VectorTileSource.open(Self.archive("openmaptiles"), style: .json(withGeoJSON)), "a geojson source is not a second archive")
        let oneSource = Data(##"{"version": 8, "sources": {"elsewhere": {"type": "vector", "url": "https://example.invalid/tiles.json"}}, "layers": [{"id": "water", "type": "fill", "source": "elsewhere", "source-layer": "water", "paint": {"fill-color": "#0000ff"}}]}"##.utf8)
        let drawn = try VectorTileSource.open(Self.archive("openmaptiles"), style: .json(oneSource))
        var one = MapTileSources()
        one.register("hel", drawn)
        let lake = try Self.places().water
        let map = try await image(self.session(one), "latitude=\(lake.latitude)&longitude=\(lake.longitude)&zoom=15&width=32&height=32&tiles=hel")
        XCTAssertEqual(map[16, 16], RGBA(0, 0, 255), "the style's one source draws from the archive whatever its url says")
    }

    /// An archive on an HTTP server that honours Range: opened with one
    /// request, a snapshot reads only the tiles it needs, and a second view
    /// of the same tiles sends none. A server that ignores Range (http.server)
    /// sends the whole file: read when small enough, else a clear error.
    func testArchiveOverHTTPIsReadByRanges() async throws {
        let root = try makeTemporaryDirectory()
        try FileManager.default.copyItem(at: Self.archive("openmaptiles"), to: root.appendingPathComponent("hel.pmtiles"))
        let server = try LoopbackFileServer(root: root, ranges: true, test: self)
        let url = try XCTUnwrap(URL(string: server.url("/hel.pmtiles")))
        let bytes = try HTTPRangeByteSource(url: url)
        XCTAssertEqual(bytes.requestCount, 1)
        XCTAssertEqual(bytes.count, UInt64(try Data(contentsOf: Self.archive("openmaptiles")).count))
        var remote = MapTileSources()
        remote.register("remote", try VectorTileSource.open(bytes))
        let session = session(remote)
        let map = try await image(session, Self.view() + "&tiles=remote")
        let afterFirst = bytes.requestCount
        XCTAssertGreaterThan(afterFirst, 1, "tiles were read")
        XCTAssertLessThan(afterFirst, 40, "only the view's tiles and directories")
        XCTAssertEqual(server.requests.count, afterFirst)
        let local = try await image(self.session(try sources("openmaptiles")), Self.view() + "&tiles=hel")
        XCTAssertEqual(map.pixels, local.pixels, "the same map as from the file")
        _ = try await image(session, Self.view(width: 300, height: 200) + "&tiles=remote")
        XCTAssertEqual(bytes.requestCount, afterFirst, "the second snapshot's tiles come from the cache")

        // Ranges kept in a store (as the CLI's disk cache keeps them): another
        // source of the same file, as in a later process, asks only for the first 16 KiB.
        let store = QueryKeyedURLCache(memoryCapacity: 16 << 20, diskCapacity: 0)
        let storing = try HTTPRangeByteSource(url: url, store: store)
        var first = MapTileSources()
        first.register("remote", try VectorTileSource.open(storing))
        _ = try await image(self.session(first), Self.view() + "&tiles=remote")
        XCTAssertEqual(storing.requestCount, afterFirst)
        let later = try HTTPRangeByteSource(url: url, store: store)
        var second = MapTileSources()
        second.register("remote", try VectorTileSource.open(later))
        let again = try await image(self.session(second), Self.view() + "&tiles=remote")
        XCTAssertEqual(later.requestCount, 1, "only the opening request: every range came from the store")
        XCTAssertEqual(again.pixels, local.pixels)

        let whole = try LoopbackFileServer(root: root, test: self)
        let small = try HTTPRangeByteSource(url: try XCTUnwrap(URL(string: whole.url("/hel.pmtiles"))))
        XCTAssertEqual(small.requestCount, 1)
        XCTAssertEqual(try small.bytes(in: 0..<7), Array("PMTiles".utf8))
        XCTAssertThrowsError(try HTTPRangeByteSource(url: try XCTUnwrap(URL(string: whole.url("/hel.pmtiles"))), maximumWholeBytes: 100_000)) { error in
            XCTAssertTrue("\(error)".contains("ignores Range requests"), "\(error)")
        }
        XCTAssertThrowsError(try VectorTileSource.open(try XCTUnwrap(URL(string: whole.url("/missing.pmtiles"))))) { error in
            XCTAssertTrue("\(error)".contains("/missing.pmtiles") && "\(error)".contains("404"), "\(error)")
        }
    }
}
