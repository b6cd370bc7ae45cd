import XCTest
@testable import MapRendering
import Raster

/// The order point symbols are placed in (`symbol-sort-key`, `symbol-z-order`),
/// `text-translate` and its anchor, and `format` text, through a style and a
/// snapshot as a user draws them, with glyphs read from a folder.
final class SymbolOrderTests: XCTestCase {
    /// "A": advance 10 at 24 px, a 4-pixel square of ink.
    let a = GlyphPBF.square(65, side: 4, left: 3, top: -15, advance: 10)

    /// A renderer of one symbol layer over `features` (GeoJSON features), its
    /// glyphs "A" in a temporary folder the caller removes.
    private func renderer(features: [String], layout: String, paint: String = "{}") throws -> (folder: URL, renderer: VectorMapRenderer) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glyphs-\(UUID().uuidString)")
        let dir = folder.appendingPathComponent("Test Font")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try GlyphPBF.file(name: "Test Font", glyphs: [GlyphPBF.glyph(a)]).write(to: dir.appendingPathComponent("0-255.pbf"))
        let style = try VectorStyle(json: """
            {"version": 8, "glyphs": "file://\(folder.path)/{fontstack}/{range}.pbf",
             "sources": {"points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features.joined(separator: ","))]}}},
             "layers": [{"id": "labels", "type": "symbol", "source": "points",
                         "layout": {"text-font": ["Test Font"], "text-size": 24, "text-padding": 0, \(layout)}, "paint": \(paint)}]}
            """)
        XCTAssertEqual(style.warnings, [])
        guard case .geojson(let source)? = style.sources["points"]?.kind, case .inline(let document) = source.data else {
            throw FixtureError("no GeoJSON source")
        }
        var renderer = VectorMapRenderer(tiles: source.tiles(document), sourceName: "points", style: style)
        renderer.glyphs = GlyphCache(provider: try GlyphFolderProvider(template: try XCTUnwrap(style.glyphs)))
        return (folder, renderer)
    }

    private func point(_ latitude: Double, _ properties: String) -> String {
        #"{"type": "Feature", "properties": \#(properties), "geometry": {"type": "Point", "coordinates": [0, \#(latitude)]}}"#
    }

    private func labels(_ features: [String], layout: String, paint: String = "{}", bearing: Double = 0) throws -> [VectorMapLabel] {
        let (folder, renderer) = try renderer(features: features, layout: layout, paint: paint)
        defer { try? FileManager.default.removeItem(at: folder) }
        let camera = VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 3, width: 128, height: 128, bearing: bearing)
        return try renderer.snapshot(camera).labels
    }

    func testSortKeyPlacesTheLowestKeyFirst() throws {
        // Two labels at one point: read in order the first wins; by key the second (key 1).
        let features = [point(0, #"{"name": "A", "k": 2}"#), point(0, #"{"name": "AA", "k": 1}"#)]
        XCTAssertEqual(try labels(features, layout: #""text-field": ["get", "name"]"#).map(\.text), ["A"])
        XCTAssertEqual(try labels(features, layout: #""text-field": ["get", "name"], "symbol-sort-key": ["get", "k"]"#).map(\.text), ["AA"])
        // A constant key sorts nothing (MapLibre sorts only by a key that varies).
        XCTAssertEqual(try labels(features, layout: #""text-field": ["get", "name"], "symbol-sort-key": 3"#).map(\.text), ["A"])
    }

    func testViewportYPlacesTheLowestFirst() throws {
        // The second point lies 1° south (about 6 pixels lower): its label overlaps the first's.
        let features = [point(0, #"{"name": "A"}"#), point(-1, #"{"name": "AA"}"#)]
        XCTAssertEqual(try labels(features, layout: #""text-field": ["get", "name"]"#).map(\.text), ["A"])
        XCTAssertEqual(try labels(features, layout: #""text-field": ["get", "name"], "symbol-z-order": "viewport-y""#).map(\.text), ["AA"])
    }

    func testOverlappingLabelsDrawTopFirstUnlessSourceOrdered() throws {
        let features = [point(0, #"{"name": "A", "k": 1}"#), point(1, #"{"name": "AA", "k": 2}"#)]
        let auto = try labels(features, layout: #""text-field": ["get", "name"], "text-allow-overlap": true"#)
        XCTAssertEqual(auto.map(\.drawsByViewportY), [true, true])
        let source = try labels(features, layout: #""text-field": ["get", "name"], "text-allow-overlap": true, "symbol-z-order": "source""#)
        XCTAssertEqual(source.map(\.drawsByViewportY), [false, false])
        let keyed = try labels(features, layout: #""text-field": ["get", "name"], "text-allow-overlap": true, "symbol-sort-key": ["get", "k"]"#)
        XCTAssertEqual(keyed.map(\.drawsByViewportY), [false, false], "auto with a sort key draws in key order")
    }

    private func drawnOffset(_ label: VectorMapLabel) throws -> Point {
        guard case .sdf(_, _, _, let at) = label.layout else { throw FixtureError("not a glyph label") }
        return Point(at.x - label.anchor.x, at.y - label.anchor.y)
    }

    func testTextTranslateTurnsWithTheMapUnlessAnchoredToTheViewport() throws {
        let features = [point(0, #"{"name": "A"}"#)]
        // Bearing 90: east points up, so 10 pixels east on the map is 10 up on the image.
        let map = try XCTUnwrap(labels(features, layout: #""text-field": "A""#, paint: #"{"text-translate": [10, 0]}"#, bearing: 90).first)
        let onMap = try drawnOffset(map)
        XCTAssertEqual(onMap.x, 0, accuracy: 1e-6)
        XCTAssertEqual(onMap.y, -10, accuracy: 1e-6)
        let viewport = try XCTUnwrap(labels(features, layout: #""text-field": "A""#,
                                            paint: #"{"text-translate": [10, 0], "text-translate-anchor": "viewport"}"#, bearing: 90).first)
        let onView = try drawnOffset(viewport)
        XCTAssertEqual(onView.x, 10, accuracy: 1e-6)
        XCTAssertEqual(onView.y, 0, accuracy: 1e-6)
        // The label's place (its collision box) stays at the point.
        XCTAssertEqual(map.boxes, viewport.boxes)
    }

    func testWithoutCrossSourceCollisionsEachSourceHasItsOwnIndex() throws {
        // Two sources with a label each at one point: one index drops the second
        // (the top-most layer wins); an index per source keeps both.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glyphs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let dir = folder.appendingPathComponent("Test Font")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try GlyphPBF.file(name: "Test Font", glyphs: [GlyphPBF.glyph(a)]).write(to: dir.appendingPathComponent("0-255.pbf"))
        let data = #"{"type": "Point", "coordinates": [0, 0]}"#
        let style = try VectorStyle(json: """
            {"version": 8, "glyphs": "file://\(folder.path)/{fontstack}/{range}.pbf",
             "sources": {"one": {"type": "geojson", "data": \(data)}, "two": {"type": "geojson", "data": \(data)}},
             "layers": [{"id": "a", "type": "symbol", "source": "one", "layout": {"text-field": "A", "text-font": ["Test Font"]}},
                        {"id": "b", "type": "symbol", "source": "two", "layout": {"text-field": "AA", "text-font": ["Test Font"]}}]}
            """)
        var tiles: [String: any VectorTileProviding] = [:]
        for name in ["one", "two"] {
            guard case .geojson(let source)? = style.sources[name]?.kind, case .inline(let document) = source.data else {
                throw FixtureError("no GeoJSON source")
            }
            tiles[name] = source.tiles(document)
        }
        var renderer = VectorMapRenderer(sources: tiles, style: style)
        renderer.glyphs = GlyphCache(provider: try GlyphFolderProvider(template: try XCTUnwrap(style.glyphs)))
        let camera = VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 3, width: 128, height: 128)
        XCTAssertEqual(try renderer.snapshot(camera).labels.map(\.text), ["AA"])
        renderer.crossSourceCollisions = false
        XCTAssertEqual(try renderer.snapshot(camera).labels.map(\.text).sorted(), ["A", "AA"])
    }

    func testFormatSectionsScaleAndColourTheirGlyphs() throws {
        let label = try XCTUnwrap(labels([point(0, "{}")], layout: """
            "text-field": ["format", "A", {"font-scale": 2, "text-color": "red"}, "A", {}]
            """).first)
        guard case .sdf(let shaped, _, _, _) = label.layout else { throw FixtureError("not a glyph label") }
        XCTAssertEqual(shaped.glyphs.map(\.scale), [2, 1])
        XCTAssertEqual(shaped.glyphs.map(\.color), [RGBA(255, 0, 0), nil])
        // 20 + 10 pixels at 24 px, drawn at 24: the box is 30 wide.
        XCTAssertEqual(label.boxes[0].maxX - label.boxes[0].minX, 30, accuracy: 1e-9)
    }
}
