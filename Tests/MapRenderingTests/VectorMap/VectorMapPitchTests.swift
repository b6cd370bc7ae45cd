import Foundation
import Raster
import XCTest
@testable import MapRendering

/// The camera's pitch: points land where MapLibre's perspective transform
/// puts them, the near and far planes are MapLibre's, the cover holds the
/// ground the image shows, and fills, lines, circles and rasters are drawn
/// through the one projection.
final class VectorMapPitchTests: XCTestCase {
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

    /// Against MapLibre's whole 4×4 matrix chain (perspective, camera
    /// distance, rotateX by the pitch, rotateZ by the bearing), step by step.
    func testAPointLandsWhereMapLibresPerspectiveTransformPutsIt() throws {
        let center = GeoCoordinate(latitude: 52.499167, longitude: 13.418056)
        for point in [GeoCoordinate(latitude: 52.5, longitude: 13.42), GeoCoordinate(latitude: 52.4985, longitude: 13.4165)] {
            for pitch in [10.0, 30, 45, 60, 75, 85] {
                for bearing in [0.0, 37, 200] {
                    for scale in [1.0, 2.0] {
                        let camera = VectorMapCamera(center: center, zoom: 15, width: 300, height: 200, scale: scale, bearing: bearing, pitch: pitch)
                        let expected = VectorMapBearingTests.mapLibrePixel(of: point, center: center, zoom: 14, bearing: bearing, pitch: pitch,
                                                                          width: 300, height: 200)
                        let actual = try pixel(of: point, camera)
                        XCTAssertEqual(actual.x, expected.x * scale, accuracy: 1e-6, "pitch \(pitch), bearing \(bearing), scale \(scale)")
                        XCTAssertEqual(actual.y, expected.y * scale, accuracy: 1e-6, "pitch \(pitch), bearing \(bearing), scale \(scale)")
                        // And back: the frame's inverse finds the point under its pixel.
                        let frame = VectorMapFrame(camera: camera, zoomRange: 0...14)
                        let unit = frame.unitPoint(x: actual.x, y: actual.y)
                        XCTAssertEqual(unit.x, WebMercator.unitX(longitude: point.longitude), accuracy: 1e-12)
                        XCTAssertEqual(unit.y, WebMercator.unitY(latitude: point.latitude), accuracy: 1e-12)
                    }
                }
            }
        }
    }

    /// Values worked by hand from MapLibre's formulas for a 512-pixel-high
    /// image at pitch 60: the camera 768 pixels from the centre (½ · 512 /
    /// tan(0.6435 / 2) = 1.5 · 512), a point 100 pixels up the plane at depth
    /// 768 + sin 60° · 100, the far plane (law of sines, × 1.01) just above the top.
    func testTheProjectionMatchesHandWorkedValues() {
        let projection = PitchProjection(pitch: 60, width: 512, height: 512)
        XCTAssertEqual(projection.distance, 768, accuracy: 1e-9)
        let depth = (768 + 3.0.squareRoot() / 2 * 100) / 768
        XCTAssertEqual(projection.depthRatio(atPlaneY: 156), depth, accuracy: 1e-12)
        let p = projection.project(Point(356, 156))
        XCTAssertEqual(p.x, 256 + 100 / depth, accuracy: 1e-9)
        XCTAssertEqual(p.y, 256 - 0.5 * 100 / depth, accuracy: 1e-9)
        let back = projection.unproject(p)
        XCTAssertEqual(back.x, 356, accuracy: 1e-9)
        XCTAssertEqual(back.y, 156, accuracy: 1e-9)
        // Far plane: the top edge sees the ground 0.2017 rad past the ground angle.
        let halfFov = 0.6435011087932844 / 2
        let top = sin(halfFov) * 768 / sin(Double.pi - (Double.pi / 2 + Double.pi / 3) - halfFov)
        let far = (3.0.squareRoot() / 2 * top + 768) * 1.01
        XCTAssertEqual(projection.farY, 256 - (far - 768) / (3.0.squareRoot() / 2), accuracy: 1e-9)
        XCTAssertLessThan(projection.farRow, 0, "at 60° the ground fills the image")
        XCTAssertEqual(projection.nearY, 256 + (768 - 512.0 / 50) / (3.0.squareRoot() / 2), accuracy: 1e-9)
        // Past 71.57° (the pitch plus half the field of view passes 90°) the top shows sky.
        XCTAssertGreaterThan(PitchProjection(pitch: 80, width: 512, height: 512).farRow, 0)
    }

    /// The cover holds every tile under the pitched image (sampled pixel by
    /// pixel through the inverse), and more of them far away than near.
    func testTheCoverHoldsTheGroundThePitchedViewShows() {
        for (pitch, bearing) in [(45.0, 0.0), (60, 30), (80, 200)] {
            let camera = VectorMapCamera(center: GeoCoordinate(latitude: 40, longitude: -3), zoom: 12, width: 400, height: 300, bearing: bearing, pitch: pitch)
            let frame = VectorMapFrame(camera: camera, zoomRange: 0...14)
            let cover = Array(frame.cover)
            XCTAssertEqual(cover.count, frame.cover.count)
            let tiles = Set(cover.map { "\($0.tile.z)/\($0.tile.x)/\($0.tile.y)" })
            let zooms = Set(cover.map(\.tile.z))
            for y in stride(from: 0.5, to: 300, by: 3) {
                for x in stride(from: 0.5, to: 400, by: 3) {
                    let unit = frame.unitPoint(x: x, y: y)
                    guard unit.x.isFinite else { continue }
                    let covered = zooms.contains { z in
                        let n = Double(1 << z)
                        let column = ((Int((unit.x * n).rounded(.down)) % (1 << z)) + (1 << z)) % (1 << z)
                        return tiles.contains("\(z)/\(column)/\(Int((unit.y * n).rounded(.down)))")
                    }
                    XCTAssertTrue(covered, "pitch \(pitch): the tile under (\(x), \(y)) is covered")
                }
            }
            if pitch > 60 {
                // MapLibre's levels of detail: the tiles near the centre of the
                // frame's zoom, farther ones from lower zooms, far fewer than one zoom's.
                XCTAssertGreaterThan(zooms.count, 2, "pitch \(pitch): \(zooms.sorted())")
                XCTAssertEqual(cover.first?.tile.z, frame.tileZoom, "nearest the centre first, at full detail")
                XCTAssertLessThan(cover.count, 64)
            } else {
                XCTAssertEqual(zooms, [frame.tileZoom])
            }
            let flat = VectorMapFrame(camera: VectorMapCamera(center: camera.center, zoom: 12, width: 400, height: 300, bearing: bearing),
                                      zoomRange: 0...14)
            XCTAssertGreaterThan(cover.count, flat.cover.count, "pitch \(pitch) shows more ground")
        }
    }

    private func style(_ data: String, layers: String) throws -> (VectorStyle, GeoJSONTiles) {
        let style = try VectorStyle(json: #"{"version": 8, "sources": {"g": {"type": "geojson", "data": \#(data)}}, "layers": \#(layers)}"#)
        guard case .geojson(let geojson)? = style.sources["g"]?.kind, case .inline(let document) = geojson.data else {
            throw FixtureError("no inline source")
        }
        return (style, geojson.tiles(document))
    }

    /// A band from 60° S to 60° N is drawn between the rows MapLibre's
    /// transform puts its edges on; a circle north of the centre lands where
    /// its centre projects, smaller by its depth (`circle-pitch-scale: map`).
    func testFillsAndCirclesAreProjected() throws {
        let (style, tiles) = try style(#"""
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"k": "band"}, "geometry": {"type": "Polygon",
           "coordinates": [[[-180, -60], [-180, 60], [180, 60], [180, -60], [-180, -60]]]}},
          {"type": "Feature", "properties": {"k": "dot"}, "geometry": {"type": "Point", "coordinates": [0, 30]}}]}
        """#, layers: #"""
        [{"id": "b", "type": "background", "paint": {"background-color": "#ffffff"}},
         {"id": "f", "type": "fill", "source": "g", "filter": ["==", ["get", "k"], "band"], "paint": {"fill-color": "#888888"}},
         {"id": "c", "type": "circle", "source": "g", "filter": ["==", ["get", "k"], "dot"],
          "paint": {"circle-color": "#ff0000", "circle-radius": 10}}]
        """#)
        let renderer = VectorMapRenderer(tiles: tiles, sourceName: "g", style: style)
        let center = GeoCoordinate(latitude: 0, longitude: 0)
        for pitch in [20.0, 45] {
            let image = try renderer.render(VectorMapCamera(center: center, zoom: 1, width: 512, height: 256, pitch: pitch))
            let top = VectorMapBearingTests.mapLibrePixel(of: GeoCoordinate(latitude: 60, longitude: 0), center: center, zoom: 0,
                                                         bearing: 0, pitch: pitch, width: 512, height: 256).y
            let bottom = VectorMapBearingTests.mapLibrePixel(of: GeoCoordinate(latitude: -60, longitude: 0), center: center, zoom: 0,
                                                            bearing: 0, pitch: pitch, width: 512, height: 256).y
            let grey = RGBA(0x88, 0x88, 0x88), white = RGBA(255, 255, 255)
            XCTAssertEqual(image[20, Int(top.rounded(.down)) - 2], white, "pitch \(pitch): above the band")
            XCTAssertEqual(image[20, Int(top.rounded(.up)) + 2], grey, "pitch \(pitch): the band's top at \(top)")
            XCTAssertEqual(image[20, Int(bottom.rounded(.down)) - 2], grey, "pitch \(pitch): the band's bottom at \(bottom)")
            XCTAssertEqual(image[20, Int(bottom.rounded(.up)) + 2], white, "pitch \(pitch): below the band")
            let dot = VectorMapBearingTests.mapLibrePixel(of: GeoCoordinate(latitude: 30, longitude: 0), center: center, zoom: 0,
                                                         bearing: 0, pitch: pitch, width: 512, height: 256)
            let depth = PitchProjection(pitch: pitch, width: 512, height: 256).depthRatio(atPlaneY: 128 - 512 * (log(tan(.pi / 4 + .pi / 12))) / (2 * .pi))
            let radius = 10 / depth
            XCTAssertEqual(image[Int(dot.x), Int(dot.y)], RGBA(255, 0, 0))
            XCTAssertEqual(image[Int(dot.x + radius - 1.5), Int(dot.y)], RGBA(255, 0, 0), "pitch \(pitch): radius \(radius)")
            XCTAssertEqual(image[Int(dot.x + radius + 1.5), Int(dot.y)], grey, "pitch \(pitch): radius \(radius)")
        }
    }

    /// `circle-pitch-alignment: map`: the disc lies on the map, an ellipse on
    /// the image about half as tall as wide at 60°, centred where its centre projects.
    func testCirclesOnTheMapTiltWithIt() throws {
        let (style, tiles) = try style(#"{"type": "Point", "coordinates": [0, 0]}"#, layers: #"""
        [{"id": "b", "type": "background", "paint": {"background-color": "#ffffff"}},
         {"id": "c", "type": "circle", "source": "g", "paint": {"circle-color": "#ff0000", "circle-radius": 40, "circle-pitch-alignment": "map"}}]
        """#)
        let renderer = VectorMapRenderer(tiles: tiles, sourceName: "g", style: style)
        let image = try renderer.render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 1, width: 256, height: 256, pitch: 60))
        let red = RGBA(255, 0, 0)
        XCTAssertEqual(image[128, 128], red)
        XCTAssertEqual(image[128 + 36, 128], red, "as wide as its radius")
        XCTAssertEqual(image[128 - 36, 128], red)
        XCTAssertNotEqual(image[128, 128 - 30], red, "and about half as tall")
        XCTAssertNotEqual(image[128, 128 + 30], red)
        XCTAssertEqual(image[128, 128 - 15], red)
        XCTAssertEqual(image[128, 128 + 15], red)
    }

    /// `map://`'s viewport: a point lands where MapLibre's transform puts it,
    /// one behind the camera has no pixel, and a steep pitch at zoom 0 (the
    /// far plane a hundred worlds away) draws MapLibre's seven copies of the world, not all.
    func testTheSnapshotViewportTiltsAndBoundsItsWorldCopies() {
        let center = GeoCoordinate(latitude: 10, longitude: 20)
        let options = MapSnapshotOptions(camera: .zoom(center: center, zoom: 4), width: 300, height: 200, bearing: 30, pitch: 50)
        let viewport = MapViewport(options: options)
        let point = GeoCoordinate(latitude: 12, longitude: 21)
        let expected = VectorMapBearingTests.mapLibrePixel(of: point, center: center, zoom: 3, bearing: 30, pitch: 50, width: 300, height: 200)
        let actual = viewport.pixel(for: point)
        XCTAssertEqual(actual.x, expected.x, accuracy: 1e-6)
        XCTAssertEqual(actual.y, expected.y, accuracy: 1e-6)
        XCTAssertFalse(viewport.pixel(for: GeoCoordinate(latitude: -60, longitude: 20)).x.isFinite, "behind the camera")
        let world = MapViewport(options: MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 0),
                                                            width: 4096, height: 4096, pitch: 85))
        XCTAssertEqual(world.copyOffsets(minX: 0, maxX: 256).count, 7)
    }

    /// A pitch out of 0…85 (or not a number) is refused, naming it.
    func testAPitchOutOfRangeIsAnErrorNamingIt() throws {
        let (style, tiles) = try style(#"{"type": "Point", "coordinates": [0, 0]}"#, layers: "[]")
        let renderer = VectorMapRenderer(tiles: tiles, sourceName: "g", style: style)
        for pitch in [-1, 85.5, 90, .nan, .infinity] {
            XCTAssertThrowsError(try renderer.render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 3,
                                                                     width: 16, height: 16, pitch: pitch))) { error in
                XCTAssertEqual((error as? MapOptionError)?.option, "pitch")
                XCTAssertTrue("\(error)".contains("0…85"), "\(error)")
            }
        }
    }

    /// Lines are cut at the planes: a line reaching behind the camera keeps
    /// only what lies in front, and a ring across the far plane is closed along it.
    func testClippingKeepsWhatLiesBetweenThePlanes() {
        let projection = PitchProjection(pitch: 80, width: 200, height: 100)
        let pieces = projection.clip(line: [Point(50, projection.farY - 100), Point(50, 50), Point(50, projection.nearY + 1e6)])
        XCTAssertEqual(pieces.count, 1)
        XCTAssertEqual(pieces[0].first!.y, projection.farY, accuracy: 1e-9)
        XCTAssertLessThan(pieces[0].last!.y, projection.nearY)
        XCTAssertGreaterThan(projection.depthRatio(atPlaneY: pieces[0].last!.y), 0.1)
        let ring = projection.clip(ring: [Point(0, projection.farY - 50), Point(100, projection.farY - 50), Point(100, 50), Point(0, 50)])
        XCTAssertEqual(ring.count, 4)
        XCTAssertEqual(ring.map(\.y).min()!, projection.farY, accuracy: 1e-9)
        // A line crossing the band twice leaves two pieces.
        XCTAssertEqual(projection.clip(line: [Point(0, 50), Point(0, projection.farY - 10), Point(10, 50)]).count, 2)
    }
}
