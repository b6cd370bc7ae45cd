import Foundation
import XCTest
@testable import MapRendering
import Raster

/// Reading whole styles: layers and sources, warnings for what is outside the
/// subset, errors that name the layer and property, hostile documents.
final class VectorStyleTests: XCTestCase {
    func testReadsLayersAndVectorSources() throws {
        let style = try VectorStyle(json: """
            {"version": 8, "name": "Test", "center": [24.9, 60.2], "zoom": 12, "glyphs": "https://example.com/{fontstack}/{range}.pbf",
             "sources": {"omt": {"type": "vector", "url": "pmtiles://x.pmtiles", "maxzoom": 14, "attribution": "© OSM"},
                         "hills": {"type": "raster-array", "url": "mapbox://hills"}},
             "layers": [
               {"id": "bg", "type": "background", "paint": {"background-color": "#eee", "background-opacity": 0.5}},
               {"id": "water", "type": "fill", "source": "omt", "source-layer": "water", "minzoom": 2, "maxzoom": 16,
                "paint": {"fill-color": "#aad3df", "fill-outline-color": "#000", "fill-translate": [1, -2], "fill-color-transition": {"duration": 0}}},
               {"id": "roads", "type": "line", "source": "omt", "source-layer": "transportation", "layout": {"visibility": "none"}},
               {"id": "relief", "type": "color-relief", "source": "hills"}
             ]}
            """)
        XCTAssertEqual(style.name, "Test")
        XCTAssertEqual(style.sources, ["omt": VectorStyleSource(name: "omt", url: "pmtiles://x.pmtiles", tiles: [], minimumZoom: nil, maximumZoom: 14, attribution: "© OSM")])
        XCTAssertEqual(style.layers.map(\.id), ["bg", "water", "roads"])
        XCTAssertEqual(style.warnings, [
            "source 'hills': source type 'raster-array' is not supported",
            "layer 'relief': layer type 'color-relief' is not supported",
        ])
        let water = style.layers[1]
        XCTAssertEqual(water.source, "omt")
        XCTAssertEqual(water.sourceLayer, "water")
        XCTAssertTrue(water.isShown(atZoom: 2))
        XCTAssertFalse(water.isShown(atZoom: 16))
        XCTAssertFalse(water.isShown(atZoom: 1.9))
        XCTAssertFalse(style.layers[2].isShown(atZoom: 10))
        guard case .fill(let fill) = water.kind, case .background(let background) = style.layers[0].kind else { return XCTFail("kinds") }
        XCTAssertEqual(fill.outlineColor.constantValue, .some(StyleColor(red: 0, green: 0, blue: 0)))
        XCTAssertEqual(fill.translate.constantValue, [1, -2])
        XCTAssertEqual(fill.antialias.constantValue, true)
        XCTAssertEqual(background.opacity.constantValue, 0.5)
        XCTAssertEqual(background.color.constantValue?.rgba, RGBA(238, 238, 238))
    }

    func testWarnsOncePerUnsupportedPropertyByName() throws {
        let style = try VectorStyle(json: """
            {"version": 8, "sprite": "https://example.com/sprite", "sources": {"s": {"type": "vector"}},
             "layers": [
               {"id": "roads", "type": "line", "source": "s", "source-layer": "t",
                "paint": {"line-blur": 1, "line-width": ["*", 2, ["get", "lanes"]], "line-color": ["to-rgba", "red"]},
                "layout": {"line-round-limit": 1.05}},
               {"id": "labels", "type": "symbol", "source": "s", "source-layer": "t",
                "layout": {"text-field": ["coalesce", ["format", ["get", "name"], {}]], "icon-image": "x", "symbol-placement": "line-center"}},
               {"id": "relief", "type": "color-relief", "source": "s", "source-layer": "b"},
               {"id": "roads2", "type": "line", "source": "s", "source-layer": "t", "layout": {"line-round-limit": 2}},
               {"id": "roads2b", "type": "line", "source": "s", "source-layer": "t", "ref": "roads"}
             ]}
            """)
        XCTAssertEqual(style.warnings, [
            "layer 'roads': layout property 'line-round-limit' is not supported",
            "layer 'roads': paint property 'line-color': expression operator 'to-rgba' is not supported",
            "layer 'labels': layout property 'text-field': expression operator 'format' is not supported",
            "layer 'relief': layer type 'color-relief' is not supported",
            "layer 'roads2': layout property 'line-round-limit' is not supported",
            "layer 'roads2b': layer property 'ref' is not supported",
        ])
        // The unsupported value keeps its default; the supported ones are read.
        guard case .line(let roads) = style.layers[0].kind else { return XCTFail("roads") }
        XCTAssertEqual(roads.color.constantValue, StyleColor(red: 0, green: 0, blue: 0))
        XCTAssertEqual(roads.width.value(atZoom: 10, for: MockStyleFeature(properties: ["lanes": .number(3)])), 6)
        XCTAssertEqual(style.layers.map(\.id), ["roads", "labels", "roads2", "roads2b"])
    }

    private func assertInvalid(_ json: String, layer: String?, property: String?, _ kind: VectorStyleError.Kind = .invalidValue,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try VectorStyle(json: json), file: file, line: line) { error in
            guard let error = error as? VectorStyleError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(error.kind, kind, "\(error)", file: file, line: line)
            XCTAssertEqual(error.layer, layer, "\(error)", file: file, line: line)
            XCTAssertEqual(error.property, property, "\(error)", file: file, line: line)
        }
    }

    private func layer(_ body: String) -> String {
        #"{"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [{"id": "L", "type": "line", "source": "s", "source-layer": "t", "#
            + body + "}]}"
    }

    func testMalformedValuesNameLayerAndProperty() {
        assertInvalid(layer(#""paint": {"line-width": "wide"}"#), layer: "L", property: "line-width")
        assertInvalid(layer(#""paint": {"line-width": -1}"#), layer: "L", property: "line-width")
        assertInvalid(layer(#""paint": {"line-opacity": 1.5}"#), layer: "L", property: "line-opacity")
        assertInvalid(layer(#""paint": {"line-color": "not a colour"}"#), layer: "L", property: "line-color")
        assertInvalid(layer(#""paint": {"line-color": ["match", ["get", "c"], "a", "red", "bluish"]}"#), layer: "L", property: "line-color")
        assertInvalid(layer(#""paint": {"line-dasharray": [1, "x"]}"#), layer: "L", property: "line-dasharray")
        assertInvalid(layer(#""paint": {"line-width": ["interpolate", ["linear"], ["zoom"], 10, 1, 5, 2]}"#), layer: "L", property: "line-width")
        assertInvalid(layer(#""paint": {"line-width": ["+", 1, ["interpolate", ["linear"], ["zoom"], 10, 1, 15, 2]]}"#), layer: "L", property: "line-width")
        assertInvalid(layer(#""paint": {"line-width": {"stops": []}}"#), layer: "L", property: "line-width")
        assertInvalid(layer(#""paint": {"line-width": {"stops": [[1, 2]], "bogus": 1}}"#), layer: "L", property: "line-width")
        assertInvalid(layer(#""layout": {"line-cap": "pointy"}"#), layer: "L", property: "line-cap")
        assertInvalid(#"{"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [{"id": "L", "type": "symbol", "source": "s", "source-layer": "t", "layout": {"symbol-placement": ["get", "p"]}}]}"#, layer: "L", property: "symbol-placement")
        assertInvalid(#"{"version": 8, "layers": [{"id": "L", "type": "background", "paint": {"background-color": ["get", "c"]}}]}"#, layer: "L", property: "background-color")
        assertInvalid(layer(#""layout": {"visibility": "hidden"}"#), layer: "L", property: "visibility")
        assertInvalid(layer(#""minzoom": 30"#), layer: "L", property: "minzoom")
        assertInvalid(layer(#""paint": []"#), layer: "L", property: "paint")
        assertInvalid(#"{"version": 8, "sources": {}, "layers": [{"id": "L", "type": "fill", "source": "nowhere", "source-layer": "t"}]}"#, layer: "L", property: "source")
        assertInvalid(#"{"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [{"id": "L", "type": "fill", "source": "s"}]}"#, layer: "L", property: "source-layer")
        assertInvalid(#"{"version": 8, "layers": [{"id": "L", "type": "background"}, {"id": "L", "type": "background"}]}"#, layer: "L", property: "id")
        assertInvalid(#"{"version": 8, "layers": [{"type": "background"}]}"#, layer: nil, property: "layers")
        assertInvalid(#"{"version": 7, "layers": []}"#, layer: nil, property: "version")
        assertInvalid(#"{"version": 8}"#, layer: nil, property: "layers")
        assertInvalid(#"{"version": 8, "sources": {"s": {"type": "vector", "maxzoom": "high"}}, "layers": []}"#, layer: nil, property: "sources")
        assertInvalid(#"[1, 2]"#, layer: nil, property: nil, .malformedJSON)
        assertInvalid(#"{"version": 8, "layers": ["#, layer: nil, property: nil, .malformedJSON)
        assertInvalid("", layer: nil, property: nil, .malformedJSON)
    }

    /// The newcomer's trip 4: the file, line and column of the value, then the
    /// layer and property, as a compiler names a place.
    func testErrorDescriptionNamesWhere() {
        let json = """
            {"version": 8, "sources": {"s": {"type": "vector"}},
             "layers": [
               {"id": "bg", "type": "background"},
               {"id": "roads-casing", "type": "line", "source": "s", "source-layer": "roads",
                "paint": {"line-color": "#888", "line-width": "wide"}}
             ]}
            """
        XCTAssertThrowsError(try VectorStyle(data: Data(json.utf8), fileName: "my.json")) { error in
            XCTAssertEqual("\(error)", "my.json:5:51: layer 'roads-casing': paint 'line-width': 'wide' is not a valid value")
        }
        XCTAssertThrowsError(try VectorStyle(json: layer(#""paint": {"line-width": "wide"}"#))) { error in
            XCTAssertEqual("\(error)", "line 1, column 153: layer 'L': paint 'line-width': 'wide' is not a valid value")
        }
        // A missing member: the layer's own position.
        XCTAssertThrowsError(try VectorStyle(data: Data(json.replacingOccurrences(of: #""source-layer": "roads","#, with: "").utf8), fileName: "my.json")) { error in
            XCTAssertEqual("\(error)", "my.json:4:4: layer 'roads-casing': 'source-layer': a line layer of a vector source needs a string 'source-layer'")
        }
        XCTAssertThrowsError(try VectorStyle(data: Data("{\"version\": 8,\n \"layers\": [}".utf8), fileName: "my.json")) { error in
            XCTAssertEqual("\(error)", "my.json:2:13: the style is not valid JSON: an unexpected character")
        }
    }

    /// The newcomer's trip 8: a typo in a key is answered with the nearest
    /// name, as a URL parameter is; a key MapLibre has but we do not draw is
    /// only said to be unsupported; warnings of a file start with its name.
    func testWarningsSuggestTheKeyMeant() throws {
        let style = try VectorStyle(data: Data("""
            {"version": 8, "sources": {"s": {"type": "vector"}},
             "layers": [
               {"id": "casing", "type": "line", "source": "s", "source-layer": "roads", "source_layer": "x",
                "layout": {"line-color": "red", "line-jion": "round"},
                "paint": {"line-colour": "#888", "line-blur": 1, "line-patern": "dots"}},
               {"id": "parks", "type": "fil", "source": "s", "source-layer": "park"},
               {"id": "names", "type": "symbol", "source": "s", "source-layer": "roads", "layout": {"text-overlap": "always"}}
             ]}
            """.utf8), fileName: "my.json")
        XCTAssertEqual(style.warnings, [
            "my.json: layer 'casing': layer property 'source_layer' is not supported; did you mean 'source-layer'?",
            "my.json: layer 'casing': layout property 'line-color' is not supported; it is a paint property",
            "my.json: layer 'casing': layout property 'line-jion' is not supported; did you mean 'line-join'?",
            "my.json: layer 'casing': paint property 'line-colour' is not supported; did you mean 'line-color'?",
            "my.json: layer 'casing': paint property 'line-patern' is not supported; did you mean 'line-pattern'?",
            "my.json: layer 'parks': layer type 'fil' is not supported; did you mean 'fill'?",
            "my.json: layer 'names': layout property 'text-overlap' is not supported",
        ])
        XCTAssertEqual(style.fileName, "my.json")
    }

    /// The newcomer's trip 2: a `source-layer` the tiles do not have (a
    /// Protomaps name on OpenMapTiles tiles) is warned with the layers they have.
    func testSourceLayersAreCheckedAgainstTheTiles() throws {
        var style = try VectorStyle(json: """
            {"version": 8, "sources": {"s": {"type": "vector"}},
             "layers": [
               {"id": "houses", "type": "fill", "source": "s", "source-layer": "buildings"},
               {"id": "roads", "type": "line", "source": "s", "source-layer": "transportation"},
               {"id": "bg", "type": "background"}
             ]}
            """)
        style.checkSourceLayers(["water", "building", "transportation"])
        XCTAssertEqual(style.warnings, ["layer 'houses': source-layer 'buildings' is not in the tiles, so the layer draws nothing; "
                                        + "did you mean 'building'? (the tiles have building, transportation, water)"])
        style.warnings = []
        style.checkSourceLayers([])
        XCTAssertEqual(style.warnings, [], "tiles that list no layers are not checked")
    }

    // MARK: Hostile styles: clear errors, fast.

    private func assertLimit(_ data: Data, limits: StyleLimits = .default, file: StaticString = #filePath, line: UInt = #line) {
        let start = Date()
        XCTAssertThrowsError(try VectorStyle(data: data, limits: limits), file: file, line: line) { error in
            XCTAssertEqual((error as? VectorStyleError)?.kind, .limitExceeded, "\(error)", file: file, line: line)
        }
        // Well under the hostile-input budget of 2 s, even in a debug build.
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5, "refused too slowly", file: file, line: line)
    }

    func testAMillionLayersIsRefused() {
        // A million layers fit in 4 MiB as `{}`: the byte limit passes them, the layer limit refuses them.
        let json = Data((#"{"version": 8, "layers": ["# + String(repeating: "{},", count: 999_999) + "{}]}").utf8)
        assertLimit(json)
        assertLimit(json, limits: StyleLimits(maximumByteCount: 1000))
        XCTAssertThrowsError(try VectorStyle(data: json, limits: StyleLimits(maximumLayerCount: 10))) { error in
            XCTAssertEqual((error as? VectorStyleError)?.description, "'layers': the style has over 10 layers, the limit")
        }
    }

    func testDeepNestingIsRefusedBeforeDecoding() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        assertLimit(Data(layer(#""paint": {"line-width": "# + deep + "}").utf8))
        // Nesting inside strings does not count.
        XCTAssertNoThrow(try VectorStyle(json: layer(#""metadata": {"note": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"[["}"#)))
        // An expression nested deeper than the limit but within the document's slack.
        let nested = String(repeating: #"["+", 1, "#, count: 40) + "1" + String(repeating: "]", count: 40)
        XCTAssertThrowsError(try VectorStyle(json: layer(#""paint": {"line-width": "# + nested + "}"), limits: StyleLimits(maximumExpressionDepth: 36))) { error in
            var expected = VectorStyleError(.limitExceeded, layer: "L", section: "paint", property: "line-width", detail: "the expression nests deeper than 36 levels")
            (expected.line, expected.column) = (1, 153)
            XCTAssertEqual(error as? VectorStyleError, expected)
        }
        let legacy = String(repeating: #"["all", "#, count: 40) + "true" + String(repeating: "]", count: 40)
        XCTAssertThrowsError(try VectorStyle(json: layer(#""filter": "# + legacy), limits: StyleLimits(maximumExpressionDepth: 36))) { error in
            XCTAssertEqual((error as? VectorStyleError)?.kind, .limitExceeded)
            XCTAssertEqual((error as? VectorStyleError)?.property, "filter")
        }
        XCTAssertNoThrow(try VectorStyle(json: layer(#""paint": {"line-width": "# + nested + "}"), limits: StyleLimits(maximumExpressionDepth: 48)))
    }

    func testOversizedStyleIsRefusedBeforeDecoding() {
        assertLimit(Data(count: 5 << 20))
    }

    func testLayerCountIgnoresOtherArraysAndStrings() throws {
        let limits = StyleLimits(maximumLayerCount: 2)
        let style = try VectorStyle(json: #"""
            {"version": 8, "metadata": {"layers": [{}, {}, {}]}, "name": "layers", "x": [{}, {}, {}],
             "layers": [{"id": "a\"layers", "type": "background"}, {"id": "b", "type": "background"}]}
            """#, limits: limits)
        XCTAssertEqual(style.layers.count, 2)
        XCTAssertEqual(style.warnings, ["style property 'x' is not supported"])
    }

    func testWrongTypesEverywhereAreErrorsNotCrashes() {
        let bodies = [
            #""filter": 3"#, #""filter": {}"#, #""paint": {"line-width": {}}"#, #""paint": {"line-width": []}"#,
            #""paint": {"line-width": ["interpolate"]}"#, #""paint": {"line-width": ["interpolate", ["cubic-bezier", 1, 2, 3, 4], ["zoom"], 1, 2]}"#,
            #""paint": {"line-width": ["step", ["zoom"]]}"#, #""paint": {"line-width": ["match"]}"#, #""paint": {"line-width": ["case"]}"#,
            #""paint": {"line-width": ["get"]}"#, #""paint": {"line-width": ["get", 3]}"#, #""paint": {"line-width": [null]}"#,
            #""paint": {"line-width": {"stops": [[{"zoom": "a"}, 1]], "property": "x"}}"#, #""paint": {"line-width": {"type": "identity"}}"#,
            #""paint": {"line-width": {"stops": [[1]]}}"#, #""paint": {"line-width": {"stops": [[2, 1], [1, 2]]}}"#,
            #""layout": {"text-field": 3}"#, #""source-layer": 4"#, #""minzoom": "1""#,
        ]
        for body in bodies {
            do {
                let style = try VectorStyle(json: layer(body))
                // Accepted (outside the subset, or a valid reading): then it is warned or usable.
                _ = style.layers.first?.atZoom(10)
            } catch let error as VectorStyleError {
                XCTAssertFalse(error.detail.isEmpty, body)
            } catch {
                XCTFail("\(body): \(error)")
            }
        }
    }
}
