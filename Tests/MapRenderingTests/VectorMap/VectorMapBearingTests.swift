import Foundation
import Raster
import XCTest
@testable import MapRendering

/// The camera's bearing: points land where MapLibre's transform puts them,
/// the tile cover holds every tile the turned view touches, fills and lines
/// turn with the map, point labels stay upright and line labels follow lines.
final class VectorMapBearingTests: XCTestCase {
    /// Where MapLibre's transform (maplibre-gl-js `src/geo/projection/
    /// mercator_transform.ts`, `_calcMatrices`) puts `coordinate` in CSS
    /// pixels: the projection matrix `perspective(fov) · scale(1, −1, 1) ·
    /// translate(0, 0, −cameraToCenterDistance) · rotateX(pitch) ·
    /// rotateZ(−bearing) · translate(−centre)` applied step by step to the
    /// world point (512-pixel tiles), then the pixel matrix
    /// `scale(w/2, −h/2, 1) · translate(1, −1, 0)`.
    static func mapLibrePixel(of coordinate: GeoCoordinate, center: GeoCoordinate, zoom: Double, bearing: Double,
                              pitch: Double = 0, width: Double, height: Double) -> (x: Double, y: Double) {
        let fov = 0.6435011087932844
        let world = 512 * pow(2, zoom)
        func mercator(_ c: GeoCoordinate) -> (Double, Double) {
            let y = log(tan(.pi / 4 + c.latitude * .pi / 360))
            return ((180 + c.longitude) / 360 * world, (180 - y * 180 / .pi) / 360 * world)
        }
        let (px, py) = mercator(coordinate), (cx, cy) = mercator(center)
        var v = (x: px - cx, y: py - cy, z: 0.0)
        let angle = -bearing * .pi / 180
        v = (cos(angle) * v.x - sin(angle) * v.y, sin(angle) * v.x + cos(angle) * v.y, v.z)
        let tilt = pitch * .pi / 180
        v = (v.x, cos(tilt) * v.y - sin(tilt) * v.z, sin(tilt) * v.y + cos(tilt) * v.z)
        v.z -= 0.5 / tan(fov / 2) * height
        v.y = -v.y
        let f = 1 / tan(fov / 2)
        let w = -v.z
        let ndc = (x: f / (width / height) * v.x / w, y: f * v.y / w)
        return (width / 2 * (ndc.x + 1), height / 2 * (1 - ndc.y))
    }

    /// Our pixel of `coordinate`: through the tile that holds it, as every drawing stage projects.
    private func pixel(of coordinate: GeoCoordinate, _ camera: VectorMapCamera) throws -> Point {
        let frame = VectorMapFrame(camera: camera, zoomRange: 0...14)
        let world = WebMercator.worldSize(zoom: camera.zoom) * camera.scale
        let wx = WebMercator.unitX(longitude: coordinate.longitude) * world
        let wy = WebMercator.unitY(latitude: coordinate.latitude) * world
        let column = Int((wx / frame.tileSide).rounded(.down)), row = Int((wy / frame.tileSide).rounded(.down))
        let place = try XCTUnwrap(frame.cover.first { $0.tile.x == column && $0.tile.y == row }, "the tile holding the point is covered")
        return place.pixel(wx - Double(column) * frame.tileSide, wy - Double(row) * frame.tileSide)
    }

    func testAPointLandsWhereMapLibresTransformPutsIt() throws {
        let center = GeoCoordinate(latitude: 52.499167, longitude: 13.418056)
        let point = GeoCoordinate(latitude: 52.5, longitude: 13.42)
        for bearing in [0, 20, 45, 90, 161.5, 180, 270, 335] {
            for scale in [1.0, 2.0] {
                let camera = VectorMapCamera(center: center, zoom: 15, width: 300, height: 200, scale: scale, bearing: bearing)
                let expected = Self.mapLibrePixel(of: point, center: center, zoom: 14, bearing: bearing, width: 300, height: 200)
                let actual = try pixel(of: point, camera)
                XCTAssertEqual(actual.x, expected.x * scale, accuracy: 1e-6, "bearing \(bearing), scale \(scale)")
                XCTAssertEqual(actual.y, expected.y * scale, accuracy: 1e-6, "bearing \(bearing), scale \(scale)")
            }
        }
        // East points up at 90: a point east of the centre lands above it.
        let east = try pixel(of: GeoCoordinate(latitude: center.latitude, longitude: 13.421),
                             VectorMapCamera(center: center, zoom: 15, width: 300, height: 200, bearing: 90))
        XCTAssertEqual(east.x, 150, accuracy: 1e-6)
        XCTAssertLessThan(east.y, 100)
    }

    /// Every tile the turned view touches is covered, and no tile it misses.
    func testTheCoverHoldsExactlyTheTilesTheTurnedViewTouches() {
        let (width, height) = (700, 300)
        for bearing in [0.0, 30, 45, 90, 200, 333] {
            let angle = -bearing * .pi / 180
            let (c, s) = (cos(angle), sin(angle))
            let cover = TileCover(zoom: 6, tileSide: 100, left: 1000.5, top: 2000.25, pixelWidth: width, pixelHeight: height, bearing: bearing)
            let placed = Dictionary(cover.map { ("\($0.tile.x)/\($0.tile.y)", $0) }, uniquingKeysWith: { a, _ in a })
            XCTAssertEqual(placed.count, cover.count, "bearing \(bearing): each tile once, counted right")
            // Sample the image: the world point under each pixel lies in a covered tile.
            var touched = Set<String>()
            for y in stride(from: 0.0, through: Double(height), by: 2) {
                for x in stride(from: 0.0, through: Double(width), by: 2) {
                    let dx = x - Double(width) / 2, dy = y - Double(height) / 2
                    let wx = 1000.5 + Double(width) / 2 + c * dx + s * dy, wy = 2000.25 + Double(height) / 2 - s * dx + c * dy
                    let key = "\(Int((wx / 100).rounded(.down)))/\(Int((wy / 100).rounded(.down)))"
                    touched.insert(key)
                    XCTAssertNotNil(placed[key], "bearing \(bearing): the tile under pixel (\(x), \(y)) is covered")
                }
            }
            // Tiles touched only between samples (a corner clipped by under two pixels) are allowed extra.
            XCTAssertLessThanOrEqual(placed.count - touched.count, 4, "bearing \(bearing): no tile the view misses")
            if bearing.truncatingRemainder(dividingBy: 90) != 0 {
                XCTAssertLessThan(cover.count, 13 * 9, "bearing \(bearing): fewer than the turned view's bounding box")
            }
        }
    }

    /// A view of more rows than are scanned one by one (tiny tiles of a
    /// hostile zoom range) is counted and covered by its bounding box: what is
    /// counted is what is made, and it holds every tile the view touches.
    func testAViewOfTooManyRowsIsCoveredByItsBoundingBox() {
        let cover = TileCover(zoom: 16, tileSide: 0.1, left: 1000, top: 1000, pixelWidth: 2, pixelHeight: 500, bearing: 1)
        XCTAssertEqual(cover.count, Array(cover).count)
        let rows = Set(cover.map(\.tile.y))
        XCTAssertGreaterThan(rows.count, TileCover.maximumScannedRows)
        XCTAssertEqual(cover.count, rows.count * Set(cover.map(\.tile.x)).count, "a box")
    }

    private func style(_ data: String, layers: String) throws -> (VectorStyle, GeoJSONTiles) {
        let style = try VectorStyle(json: #"{"version": 8, "sources": {"g": {"type": "geojson", "data": \#(data)}}, "layers": \#(layers)}"#)
        guard case .geojson(let geojson)? = style.sources["g"]?.kind, case .inline(let document) = geojson.data else {
            throw FixtureError("no inline source")
        }
        return (style, geojson.tiles(document))
    }

    /// A square east of the centre is drawn above it at bearing 90, below it at 270.
    func testFillsTurnWithTheMap() throws {
        let (style, tiles) = try style(#"""
        {"type": "Polygon", "coordinates": [[[10, -5], [20, -5], [20, 5], [10, 5], [10, -5]]]}
        """#, layers: #"""
        [{"id": "b", "type": "background", "paint": {"background-color": "#ffffff"}},
         {"id": "f", "type": "fill", "source": "g", "paint": {"fill-color": "#ff0000"}}]
        """#)
        let renderer = VectorMapRenderer(tiles: tiles, sourceName: "g", style: style)
        func render(_ bearing: Double) throws -> Bitmap {
            try renderer.render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 3, width: 256, height: 256, bearing: bearing))
        }
        // Zoom 3: 2048 points round the world; the square spans 57…114 points east of the centre, ±28 north and south.
        let red = RGBA(255, 0, 0), white = RGBA(255, 255, 255)
        let north = try render(0)
        XCTAssertEqual(north[128 + 85, 128], red)
        XCTAssertEqual(north[128, 128 - 85], white)
        let east = try render(90)
        XCTAssertEqual(east[128, 128 - 85], red, "east is up")
        XCTAssertEqual(east[128 + 85, 128], white)
        let west = try render(270)
        XCTAssertEqual(west[128, 128 + 85], red, "east is down")
        XCTAssertEqual(west[128 + 85, 128], white)
        let turned = try render(45)
        XCTAssertEqual(turned[128 + 60, 128 - 60], red, "east is up and right")
    }

    /// A point's label stays upright on a turned map, centred where its point
    /// lands; a line's label follows the line as turned.
    func testPointLabelsStayUprightAndLineLabelsFollowTurnedLines() throws {
        let (style, tiles) = try style(#"""
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"kind": "place"}, "geometry": {"type": "Point", "coordinates": [10, 0]}},
          {"type": "Feature", "properties": {"kind": "street"}, "geometry": {"type": "LineString", "coordinates": [[-5, -40], [-5, 40]]}}]}
        """#, layers: #"""
        [{"id": "b", "type": "background", "paint": {"background-color": "#ffffff"}},
         {"id": "place", "type": "symbol", "source": "g", "filter": ["==", ["get", "kind"], "place"],
          "layout": {"text-field": "Placename"}},
         {"id": "street", "type": "symbol", "source": "g", "filter": ["==", ["get", "kind"], "street"],
          "layout": {"text-field": "Long Street", "symbol-placement": "line"}}]
        """#)
        let renderer = VectorMapRenderer(tiles: tiles, sourceName: "g", style: style)
        let labels = try renderer.snapshot(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 3,
                                                           width: 256, height: 256, bearing: 90)).labels
        let place = try XCTUnwrap(labels.first { $0.layerID == "place" })
        XCTAssertEqual(place.anchor.x, 128, accuracy: 0.5)
        XCTAssertEqual(place.anchor.y, 128 - 2048 * 10 / 360, accuracy: 0.5, "east is up")
        let box = try XCTUnwrap(place.boxes.first)
        XCTAssertGreaterThan(box.maxX - box.minX, 2 * (box.maxY - box.minY), "upright: wider than tall")
        let street = try XCTUnwrap(labels.first { $0.layerID == "street" })
        guard case .alongLine(let glyphs, _) = street.layout else { return XCTFail("along the line") }
        XCTAssertFalse(glyphs.isEmpty)
        for glyph in glyphs {
            // North–south on the map, left–right on the image at bearing 90 (upright: reading left to right).
            XCTAssertEqual(abs(remainder(glyph.angle, .pi)), 0, accuracy: 1e-6)
        }
        XCTAssertEqual(street.anchor.y, 128 + 2048 * 5 / 360, accuracy: 0.5, "west is down")
    }

    /// A bearing out of 0…360 (or not a number) is refused, naming it.
    func testABearingOutOfRangeIsAnErrorNamingIt() throws {
        let (style, tiles) = try style(#"{"type": "Point", "coordinates": [0, 0]}"#, layers: "[]")
        let renderer = VectorMapRenderer(tiles: tiles, sourceName: "g", style: style)
        for bearing in [-1, 360.5, .nan, .infinity] {
            XCTAssertThrowsError(try renderer.render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 3,
                                                                     width: 16, height: 16, bearing: bearing))) { error in
                XCTAssertEqual((error as? MapOptionError)?.option, "bearing")
                XCTAssertTrue("\(error)".contains("0…360"), "\(error)")
            }
        }
    }

    /// `map://`'s viewport turns its points about the image's centre, and a
    /// fitted camera fits the overlays as turned: two markers 20° apart east
    /// to west stand one above the other at bearing 90, both in a wide, low image.
    func testTheSnapshotViewportTurnsAndFitsTheTurnedOverlays() {
        let markers = [MapMarker(coordinate: GeoCoordinate(latitude: 0, longitude: -10)), MapMarker(coordinate: GeoCoordinate(latitude: 0, longitude: 10))]
        let options = MapSnapshotOptions(camera: .fit(center: nil, padding: 10), width: 400, height: 200, markers: markers, bearing: 90)
        let viewport = MapViewport(options: options)
        let west = viewport.pixel(for: markers[0].coordinate), east = viewport.pixel(for: markers[1].coordinate)
        XCTAssertEqual(west.x, 200, accuracy: 1e-6)
        XCTAssertEqual(east.x, 200, accuracy: 1e-6)
        XCTAssertLessThan(east.y, west.y, "east is up")
        for p in [west, east] {
            XCTAssertGreaterThanOrEqual(p.y - markers[0].size.height, 10 - 1e-6, "the pin stays inside the padding")
            XCTAssertLessThanOrEqual(p.y, 190 + 1e-6)
        }
        // The inverse turns back.
        let back = viewport.coordinate(atPixel: east.x, east.y)
        XCTAssertEqual(back.longitude, 10, accuracy: 1e-9)
        XCTAssertEqual(back.latitude, 0, accuracy: 1e-9)
    }

    func testATranslatedLineIsClippedToItsTileSquareUnderARightAngleBearing() throws {
        // A line 10° N in the top tiles only (no buffer), translated 40 pixels south: past its
        // tiles' squares, where MapLibre's stencil clips it away, at bearing 0 as at 90.
        func drawn(bearing: Double, translate: Bool) throws -> Int {
            let style = try VectorStyle(json: #"""
            {"version": 8, "sources": {"g": {"type": "geojson", "buffer": 0, "data": {"type": "LineString", "coordinates": [[-40, 10], [40, 10]]}}},
             "layers": [{"id": "l", "type": "line", "source": "g", "paint": {"line-width": 4\#(translate ? #", "line-translate": [0, 40]"# : "")}}]}
            """#)
            guard case .geojson(let geojson)? = style.sources["g"]?.kind, case .inline(let document) = geojson.data else { throw FixtureError("no inline source") }
            let bitmap = try VectorMapRenderer(tiles: geojson.tiles(document), sourceName: "g", style: style)
                .render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 2, width: 128, height: 128, bearing: bearing))
            return (0..<128).reduce(0) { count, y in count + (0..<128).filter { bitmap[$0, y].a > 0 }.count }
        }
        XCTAssertGreaterThan(try drawn(bearing: 90, translate: false), 200, "the line itself")
        XCTAssertEqual(try drawn(bearing: 0, translate: true), 0)
        XCTAssertEqual(try drawn(bearing: 90, translate: true), 0)
        XCTAssertEqual(try drawn(bearing: 270, translate: true), 0)
    }
}
