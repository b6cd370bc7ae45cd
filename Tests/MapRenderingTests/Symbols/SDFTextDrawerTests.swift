import Foundation
import Raster
import XCTest
@testable import MapRendering

/// Signed-distance text as MapLibre's shader draws it, and a style with
/// local glyphs drawn through the renderer.
final class SDFTextDrawerTests: XCTestCase {
    func paint(fontScale: Double = 1, pixelRatio: Double = 1, halo: RGBA? = nil, haloWidth: Double = 0) -> SDFTextDrawer.Paint {
        SDFTextDrawer.Paint(fontScale: fontScale, pixelRatio: pixelRatio, color: RGBA(0, 0, 0), halo: halo, haloWidth: haloWidth, haloBlur: 0)
    }

    /// A glyph whose field rises 10 per column from 150, one row of texels repeated.
    func ramp() -> ShapedText {
        let w = 10, h = 10
        var bitmap = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { bitmap[y * w + x] = UInt8(150 + 10 * x) } }
        let glyph = SDFGlyph(id: 65, width: 4, height: 4, left: 0, top: 0, advance: 10, bitmap: bitmap)
        return ShapedText(glyphs: [.init(glyph: glyph, x: 0, y: 0)], left: 0, top: 0, right: 10, bottom: 10, lineCount: 1)
    }

    func testEdgeGammaAtOneToOne() throws {
        var canvas = try Canvas(width: 40, height: 40, background: .white)
        try SDFTextDrawer.draw(ramp(), at: Point(20, 20), angle: 0, paint: paint(), halo: false, on: &canvas)
        let bitmap = canvas.bitmap
        // The bitmap's top-left lands at the anchor less the 3-pixel border: (17, 17).
        // Column 3 holds 180: smoothstep(0.645, 0.855, 0.706) = 0.203, so 52/255 black.
        XCTAssertEqual(Double(bitmap[20, 20].r), 203, accuracy: 1)
        // 150 and 160 lie below 0.645·255: untouched; 220 and above: solid.
        XCTAssertEqual(bitmap[17, 20].r, 255)
        XCTAssertEqual(bitmap[18, 20].r, 255)
        XCTAssertEqual(bitmap[24, 20].r, 0)
        XCTAssertEqual(bitmap[26, 25].r, 0)
        // Past the bitmap nothing is drawn.
        XCTAssertEqual(bitmap[28, 20].r, 255)
        XCTAssertEqual(bitmap[20, 28].r, 255)
    }

    func testSharperAtLargerSizeAndHalo() throws {
        // At fontScale 2 each texel covers two pixels and the gamma halves: the edge
        // band is 0.6975…0.8025 (177.9…204.6). Pixel 20's centre samples texel 2.75
        // (177.5): white, where at fontScale 1 texel 3's 180 was 20 % ink. Pixel 21
        // samples 182.5: 7.7 % ink; pixel 31 samples 232.5: solid.
        var canvas = try Canvas(width: 60, height: 60, background: .white)
        try SDFTextDrawer.draw(ramp(), at: Point(20, 20), angle: 0, paint: paint(fontScale: 2), halo: false, on: &canvas)
        XCTAssertEqual(canvas.bitmap[20, 20].r, 255)
        XCTAssertEqual(Double(canvas.bitmap[21, 20].r), 235.5, accuracy: 1.5)
        XCTAssertEqual(canvas.bitmap[31, 20].r, 0)
        // A 2-pixel halo's edge is (6 − 2) / 8 = 0.5, its band 0.395…0.605; it fades out
        // inside the outline over 0.75…0.96 (the inner edge moved out by the gamma).
        var haloed = try Canvas(width: 40, height: 40, background: .white)
        try SDFTextDrawer.draw(ramp(), at: Point(20, 20), angle: 0, paint: paint(halo: RGBA(255, 0, 0), haloWidth: 2), halo: true, on: &haloed)
        XCTAssertEqual(haloed.bitmap[18, 20], RGBA(255, 0, 0), "160 (0.627) is solid halo")
        XCTAssertEqual(Double(haloed.bitmap[17, 20].g), 6, accuracy: 2, "150 (0.588) is 97.6 % halo")
        XCTAssertEqual(Double(haloed.bitmap[26, 20].g), 249, accuracy: 2, "240 (0.941) is 2.3 % halo")
    }

    /// A folder holding the range 0-255 of "Test Font" with `glyph`, and a style
    /// labelling `points` (GeoJSON positions) with `layout`, under the layers `above` (JSON continuing the layer list).
    static func styled(_ glyph: SDFGlyph, points: [[Double]], layout: String, geometry: String = "MultiPoint",
                       above: String = "") throws -> (folder: URL, renderer: VectorMapRenderer) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glyphs-\(UUID().uuidString)")
        let dir = folder.appendingPathComponent("Test Font")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try GlyphPBF.file(name: "Test Font", glyphs: [GlyphPBF.glyph(glyph)]).write(to: dir.appendingPathComponent("0-255.pbf"))
        let style = try VectorStyle(json: """
            {"version": 8, "glyphs": "file://\(folder.path)/{fontstack}/{range}.pbf",
             "sources": {"points": {"type": "geojson", "data": {"type": "\(geometry)", "coordinates": \(points)}}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                        {"id": "labels", "type": "symbol", "source": "points",
                         "layout": {"text-field": "A", "text-font": ["Test Font"], \(layout)}}\(above)]}
            """)
        XCTAssertEqual(style.warnings, [])
        guard case .geojson(let source)? = style.sources["points"]?.kind, case .inline(let document) = source.data else {
            throw FixtureError("no GeoJSON source")
        }
        var renderer = VectorMapRenderer(tiles: source.tiles(document), sourceName: "points", style: style)
        renderer.glyphs = GlyphCache(provider: try GlyphFolderProvider(template: try XCTUnwrap(style.glyphs)))
        return (folder, renderer)
    }

    func testHugeGlyphsCountAgainstTheGlyphBudget() throws {
        // A 200-pixel glyph at text-size 100 covers the whole 128² image: each time it is
        // placed it counts 15 glyphs (16 384 / 1 024 − 1) beyond its text's (100 / 32)²
        // → 10 (counted once for the feature), so a budget of 250 draws 16 of the 50
        // labels at one point, where counting the text alone drew all 50 (each drawing
        // 16 384 pixels).
        let huge = GlyphPBF.square(65, side: 200, left: 0, top: 0, advance: 200)
        var (folder, renderer) = try Self.styled(huge, points: Array(repeating: [0, 0], count: 50),
                                            layout: "\"text-size\": 100, \"text-allow-overlap\": true")
        defer { try? FileManager.default.removeItem(at: folder) }
        renderer.labelsCrossEdges = true
        renderer.limits.labelGlyphsPerSnapshot = 250
        let (_, labels) = try renderer.snapshot(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 3, width: 128, height: 128))
        XCTAssertEqual(labels.count, 16)
    }

    func testVariableAnchorsTriedInOrder() throws {
        // Two labels at one point: with one anchor the second collides and is dropped;
        // with [left, right] (no padding) it goes to the point's left instead.
        let a = GlyphPBF.square(65, side: 4, left: 3, top: -15, advance: 10)
        let camera = VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 3, width: 64, height: 64)
        let (folder, single) = try Self.styled(a, points: [[0, 0], [0, 0]], layout: "\"text-size\": 24, \"text-padding\": 0")
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertEqual(try single.snapshot(camera).labels.count, 1)
        let (other, variable) = try Self.styled(a, points: [[0, 0], [0, 0]],
                                           layout: "\"text-size\": 24, \"text-padding\": 0, \"text-variable-anchor\": [\"left\", \"right\"]")
        defer { try? FileManager.default.removeItem(at: other) }
        let labels = try variable.snapshot(camera).labels
        XCTAssertEqual(labels.count, 2)
        guard labels.count == 2 else { return }
        XCTAssertEqual(labels[0].boxes[0].minX, labels[0].anchor.x, accuracy: 1e-9, "left: the text starts at the point")
        XCTAssertEqual(labels[1].boxes[0].maxX, labels[1].anchor.x, accuracy: 1e-9, "right: the text ends at the point")
    }

    func testLineLabelsFromGlyphs() throws {
        // "A" along a level line from x 7.125 across the tile edge at x 64: in the left tile
        // its own start is too near the edge for the first anchor (half the label and two
        // ems, 53 px, leaves under half the label before the edge), so MapLibre's `resample`
        // tries the middle of the line's part in the tile once: (7.125 + 64) / 2. The right
        // tile's part is continued from the edge: its first anchor, half a spacing in, is past
        // the line's end. The glyph (advance 10 at 24 px) is upright, centred across the line.
        let a = GlyphPBF.square(65, side: 4, left: 3, top: -15, advance: 10)
        let (folder, renderer) = try Self.styled(a, points: [[-10, 5], [10, 5]], layout: "\"text-size\": 24, \"symbol-placement\": \"line\"",
                                            geometry: "LineString")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (bitmap, labels) = try renderer.snapshot(VectorMapCamera(center: GeoCoordinate(latitude: 5, longitude: 0), zoom: 3, width: 128, height: 64))
        XCTAssertEqual(labels.map(\.text), ["A"])
        guard case .sdfAlongLine(let glyphs, _)? = labels.first?.layout else { return XCTFail("not drawn from the glyphs") }
        XCTAssertEqual(glyphs.count, 1)
        XCTAssertEqual(glyphs[0].at.x, (7.125 + 64) / 2, accuracy: 1.0 / 16)
        XCTAssertEqual(glyphs[0].at.y, 32, accuracy: 0.1, "the line, as the tile grid rounds it")
        XCTAssertEqual(cos(glyphs[0].angle), 1, accuracy: 1e-9)
        var ink: [(Int, Int)] = []
        for y in 0..<64 { for x in 0..<128 where bitmap[x, y].r < 128 { ink.append((x, y)) } }
        XCTAssertEqual(Set(ink.map(\.0)), [33, 34, 35, 36, 37], "the 4-pixel square (2 either side of the centre), across pixel edges")
        XCTAssertEqual(ink.map(\.1).min(), 30)
    }

    func testStyleWithLocalGlyphsDrawsText() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glyphs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let dir = folder.appendingPathComponent("Test Font")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // A 4-pixel square 'A' whose 10-pixel bitmap centres on the anchor at 24 px:
        // its left edge at −5 (the advance of 10 centred) + left 3 − border 3 = −5, its top at
        // −17 (MapLibre's first line) − top (−15) − border 3 = −5. The ink, 4 texels, lands on
        // pixels 30…33 about the anchor at (32, 32); the border's 188 is 41 % ink, not counted.
        let a = GlyphPBF.square(65, side: 4, left: 3, top: -15, advance: 10)
        try GlyphPBF.file(name: "Test Font", glyphs: [GlyphPBF.glyph(a)]).write(to: dir.appendingPathComponent("0-255.pbf"))
        let style = try VectorStyle(json: """
            {"version": 8, "glyphs": "file://\(folder.path)/{fontstack}/{range}.pbf",
             "sources": {"points": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                        {"id": "labels", "type": "symbol", "source": "points",
                         "layout": {"text-field": "A", "text-font": ["Test Font"], "text-size": 24}}]}
            """)
        XCTAssertEqual(style.warnings, [])
        guard case .geojson(let source)? = style.sources["points"]?.kind, case .inline(let document) = source.data else {
            return XCTFail("the GeoJSON source")
        }
        var renderer = VectorMapRenderer(tiles: source.tiles(document), sourceName: "points", style: style)
        renderer.glyphs = GlyphCache(provider: try GlyphFolderProvider(template: try XCTUnwrap(style.glyphs)))
        let bitmap = try renderer.render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 3, width: 64, height: 64))
        var ink: [(Int, Int)] = []
        for y in 0..<64 { for x in 0..<64 where bitmap[x, y].r < 128 { ink.append((x, y)) } }
        XCTAssertEqual(ink.count, 16)
        XCTAssertEqual(ink.map(\.0).min(), 30)
        XCTAssertEqual(ink.map(\.0).max(), 33)
        XCTAssertEqual(ink.map(\.1).min(), 30)
        XCTAssertEqual(ink.map(\.1).max(), 33)
    }
}
