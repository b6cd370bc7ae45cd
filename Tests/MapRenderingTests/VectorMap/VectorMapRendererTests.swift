import Foundation
import Raster
import XCTest
@testable import MapRendering

/// Snapshots of the Helsinki OpenMapTiles fixture drawn with the built-in
/// styles, checked where `Scripts/make_vector_map_references.py` (PyPI
/// `pmtiles`, `mapbox-vector-tile`, `shapely`) found one layer alone decides
/// the pixel: inside a building, inside a lake, in the harbour's sea, on a road.
final class VectorMapRendererTests: XCTestCase {
    static let tiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/tiles")
    static let center = GeoCoordinate(latitude: 60.170, longitude: 24.945)

    /// A place the reference script picked.
    struct Place {
        var coordinate: GeoCoordinate
        var from: GeoCoordinate?
        var to: GeoCoordinate?
        var properties: [String: StyleValue]
    }

    static func places() throws -> [String: Place] {
        let data = try Data(contentsOf: tiles.appendingPathComponent("helsinki-openmaptiles-places.json"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        var result: [String: Place] = [:]
        func coordinate(_ value: Any?) -> GeoCoordinate? {
            guard let pair = value as? [Double], pair.count == 2 else { return nil }
            return GeoCoordinate(latitude: pair[0], longitude: pair[1])
        }
        for entry in try XCTUnwrap(json["places"] as? [[String: Any]]) {
            var properties: [String: StyleValue] = [:]
            for (key, value) in entry["properties"] as? [String: Any] ?? [:] {
                if let string = value as? String { properties[key] = .string(string) } else if let number = value as? Double { properties[key] = .number(number) }
            }
            result[try XCTUnwrap(entry["name"] as? String ?? entry["layer"] as? String)] = Place(
                coordinate: try XCTUnwrap(coordinate(entry["coordinate"])), from: coordinate(entry["from"]),
                to: coordinate(entry["to"]), properties: properties)
        }
        return result
    }

    static func renderer(_ look: MapStyle, limits: VectorMapLimits = .default) throws -> VectorMapRenderer {
        let archive = try PMTilesArchive(url: tiles.appendingPathComponent("helsinki-openmaptiles.pmtiles"))
        let style = try BuiltinVectorStyle(schema: .openMapTiles, look: look).style()
        return VectorMapRenderer(archive: archive, sourceName: "helsinki", style: style, limits: limits)
    }

    /// The output pixel of `coordinate` in `camera`'s snapshot.
    static func pixel(_ coordinate: GeoCoordinate, in camera: VectorMapCamera) -> (x: Double, y: Double) {
        let p = WebMercator.project(latitude: coordinate.latitude, longitude: coordinate.longitude, zoom: camera.zoom)
        let c = WebMercator.project(latitude: camera.center.latitude, longitude: camera.center.longitude, zoom: camera.zoom)
        return ((p.x - c.x) * camera.scale + Double(camera.width) * camera.scale / 2,
                (p.y - c.y) * camera.scale + Double(camera.height) * camera.scale / 2)
    }

    static func color(_ bitmap: Bitmap, at p: (x: Double, y: Double)) -> RGBA {
        bitmap[Int(p.x.rounded(.down)), Int(p.y.rounded(.down))]
    }

    /// A layer of the style evaluated at `zoom`.
    static func layer(_ id: String, of renderer: VectorMapRenderer, atZoom zoom: Double) throws -> StyleLayer {
        try XCTUnwrap(renderer.style.layers.first { $0.id == id }).atZoom(zoom)
    }

    static func background(of renderer: VectorMapRenderer) throws -> RGBA {
        guard case .background(let style) = try layer("background", of: renderer, atZoom: 14).kind else { throw FixtureError("no background") }
        return style.color.value(atZoom: 14).rgba
    }

    func assertColor(_ actual: RGBA, _ expected: RGBA, tolerance: Int = 2, _ message: String,
                     file: StaticString = #filePath, line: UInt = #line) {
        let channels = [(actual.r, expected.r), (actual.g, expected.g), (actual.b, expected.b), (actual.a, expected.a)]
        XCTAssertTrue(channels.allSatisfy { abs(Int($0.0) - Int($0.1)) <= tolerance },
                      "\(message): \(actual) is not \(expected)", file: file, line: line)
    }

    /// Zoom 15, 512×512 points over central Helsinki, light: lake pixels are the
    /// water colour, building pixels the building colour at the style's
    /// zoom-14 opacity over the land, road pixels the road colour of its class.
    func testLightSnapshotHasEachLayersColourWhereItsFeaturesAre() throws {
        let renderer = try Self.renderer(.light)
        let places = try Self.places()
        let camera = VectorMapCamera(center: Self.center, zoom: 15, width: 512, height: 512)
        let bitmap = try renderer.render(camera)
        XCTAssertEqual(bitmap.width, 512)
        XCTAssertEqual(bitmap.height, 512)
        let zoom = camera.styleZoom
        XCTAssertEqual(zoom, 14)

        guard case .fill(let water) = try Self.layer("water", of: renderer, atZoom: zoom).kind else { return XCTFail("water") }
        let lake = try XCTUnwrap(places["water"])
        assertColor(Self.color(bitmap, at: Self.pixel(lake.coordinate, in: camera)), water.color.value(atZoom: zoom).rgba, "lake")
        // The harbour's sea (the `ocean` polygon built from the coastline), off the Market Square quay.
        let sea = try XCTUnwrap(places["sea"])
        let ocean = MockStyleFeature(properties: sea.properties, styleGeometryType: .polygon)
        XCTAssertTrue(try Self.layer("water", of: renderer, atZoom: zoom).matches(ocean, atZoom: zoom))
        XCTAssertNotEqual(water.color.value(atZoom: zoom, for: ocean).rgba, try Self.background(of: renderer))
        assertColor(Self.color(bitmap, at: Self.pixel(sea.coordinate, in: camera)), water.color.value(atZoom: zoom, for: ocean).rgba, "harbour")

        guard case .fill(let building) = try Self.layer("building", of: renderer, atZoom: zoom).kind else { return XCTFail("building") }
        let land = try Self.background(of: renderer)
        let buildingColor = building.color.value(atZoom: zoom).rgba
        let opacity = building.opacity.value(atZoom: zoom)
        XCTAssertEqual(opacity, 2.0 / 3, accuracy: 1e-9)
        func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 { UInt8((Double(top) * opacity + Double(bottom) * (1 - opacity)).rounded()) }
        let blended = RGBA(mix(buildingColor.r, land.r), mix(buildingColor.g, land.g), mix(buildingColor.b, land.b), 255)
        let house = try XCTUnwrap(places["building"])
        assertColor(Self.color(bitmap, at: Self.pixel(house.coordinate, in: camera)), blended, tolerance: 3, "building")

        let road = try XCTUnwrap(places["road"])
        let feature = MockStyleFeature(properties: road.properties, styleGeometryType: .lineString)
        let roadLayer = try Self.layer("road", of: renderer, atZoom: zoom)
        XCTAssertTrue(roadLayer.matches(feature, atZoom: zoom))
        guard case .line(let line) = roadLayer.kind else { return XCTFail("road") }
        assertColor(Self.color(bitmap, at: Self.pixel(road.coordinate, in: camera)), line.color.value(atZoom: zoom, for: feature).rgba, "road")
        XCTAssertNotEqual(line.color.value(atZoom: zoom, for: feature).rgba, land)
    }

    /// The dark style draws the same places in its own colours.
    func testDarkStyleDrawsTheSamePlacesInItsColours() throws {
        let light = try Self.renderer(.light), dark = try Self.renderer(.dark)
        let places = try Self.places()
        let lake = try XCTUnwrap(places["water"]).coordinate
        let camera = VectorMapCamera(center: lake, zoom: 15, width: 64, height: 64)
        let lightBitmap = try light.render(camera), darkBitmap = try dark.render(camera)
        guard case .fill(let lightWater) = try Self.layer("water", of: light, atZoom: 14).kind,
              case .fill(let darkWater) = try Self.layer("water", of: dark, atZoom: 14).kind else { return XCTFail("water") }
        XCTAssertNotEqual(lightWater.color.value(atZoom: 14).rgba, darkWater.color.value(atZoom: 14).rgba)
        assertColor(Self.color(darkBitmap, at: (32, 32)), darkWater.color.value(atZoom: 14).rgba, "dark lake")
        assertColor(Self.color(lightBitmap, at: (32, 32)), lightWater.color.value(atZoom: 14).rgba, "light lake")
        XCTAssertNotEqual(lightBitmap.pixels, darkBitmap.pixels)

        // The harbour's sea too, each look's water over its own land.
        let sea = try XCTUnwrap(places["sea"]).coordinate
        let harbour = VectorMapCamera(center: sea, zoom: 15, width: 64, height: 64)
        for (renderer, water, look) in [(light, lightWater, "light"), (dark, darkWater, "dark")] {
            XCTAssertNotEqual(water.color.value(atZoom: 14).rgba, try Self.background(of: renderer), look)
            assertColor(Self.color(try renderer.render(harbour), at: (32, 32)), water.color.value(atZoom: 14).rgba, "\(look) harbour")
        }
    }

    /// Zoom 18 (three past the archive's 14 + 1): the z14 geometry drawn 8×
    /// larger, so a road across the view is as wide as the style says at z17
    /// (its style zoom), with edges one anti-aliased pixel wide, and its casing
    /// beside it on both sides.
    func testOverZoomDrawsLinesAtTheStyleWidthAndSharp() throws {
        // Without labels: the road's name runs along the very pixels walked across.
        let labelled = try Self.renderer(.light)
        let renderer = VectorMapRenderer(sources: labelled.sources, style: VectorMapLabelTests.labelFree(labelled.style))
        let road = try XCTUnwrap(Self.places()["road"])
        for scale in [1.0, 2.0] {
            let camera = VectorMapCamera(center: road.coordinate, zoom: 18, width: 96, height: 96, scale: scale)
            let bitmap = try renderer.render(camera)
            let feature = MockStyleFeature(properties: road.properties, styleGeometryType: .lineString)
            guard case .line(let line) = try Self.layer("road", of: renderer, atZoom: camera.styleZoom).kind,
                  case .line(let casing) = try Self.layer("road-casing", of: renderer, atZoom: camera.styleZoom).kind else { return XCTFail() }
            let width = line.width.value(atZoom: 17, for: feature) * scale
            let roadColor = line.color.value(atZoom: 17, for: feature).rgba
            let casingColor = casing.color.value(atZoom: 17, for: feature).rgba
            XCTAssertGreaterThan(width, 5)
            // Walk across the road through the centre, perpendicular to it.
            let a = Self.pixel(try XCTUnwrap(road.from), in: camera), b = Self.pixel(try XCTUnwrap(road.to), in: camera)
            let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            let normal = (x: -(b.y - a.y) / length, y: (b.x - a.x) / length)
            let middle = Double(bitmap.width) / 2
            var coverage = 0.0, partial = 0, casingSeen = (false, false)
            for step in -200...200 {
                let t = Double(step) / 10   // tenth-pixel steps across
                let p = (x: middle + normal.x * t, y: middle + normal.y * t)
                let pixel = Self.color(bitmap, at: p)
                // How far the pixel is from the casing colour towards the road colour (the blue channel differs most).
                func distance(_ u: RGBA, _ v: RGBA) -> Double {
                    Double(abs(Int(u.r) - Int(v.r)) + abs(Int(u.g) - Int(v.g)) + abs(Int(u.b) - Int(v.b)))
                }
                let towardsRoad = distance(pixel, roadColor) < 8 ? 1.0 : 0.0
                coverage += towardsRoad / 10
                if distance(pixel, casingColor) < 8 { if t < 0 { casingSeen.0 = true } else { casingSeen.1 = true } }
                if step % 10 == 0 && distance(pixel, roadColor) >= 8 && distance(pixel, casingColor) >= 8 && abs(t) < width / 2 { partial += 1 }
            }
            // Full road colour across the width less the anti-aliased edge pixels:
            // within 2 px of the style's width (blurred 8x it would be far off).
            XCTAssertEqual(coverage, width, accuracy: 2.0, "scale \(scale): \(coverage) px of road colour for a \(width) px road")
            XCTAssertLessThanOrEqual(partial, 2, "scale \(scale): pixels inside the road not its colour")
            XCTAssertTrue(casingSeen.0 && casingSeen.1, "scale \(scale): casing on both sides")
        }
    }

    /// Where the archive has no tiles (east of the extract), the snapshot is background.
    func testAreaWithoutTilesIsBackground() throws {
        let renderer = try Self.renderer(.light)
        let camera = VectorMapCamera(center: GeoCoordinate(latitude: 60.170, longitude: 25.2), zoom: 15, width: 48, height: 32)
        let bitmap = try renderer.render(camera)
        let land = try Self.background(of: renderer)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap[x, y] != land {
                return XCTFail("(\(x), \(y)) is \(bitmap[x, y]), not the background \(land)")
            }
        }
    }

    /// Views over the limits are refused before tiles are read or drawn.
    func testSnapshotLimitsAreCheckedBeforeTheWork() throws {
        let camera = VectorMapCamera(center: Self.center, zoom: 15, width: 512, height: 512)
        XCTAssertThrowsError(try Self.renderer(.light, limits: VectorMapLimits(tilesPerSnapshot: 2)).render(camera)) { error in
            XCTAssertEqual((error as? VectorTileError)?.kind, .limitExceeded)
            XCTAssertTrue("\(error)".contains("tiles"), "\(error)")
        }
        XCTAssertThrowsError(try Self.renderer(.light, limits: VectorMapLimits(featuresPerSnapshot: 100)).render(camera)) { error in
            XCTAssertEqual((error as? VectorTileError)?.kind, .limitExceeded)
            XCTAssertTrue("\(error)".contains("features"), "\(error)")
        }
        XCTAssertThrowsError(try Self.renderer(.light, limits: VectorMapLimits(verticesPerSnapshot: 1000)).render(camera)) { error in
            XCTAssertEqual((error as? VectorTileError)?.kind, .limitExceeded)
            XCTAssertTrue("\(error)".contains("vertices"), "\(error)")
        }
        // Zoomed far out, an archive starting at zoom 0 needs one tile; a bad camera is an option error.
        XCTAssertThrowsError(try Self.renderer(.light).render(VectorMapCamera(center: Self.center, zoom: 15, width: 64, height: 64, scale: 17))) { error in
            XCTAssertEqual((error as? MapOptionError)?.option, "scale")
        }
        // Pixel ratios MapLibre takes, from ¼ to 16, within 16,384 pixels a side.
        XCTAssertEqual(try Self.renderer(.light).render(VectorMapCamera(center: Self.center, zoom: 15, width: 24, height: 24, scale: 10)).width, 240)
        XCTAssertEqual(try Self.renderer(.light).render(VectorMapCamera(center: Self.center, zoom: 15, width: 24, height: 24, scale: 0.5)).width, 12)
        XCTAssertThrowsError(try Self.renderer(.light).render(VectorMapCamera(center: Self.center, zoom: 15, width: 4096, height: 64, scale: 8))) { error in
            XCTAssertEqual((error as? MapOptionError)?.option, "size")
        }
        XCTAssertThrowsError(try Self.renderer(.light).render(VectorMapCamera(center: Self.center, zoom: .nan, width: 64, height: 64))) { error in
            XCTAssertEqual((error as? MapOptionError)?.option, "zoom")
        }
    }

    /// Decoded tiles are kept in the cache and reused.
    func testTilesAreCachedBetweenSnapshots() throws {
        let renderer = try Self.renderer(.light)
        let camera = VectorMapCamera(center: Self.center, zoom: 15, width: 64, height: 64)
        let first = try renderer.render(camera)
        XCTAssertEqual(renderer.cache.count, 1)
        XCTAssertEqual(try renderer.render(camera).pixels, first.pixels)
        XCTAssertEqual(renderer.cache.count, 1)
        // The second snapshot drew from the prepared layers of the first; after
        // the tiles are dropped and decoded again, they are prepared again.
        let prepared = renderer.preparedLayers.count
        XCTAssertGreaterThan(prepared, 0)
        renderer.cache.removeAll()
        XCTAssertEqual(try renderer.render(camera).pixels, first.pixels)
        XCTAssertEqual(renderer.preparedLayers.count, prepared)
    }

    /// Drawn in parallel bands or on one canvas, a snapshot is the same bytes
    /// (1024 pixels high: five of the 255-row bands a 512-pixel-wide canvas fills in).
    /// With labels (bands joined, labels drawn on top) and without (each band
    /// converted to straight alpha on its own thread).
    func testBandsDrawTheSameBytesAsOneCanvas() throws {
        let labelled = try Self.renderer(.light)
        let labelFree = VectorMapRenderer(sources: labelled.sources,
                                          style: VectorMapLabelTests.labelFree(labelled.style))
        let camera = VectorMapCamera(center: Self.center, zoom: 15, width: 256, height: 512, scale: 2)
        for var renderer in [labelled, labelFree] {
            renderer.bandCount = 1
            let whole = try renderer.render(camera)
            for count in [2, 3, 8] {
                renderer.bandCount = count
                XCTAssertEqual(try renderer.render(camera).pixels, whole.pixels, "\(count) bands")
            }
        }
    }

    /// Extreme paint values draw (clamped, or solid for an absurd dash) in
    /// bounded time, neither crash nor throw.
    func testHostilePaintValuesAreBounded() throws {
        let style = try VectorStyle(json: #"""
        {"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [
          {"id": "bg", "type": "background", "paint": {"background-color": "#123456"}},
          {"id": "f", "type": "fill", "source": "s", "source-layer": "building", "paint": {"fill-translate": [1e300, -1e300]}},
          {"id": "l", "type": "line", "source": "s", "source-layer": "transportation",
           "paint": {"line-width": 1e9, "line-gap-width": 1e12, "line-offset": -1e15, "line-dasharray": [1e-9, 1e-9]}},
          {"id": "d", "type": "line", "source": "s", "source-layer": "transportation",
           "paint": {"line-width": 2, "line-dasharray": [1e-7, 1e-7]}}
        ]}
        """#)
        let archive = try PMTilesArchive(url: Self.tiles.appendingPathComponent("helsinki-openmaptiles.pmtiles"))
        let renderer = VectorMapRenderer(archive: archive, sourceName: "hostile", style: style)
        let started = Date()
        let bitmap = try renderer.render(VectorMapCamera(center: Self.center, zoom: 15, width: 64, height: 64))
        XCTAssertEqual(bitmap.width, 64)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }
}
