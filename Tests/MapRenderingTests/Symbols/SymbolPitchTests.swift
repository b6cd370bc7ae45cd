import Foundation
import Raster
import XCTest
@testable import MapRendering

/// Labels and icons under a pitched camera as MapLibre draws them: facing the
/// image, scaled by the perspective ratio; lying on the map, foreshortened.
final class SymbolPitchTests: XCTestCase {
    /// An 8-pixel square glyph "A" (16 pixels at `text-size` 48).
    let a = GlyphPBF.square(65, side: 8, left: 1, top: -4, advance: 10)

    /// The box of the dark pixels of `bitmap` (width, height), nil when none is.
    private func ink(_ bitmap: Bitmap) -> (width: Int, height: Int)? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap[x, y].r < 128 || bitmap[x, y].g < 128 {
                (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
            }
        }
        return maxX < 0 ? nil : (maxX - minX + 1, maxY - minY + 1)
    }

    private func camera(pitch: Double) -> VectorMapCamera {
        VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 3, width: 128, height: 128, pitch: pitch)
    }

    /// The text "A" at `points` with `layout` drawn by `camera`.
    private func text(_ layout: String, points: [[Double]] = [[0, 0]], geometry: String = "MultiPoint", camera: VectorMapCamera) throws -> Bitmap {
        var (folder, renderer) = try SDFTextDrawerTests.styled(a, points: points, layout: "\"text-size\": 48, " + layout, geometry: geometry)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The label's box (its line's height) may reach past the image, as MapLibre's does.
        renderer.labelsCrossEdges = true
        return try renderer.render(camera)
    }

    func testTextLyingOnTheMapIsForeshortened() throws {
        let layout = "\"text-pitch-alignment\": \"map\""
        let flat = try XCTUnwrap(ink(try text(layout, camera: camera(pitch: 0))))
        let pitched = try XCTUnwrap(ink(try text(layout, camera: camera(pitch: 60))))
        // At the centre the perspective ratio is 1: as wide, half as tall (cos 60°).
        XCTAssertEqual(Double(pitched.width), Double(flat.width), accuracy: 2)
        XCTAssertLessThan(Double(pitched.height), 0.7 * Double(flat.height))
        // Facing the image (the default for points) it is as tall as unpitched.
        let facing = try XCTUnwrap(ink(try text("\"text-pitch-alignment\": \"viewport\"", camera: camera(pitch: 60))))
        XCTAssertEqual(Double(facing.height), Double(flat.height), accuracy: 1)
    }

    func testTextFacingTheImageGrowsNearTheCamera() throws {
        // 10° south lies 57 pixels below the centre on the map: at 60° its depth is
        // 0.743 of the centre's, so MapLibre's ratio 0.5 + 0.5 / 0.743 = 1.17 scales the label.
        let flat = try XCTUnwrap(ink(try text("\"text-allow-overlap\": true", camera: camera(pitch: 0))))
        let near = try XCTUnwrap(ink(try text("\"text-allow-overlap\": true", points: [[0, -10]], camera: camera(pitch: 60))))
        XCTAssertEqual(Double(near.width) / Double(flat.width), 1.17, accuracy: 0.08)
        XCTAssertEqual(Double(near.height) / Double(flat.height), 1.17, accuracy: 0.08)
    }

    func testLineLabelLiesOnTheMap() throws {
        // Along a line, `auto` pitch alignment follows the rotation alignment (the map).
        let layout = "\"symbol-placement\": \"line\""
        let line = [[-20.0, 5], [20, 5]]
        let flat = try XCTUnwrap(ink(try text(layout, points: line, geometry: "LineString", camera: camera(pitch: 0))))
        let pitched = try XCTUnwrap(ink(try text(layout, points: line, geometry: "LineString", camera: camera(pitch: 60))))
        XCTAssertLessThan(Double(pitched.height), 0.7 * Double(flat.height))
        let facing = try XCTUnwrap(ink(try text(layout + ", \"text-pitch-alignment\": \"viewport\"", points: line, geometry: "LineString",
                                                camera: camera(pitch: 60))))
        XCTAssertEqual(Double(facing.height), Double(flat.height), accuracy: 1)
    }

    /// The 4 × 4 sprite icon "box" at 4 × its size at the centre drawn by `camera`.
    private func icon(_ layout: String, camera: VectorMapCamera) throws -> Bitmap {
        let style = try VectorStyle(json: #"""
        {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "icons", "type": "symbol", "source": "g", "layout": {"icon-image": "box", "icon-size": 4\#(layout)}}]}
        """#)
        XCTAssertEqual(style.warnings, [])
        guard case .geojson(let geojson)? = style.sources["g"]?.kind, case .inline(let document) = geojson.data else {
            throw FixtureError("the fixture style did not read as expected")
        }
        var renderer = VectorMapRenderer(tiles: geojson.tiles(document), sourceName: "g", style: style)
        renderer.sprites = try SymbolIconTests.sprites()
        return try renderer.render(camera)
    }

    func testIconLyingOnTheMapIsForeshortened() throws {
        let flat = try XCTUnwrap(ink(try icon("", camera: camera(pitch: 0))))
        XCTAssertEqual(flat.height, 16)
        let onMap = try XCTUnwrap(ink(try icon(#", "icon-pitch-alignment": "map""#, camera: camera(pitch: 60))))
        XCTAssertEqual(Double(onMap.width), 16, accuracy: 1)
        XCTAssertLessThanOrEqual(onMap.height, 10)
        let facing = try XCTUnwrap(ink(try icon("", camera: camera(pitch: 60))))
        XCTAssertEqual(facing.height, 16)
    }

    func testLineRunningBehindTheCameraIsTruncated() throws {
        // A 100-pixel image at 60°: the camera stands 150 pixels from the centre, so
        // ground past plane y 223 lies behind it. The line runs down from the anchor to y 1000.
        let pitch = PitchProjection(pitch: 60, width: 100, height: 100)
        let place = TileCover.Placed(tile: TileCoordinate(z: 0, x: 0, y: 0), x: 0, y: 0, tileSide: 100, pitch: pitch)
        let unit = LineAnchors.extent / 100
        let found = LineSymbolAnchors.Found(line: [Point(50 * unit, 50 * unit), Point(50 * unit, 1000 * unit)],
                                            anchor: LineAnchors.Anchor(x: 50 * unit, y: 60 * unit, angle: .pi / 2, segment: 0))
        let line = LineSymbolAnchors.projected(found, on: place)
        // Projected as is, the far vertex would fold back above the image (y −56).
        let end = try XCTUnwrap(line.line.last)
        XCTAssertGreaterThan(end.y, 500, "extended far down past the image")
        XCTAssertEqual(end.x, 50, accuracy: 1e-6)
        // A glyph 30 pixels on lies below the anchor, on the line.
        let glyph = try XCTUnwrap(line.place(30, flip: false))
        XCTAssertEqual(glyph.point.y, line.anchor.y + 30, accuracy: 1e-6)
    }
}
