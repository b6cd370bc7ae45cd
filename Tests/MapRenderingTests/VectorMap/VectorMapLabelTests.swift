import Foundation
import Raster
import XCTest
@testable import MapRendering

/// Labels on zoom-15 snapshots of central Helsinki, checked against
/// OpenStreetMap itself: `helsinki-label-references.json` holds the named
/// streets' ways and the place nodes in the view, read from the extract the
/// tiles were made from by `Scripts/make_vector_label_references.py` (PyPI
/// `osmium`). A label's ink is found as the pixels that change when the
/// style's symbol layers are left out.
final class VectorMapLabelTests: XCTestCase {
    typealias Pixel = (x: Double, y: Double)

    struct References {
        var streets: [String: [[GeoCoordinate]]]
        var places: [(name: String, coordinate: GeoCoordinate)]
    }

    static func references() throws -> References {
        let data = try Data(contentsOf: VectorMapRendererTests.tiles.appendingPathComponent("helsinki-label-references.json"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        func coordinate(_ value: Any) throws -> GeoCoordinate {
            let pair = try XCTUnwrap(value as? [Double])
            return GeoCoordinate(latitude: pair[0], longitude: pair[1])
        }
        var streets: [String: [[GeoCoordinate]]] = [:]
        for (name, ways) in try XCTUnwrap(json["streets"] as? [String: [[Any]]]) {
            streets[name] = try ways.map { try $0.map(coordinate) }
        }
        let places = try XCTUnwrap(json["places"] as? [[String: Any]]).map { entry in
            (try XCTUnwrap(entry["name"] as? String), try coordinate(try XCTUnwrap(entry["coordinate"])))
        }
        return References(streets: streets, places: places)
    }

    static let combinations: [(schema: BuiltinVectorStyle.Schema, file: String, look: MapStyle)] = [
        (.openMapTiles, "openmaptiles", .light), (.openMapTiles, "openmaptiles", .dark),
        (.protomaps, "protomaps", .light), (.protomaps, "protomaps", .dark),
    ]
    static let camera = VectorMapCamera(center: VectorMapRendererTests.center, zoom: 15, width: 512, height: 512)

    static func renderer(_ file: String, _ style: VectorStyle, limits: VectorMapLimits = .default) throws -> VectorMapRenderer {
        let archive = try PMTilesArchive(url: VectorMapRendererTests.tiles.appendingPathComponent("helsinki-\(file).pmtiles"))
        return VectorMapRenderer(archive: archive, sourceName: file, style: style, limits: limits)
    }

    /// `style` without its symbol layers.
    static func labelFree(_ style: VectorStyle) -> VectorStyle {
        var style = style
        style.layers = style.layers.filter { if case .symbol = $0.kind { return false } else { return true } }
        return style
    }

    /// A snapshot with labels, its labels, and the pixels the labels changed.
    static func labelled(_ file: String, _ style: VectorStyle, camera: VectorMapCamera = camera)
        throws -> (bitmap: Bitmap, labels: [VectorMapLabel], ink: [Pixel]) {
        let (bitmap, labels) = try renderer(file, style).snapshot(camera)
        let bare = try renderer(file, labelFree(style)).render(camera)
        var ink: [Pixel] = []
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let a = bitmap[x, y], b = bare[x, y]
                if abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b)) > 60 {
                    ink.append((Double(x) + 0.5, Double(y) + 0.5))
                }
            }
        }
        return (bitmap, labels, ink)
    }

    /// Distance from `p` to the nearest segment of `lines`, and that segment's direction (radians).
    static func nearest(_ p: Pixel, on lines: [[Pixel]]) -> (distance: Double, angle: Double) {
        var best = (distance: Double.infinity, angle: 0.0)
        for line in lines {
            for (a, b) in zip(line, line.dropFirst()) {
                let dx = b.x - a.x, dy = b.y - a.y, length2 = dx * dx + dy * dy
                guard length2 > 0 else { continue }
                let t = min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / length2, 0), 1)
                let d = hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy))
                if d < best.distance { best = (d, atan2(dy, dx)) }
            }
        }
        return best
    }

    /// The direction (radians, modulo π) along which `points` spread most.
    static func principalAxis(_ points: [Pixel]) -> Double {
        let n = Double(points.count)
        let mx = points.reduce(0) { $0 + $1.x } / n, my = points.reduce(0) { $0 + $1.y } / n
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for p in points {
            sxx += (p.x - mx) * (p.x - mx); syy += (p.y - my) * (p.y - my); sxy += (p.x - mx) * (p.y - my)
        }
        return 0.5 * atan2(2 * sxy, sxx - syy)
    }

    /// The difference of two directions modulo π, in degrees (0…90).
    static func degreesApart(_ a: Double, _ b: Double) -> Double {
        var d = (a - b).truncatingRemainder(dividingBy: .pi)
        if d < 0 { d += .pi }
        return min(d, .pi - d) * 180 / .pi
    }

    static func inside(_ p: Pixel, _ boxes: [LabelBox]) -> Bool {
        boxes.contains { p.x >= $0.minX && p.x <= $0.maxX && p.y >= $0.minY && p.y <= $0.maxY }
    }

    /// In every schema and look, street names are drawn along their OSM ways:
    /// all ink of each street label lies within its text's half-height (plus
    /// halo) of the way, and where the street runs askew the ink's long axis
    /// follows the way's direction: glyphs are rotated, not set horizontally.
    func testStreetNamesRunAlongTheirStreets() throws {
        let references = try Self.references()
        for (schema, file, look) in Self.combinations {
            let style = try BuiltinVectorStyle(schema: schema, look: look).style()
            let (_, labels, ink) = try Self.labelled(file, style)
            let streets = labels.filter { $0.layerID == "road-name" || $0.layerID == "roads-name" }
            XCTAssertGreaterThanOrEqual(streets.count, 5, "\(file) \(look): street labels")
            var askew = 0
            for label in streets {
                let ways = try XCTUnwrap(references.streets[label.text], "\(file) \(look): '\(label.text)' is no OSM street in the view")
                let lines = ways.map { $0.map { VectorMapRendererTests.pixel($0, in: Self.camera) } }
                guard case .alongLine(let glyphs, let size) = label.layout else { return XCTFail("\(label.text) is not set along its line") }
                XCTAssertEqual(glyphs.count, label.text.unicodeScalars.count)
                // Not where the street bends sharply: neighbouring glyphs turn at most text-max-angle (45°).
                for (a, b) in zip(glyphs, glyphs.dropFirst()) {
                    XCTAssertLessThanOrEqual(Self.degreesApart(a.angle, b.angle), 45 + 1e-9, "'\(label.text)' bends sharply")
                }
                let mine = ink.filter { Self.inside($0, label.boxes) }
                XCTAssertGreaterThan(mine.count, 8 * glyphs.count, "\(file) \(look): '\(label.text)' has little ink")
                // DejaVu's em box is 1.16 em tall; its ink stays within it.
                let reach = 0.6 * size + label.haloWidth + 1.5
                let strays = mine.filter { Self.nearest($0, on: lines).distance > reach }
                XCTAssertLessThanOrEqual(strays.count, mine.count / 50, "\(file) \(look): '\(label.text)': \(strays.count) of \(mine.count) ink pixels off the street")
                let street = Self.nearest(Self.pixel(label.anchor), on: lines)
                XCTAssertLessThan(street.distance, 2, "\(file) \(look): '\(label.text)' anchored off its street")
                if Self.degreesApart(street.angle, 0) > 20 {
                    askew += 1
                    let axis = Self.principalAxis(mine)
                    XCTAssertLessThan(Self.degreesApart(axis, street.angle), 8,
                                      "\(file) \(look): '\(label.text)' runs at \(axis * 180 / .pi)°, its street at \(street.angle * 180 / .pi)°")
                    // Upright: every glyph's baseline points rightwards, or within 15° past straight up or down.
                    XCTAssertTrue(glyphs.allSatisfy { cos($0.angle) > -0.26 }, "\(label.text) is upside down")
                }
            }
            XCTAssertGreaterThanOrEqual(askew, 2, "\(file) \(look): street labels on askew streets")
            // Drawn in the snapshot's pixels: some labels straddle the edge between two tiles.
            let edges = Self.tileEdges(of: Self.camera)
            let straddling = streets.filter { label in
                let minX = label.boxes.map(\.minX).min()!, maxX = label.boxes.map(\.maxX).max()!
                let minY = label.boxes.map(\.minY).min()!, maxY = label.boxes.map(\.maxY).max()!
                return edges.x.contains { minX < $0 && $0 < maxX } || edges.y.contains { minY < $0 && $0 < maxY }
            }
            XCTAssertFalse(straddling.isEmpty, "\(file) \(look): no label crosses a tile edge")
        }
    }

    /// Where the snapshot's tiles (archive zoom 14, 512 pixels at zoom 15) meet, in output pixels.
    static func tileEdges(of camera: VectorMapCamera) -> (x: [Double], y: [Double]) {
        let c = WebMercator.project(latitude: camera.center.latitude, longitude: camera.center.longitude, zoom: camera.zoom)
        let left = c.x - Double(camera.width) / 2, top = c.y - Double(camera.height) / 2
        func edges(_ start: Double, _ side: Int) -> [Double] {
            stride(from: (start / 512).rounded(.up) * 512, to: start + Double(side), by: 512).map { $0 - start }
        }
        return (edges(left, camera.width), edges(top, camera.height))
    }

    static func pixel(_ p: Point) -> Pixel { (p.x, p.y) }

    /// In every schema and look, place names are centred on their OSM nodes.
    func testPlaceNamesAreCentredOnTheirPlaces() throws {
        let references = try Self.references()
        for (schema, file, look) in Self.combinations {
            let style = try BuiltinVectorStyle(schema: schema, look: look).style()
            let (_, labels, ink) = try Self.labelled(file, style)
            let places = labels.filter { $0.layerID == "place" || $0.layerID == "places" }
            XCTAssertTrue(places.contains { $0.text == "Kluuvi" }, "\(file) \(look): \(places.map(\.text))")
            for label in places {
                let node = try XCTUnwrap(references.places.first { $0.name == label.text }, "\(file) \(look): '\(label.text)' is no OSM place")
                let p = VectorMapRendererTests.pixel(node.coordinate, in: Self.camera)
                XCTAssertLessThan(hypot(label.anchor.x - p.x, label.anchor.y - p.y), 2, "\(file) \(look): '\(label.text)' anchor")
                let mine = ink.filter { Self.inside($0, label.boxes) }
                XCTAssertGreaterThan(mine.count, 10 * label.text.count, "\(file) \(look): '\(label.text)' has little ink")
                let minX = mine.map(\.x).min()!, maxX = mine.map(\.x).max()!
                let minY = mine.map(\.y).min()!, maxY = mine.map(\.y).max()!
                XCTAssertEqual((minX + maxX) / 2, p.x, accuracy: 2.5, "\(file) \(look): '\(label.text)' centred across")
                XCTAssertEqual((minY + maxY) / 2, p.y, accuracy: 4, "\(file) \(look): '\(label.text)' centred down")
            }
        }
    }

    /// Pairs of labels whose boxes overlap.
    static func overlaps(_ labels: [VectorMapLabel]) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for (i, a) in labels.enumerated() {
            for b in labels[(i + 1)...] where a.boxes.contains(where: { box in b.boxes.contains { $0.intersects(box) } }) {
                pairs.append((a.text, b.text))
            }
        }
        return pairs
    }

    /// Text is drawn over a halo: inside the labels' boxes, in the light style
    /// some pixels turn lighter than the map under them (the white halo) and
    /// others darker (the grey text); in the dark style the other way round.
    func testLabelsAreDrawnOverHalos() throws {
        for look in [MapStyle.light, .dark] {
            let style = try BuiltinVectorStyle(schema: .openMapTiles, look: look).style()
            let (bitmap, labels) = try Self.renderer("openmaptiles", style).snapshot(Self.camera)
            let bare = try Self.renderer("openmaptiles", Self.labelFree(style)).render(Self.camera)
            for label in labels {
                XCTAssertNotNil(label.halo, label.text)
                var lighter = 0, darker = 0
                let minX = Int(label.boxes.map(\.minX).min()!), maxX = Int(label.boxes.map(\.maxX).max()!.rounded(.up))
                let minY = Int(label.boxes.map(\.minY).min()!), maxY = Int(label.boxes.map(\.maxY).max()!.rounded(.up))
                for y in max(0, minY)..<min(bitmap.height, maxY) {
                    for x in max(0, minX)..<min(bitmap.width, maxX) where Self.inside((Double(x) + 0.5, Double(y) + 0.5), label.boxes) {
                        let a = bitmap[x, y], b = bare[x, y]
                        let change = (Int(a.r) + Int(a.g) + Int(a.b)) - (Int(b.r) + Int(b.g) + Int(b.b))
                        if change > 30 { lighter += 1 } else if change < -30 { darker += 1 }
                    }
                }
                let (halo, text) = look == .light ? (lighter, darker) : (darker, lighter)
                XCTAssertGreaterThan(halo, 3 * label.text.count, "\(look) '\(label.text)': halo pixels")
                XCTAssertGreaterThan(text, 3 * label.text.count, "\(look) '\(label.text)': text pixels")
            }
        }
    }

    /// No two labels of a snapshot overlap, at zoom 15 and a denser view at
    /// scale 2, and every label lies inside the image. The same styles with
    /// `text-allow-overlap` place more labels, some overlapping: the
    /// collision test is what kept them apart.
    func testNoTwoLabelsOverlap() throws {
        for (schema, file, look) in Self.combinations.filter({ $0.look == .light }) {
            let builtin = BuiltinVectorStyle(schema: schema, look: look)
            let style = try builtin.style()
            let overlapping = try VectorStyle(json: builtin.json.replacingOccurrences(of: #""text-font":"#, with: #""text-allow-overlap": true, "text-font":"#))
            for camera in [Self.camera, VectorMapCamera(center: VectorMapRendererTests.center, zoom: 14.3, width: 400, height: 300, scale: 2)] {
                let labels = try Self.renderer(file, style).snapshot(camera).labels
                XCTAssertGreaterThan(labels.count, 5, "\(file) at \(camera.zoom)")
                XCTAssertEqual(Self.overlaps(labels).map { "\($0) / \($1)" }, [], "\(file) at \(camera.zoom)")
                for label in labels {
                    XCTAssertTrue(label.boxes.allSatisfy { $0.isInside(width: Double(camera.pixelWidth), height: Double(camera.pixelHeight)) })
                }
                let crowded = try Self.renderer(file, overlapping).snapshot(camera).labels
                XCTAssertGreaterThan(crowded.count, labels.count, "\(file) at \(camera.zoom)")
                XCTAssertFalse(Self.overlaps(crowded).isEmpty, "\(file) at \(camera.zoom)")
                // Even overlapping, a feature in two tiles' buffers is labelled once, and
                // a street's pieces in neighbouring tiles are one line, spaced as one.
                for (i, a) in crowded.enumerated() {
                    for b in crowded[(i + 1)...] where a.layerID == b.layerID && a.text == b.text {
                        XCTAssertGreaterThan(hypot(a.anchor.x - b.anchor.x, a.anchor.y - b.anchor.y), 20,
                                             "\(file) at \(camera.zoom): '\(a.text)' twice at \(a.anchor)")
                    }
                }
            }
        }
    }

    /// A style reading `coalesce` of `name:latin` and `name` labels places in
    /// both schemas: OpenMapTiles tiles carry only `name:latin`, Protomaps
    /// ones only `name`. Either key alone labels one schema only.
    func testLabelExpressionFallsBackFromNameLatinToName() throws {
        func style(_ sourceLayer: String, _ field: String) throws -> VectorStyle {
            try VectorStyle(json: #"""
            {"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [
              {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
              {"id": "names", "type": "symbol", "source": "s", "source-layer": "\#(sourceLayer)",
               "layout": {"text-field": \#(field), "text-size": 14, "text-font": ["Open Sans Regular"]},
               "paint": {"text-color": "#000000", "text-halo-color": "#ffffff", "text-halo-width": 1}}]}
            """#)
        }
        let osm = Set(try Self.references().places.map(\.name))
        let coalesce = #"["coalesce", ["get", "name:latin"], ["get", "name"]]"#
        for (file, layer) in [("openmaptiles", "place"), ("protomaps", "places")] {
            let labels = try Self.renderer(file, try style(layer, coalesce)).snapshot(Self.camera).labels
            XCTAssertTrue(labels.map(\.text).contains("Kluuvi"), "\(file): \(labels.map(\.text))")
            XCTAssertTrue(labels.allSatisfy { osm.contains($0.text) }, "\(file): \(labels.map(\.text))")
        }
        XCTAssertEqual(try Self.renderer("openmaptiles", try style("place", #""{name}""#)).snapshot(Self.camera).labels.count, 0)
        XCTAssertEqual(try Self.renderer("protomaps", try style("places", #"["get", "name:latin"]"#)).snapshot(Self.camera).labels.count, 0)
    }

    /// Cyrillic and Greek labels draw their own glyphs: each letter a glyph of
    /// the font (not the replacement), and ink unlike the same number of
    /// replacement glyphs or of the other script's letters.
    func testCyrillicAndGreekLabelsDrawTheirGlyphs() throws {
        let font = try TrueTypeFont.dejaVuSans
        var inks: [String: Bitmap] = [:]
        for text in ["Москва", "Αθήνα", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"] {
            let style = try VectorStyle(json: #"""
            {"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [
              {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
              {"id": "names", "type": "symbol", "source": "s", "source-layer": "place", "filter": ["==", "name:latin", "Kluuvi"],
               "layout": {"text-field": "\#(text)", "text-size": 20}, "paint": {"text-color": "#000000"}}]}
            """#)
            let (bitmap, labels) = try Self.renderer("openmaptiles", style).snapshot(Self.camera)
            XCTAssertEqual(labels.map(\.text), [text])
            guard case .lines(let lines) = try XCTUnwrap(labels.first).layout else { return XCTFail() }
            let glyphs = lines.flatMap { $0.line.glyphs.map(\.glyph) }
            XCTAssertEqual(glyphs.count, text.unicodeScalars.count)
            if !text.hasPrefix("\u{FFFD}") {
                XCTAssertFalse(glyphs.contains(font.replacementGlyph), text)
                XCTAssertEqual(Set(glyphs).count, Set(text.unicodeScalars).count, text)
            }
            let dark = bitmap.pixels.enumerated().filter { $0.offset % 4 == 0 && $0.element < 128 }.count
            XCTAssertGreaterThan(dark, 60, text)
            inks[text] = bitmap
        }
        let tofu = try XCTUnwrap(inks["\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"])
        for text in ["Москва", "Αθήνα"] {
            let bitmap = try XCTUnwrap(inks[text])
            let differing = zip(bitmap.pixels, tofu.pixels).filter { abs(Int($0) - Int($1)) > 64 }.count
            XCTAssertGreaterThan(differing, 200, "\(text) looks like replacement glyphs")
        }
    }
}
