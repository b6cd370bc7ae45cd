import XCTest
import Raster
@testable import MapRendering

/// Property values: constants, legacy functions, interpolate and step at several
/// zooms, with expected values worked out by hand from the spec's formulas.
final class StylePropertyTests: XCTestCase {
    /// A one-line-layer style whose paint is `paint` (JSON members).
    private func line(_ paint: String, layout: String = "", file: StaticString = #filePath, line: UInt = #line) throws -> LineLayerStyle {
        let style = try VectorStyle(json: """
            {"version": 8, "sources": {"s": {"type": "vector"}},
             "layers": [{"id": "l", "type": "line", "source": "s", "source-layer": "x", "paint": {\(paint)}, "layout": {\(layout)}}]}
            """)
        XCTAssertEqual(style.warnings, [], file: file, line: line)
        guard case .line(let line)? = style.layers.first?.kind else { throw FixtureError("no line layer") }
        return line
    }

    private let none = MockStyleFeature()

    func testConstantsAndDefaults() throws {
        let style = try line(##""line-width": 3, "line-color": "#ff0000", "line-dasharray": [2, 1]"##, layout: #""line-cap": "round""#)
        XCTAssertEqual(style.width.constantValue, 3)
        XCTAssertEqual(style.color.constantValue, StyleColor(red: 1, green: 0, blue: 0))
        XCTAssertEqual(style.dashArray.constantValue, [2, 1])
        XCTAssertEqual(style.cap.constantValue, .round)
        XCTAssertEqual(style.join.constantValue, .miter)      // default
        XCTAssertEqual(style.opacity.constantValue, 1)        // default
        XCTAssertEqual(style.gapWidth.constantValue, 0)       // default
        XCTAssertEqual(style.dashArray.defaultValue, [])
    }

    func testInterpolateExponentialAtSeveralZooms() throws {
        let width = try line(#""line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 10, 2, 14, 6]"#).width
        XCTAssertFalse(width.isFeatureDependent)
        XCTAssertNil(width.constantValue)
        // Below and above the stops: the end values.
        XCTAssertEqual(width.value(atZoom: 5), 2)
        XCTAssertEqual(width.value(atZoom: 20), 6)
        // t = (1.5^(z-10) - 1) / (1.5^4 - 1): z=12 → 1.25 / 4.0625 = 0.3076923.
        XCTAssertEqual(width.value(atZoom: 12), 2 + 4 * 1.25 / 4.0625, accuracy: 1e-12)
        XCTAssertEqual(width.value(atZoom: 11), 2 + 4 * 0.5 / 4.0625, accuracy: 1e-12)
        XCTAssertEqual(width.atZoom(12).constantValue!, 3.2307692307692, accuracy: 1e-12)
    }

    func testInterpolateLinearAndStep() throws {
        let style = try line(#""line-opacity": ["interpolate", ["linear"], ["zoom"], 13, 0, 14.5, 1], "line-width": ["step", ["zoom"], 1, 10, 2, 15, 4]"#)
        XCTAssertEqual(style.opacity.value(atZoom: 13.75), 0.5, accuracy: 1e-12)
        XCTAssertEqual(style.opacity.value(atZoom: 14), 2.0 / 3, accuracy: 1e-12)
        XCTAssertEqual(style.width.value(atZoom: 9.99), 1)
        XCTAssertEqual(style.width.value(atZoom: 10), 2)
        XCTAssertEqual(style.width.value(atZoom: 14.9), 2)
        XCTAssertEqual(style.width.value(atZoom: 15), 4)
    }

    func testLegacyFunctions() throws {
        let style = try line(#"""
            "line-width": {"base": 2, "stops": [[10, 1], [12, 5]]},
            "line-opacity": {"stops": [[10, 0.4], [14, 1]]},
            "line-color": {"stops": [[10, "#000000"], [12, "#ffffff"]]},
            "line-gap-width": {"property": "lanes", "stops": [[1, 2], [3, 6]], "default": 1},
            "line-offset": {"property": "lanes", "type": "interval", "stops": [[0, 0], [2, 3]]}
            """#, layout: #""line-cap": {"property": "class", "type": "categorical", "stops": [["primary", "round"]], "default": "square"}"#)
        // Zoom function, base 2: t = (2^(11-10) - 1) / (2^2 - 1) = 1/3.
        XCTAssertEqual(style.width.value(atZoom: 11), 1 + 4.0 / 3, accuracy: 1e-12)
        XCTAssertEqual(style.opacity.value(atZoom: 12), 0.7, accuracy: 1e-12)
        // Colours interpolate per channel: half way is 0.5 grey.
        XCTAssertEqual(style.color.value(atZoom: 11), StyleColor(red: 0.5, green: 0.5, blue: 0.5))
        // Property functions.
        let two = MockStyleFeature(properties: ["lanes": .number(2), "class": .string("primary")])
        XCTAssertTrue(style.gapWidth.isFeatureDependent)
        XCTAssertEqual(style.gapWidth.value(atZoom: 14, for: two), 4)
        XCTAssertEqual(style.gapWidth.value(atZoom: 14, for: none), 1)   // the function's default
        XCTAssertEqual(style.offset.value(atZoom: 14, for: two), 3)
        XCTAssertEqual(style.offset.value(atZoom: 14, for: MockStyleFeature(properties: ["lanes": .number(1.5)])), 0)
        XCTAssertEqual(style.cap.value(atZoom: 14, for: two), .round)
        XCTAssertEqual(style.cap.value(atZoom: 14, for: none), .square)
    }

    func testZoomAndPropertyFunction() throws {
        let width = try line(#""line-width": {"property": "rank", "stops": [[{"zoom": 10, "value": 0}, 1], [{"zoom": 10, "value": 10}, 3], [{"zoom": 20, "value": 0}, 5], [{"zoom": 20, "value": 10}, 15]]}"#).width
        let rank5 = MockStyleFeature(properties: ["rank": .number(5)])
        XCTAssertEqual(width.value(atZoom: 10, for: rank5), 2)
        XCTAssertEqual(width.value(atZoom: 20, for: rank5), 10)
        XCTAssertEqual(width.value(atZoom: 15, for: rank5), 6)
    }

    func testACategoricalZoomAndPropertyFunctionIsLinearOverZoom() throws {
        // MapLibre's convertZoomAndPropertyFunction: the zoom dimension follows the
        // property (linear for a width), the type only shapes each zoom's property curve.
        let width = try line(#""line-width": {"property": "p", "type": "categorical", "stops": [[{"zoom": 0, "value": 1}, 1], [{"zoom": 0, "value": 2}, 2], [{"zoom": 1, "value": 1}, 4], [{"zoom": 1, "value": 2}, 5]]}"#).width
        XCTAssertEqual(width.value(atZoom: 0.5, for: MockStyleFeature(properties: ["p": .number(2)])), 3.5)
        XCTAssertEqual(width.value(atZoom: 0.5, for: MockStyleFeature(properties: ["p": .number(1)])), 2.5)
    }

    func testADasharrayFunctionStepsAsTheSpecificationDoesNotInterpolateIt() throws {
        let dashes = try line(#""line-dasharray": {"stops": [[0, [1, 1]], [1, [2, 1]]]}"#).dashArray
        XCTAssertEqual(dashes.value(atZoom: 0.5), [1, 1])
        XCTAssertEqual(dashes.value(atZoom: 1), [2, 1])
        // Other arrays still interpolate.
        XCTAssertEqual(try line(#""line-translate": {"stops": [[0, [0, 0]], [1, [2, 4]]]}"#).translate.value(atZoom: 0.5), [1, 2])
    }

    func testFeatureDependentExpressionsAndZoomFolding() throws {
        let style = try line(#"""
            "line-width": ["interpolate", ["linear"], ["zoom"], 10, ["match", ["get", "class"], "primary", 2, 1], 20, ["match", ["get", "class"], "primary", 12, 6]],
            "line-color": ["case", ["==", ["get", "brunnel"], "tunnel"], "rgba(0, 0, 0, 0.5)", "hsl(0, 100%, 50%)"]
            """#)
        let primary = MockStyleFeature(properties: ["class": .string("primary")])
        let tunnel = MockStyleFeature(properties: ["brunnel": .string("tunnel")])
        XCTAssertTrue(style.width.isFeatureDependent)
        XCTAssertEqual(style.width.value(atZoom: 15, for: primary), 7)
        XCTAssertEqual(style.width.value(atZoom: 15, for: tunnel), 3.5)
        // atZoom leaves feature-dependent values to the feature.
        XCTAssertTrue(style.atZoom(15).width.isFeatureDependent)
        XCTAssertEqual(style.color.value(atZoom: 15, for: tunnel), StyleColor(red: 0, green: 0, blue: 0, alpha: 0.5))
        XCTAssertEqual(style.color.value(atZoom: 15, for: primary), StyleColor(red: 1, green: 0, blue: 0))
    }

    func testColourInterpolationIsStraightRGBAsMapLibre() throws {
        let color = try line(#""line-color": ["interpolate", ["linear"], ["zoom"], 0, "red", 10, "rgba(0, 0, 255, 0)"]"#).color
        // MapLibre interpolates the unpremultiplied channels: at t = 0.4, r 0.6, b 0.4, a 0.6.
        let c = color.value(atZoom: 4)
        XCTAssertEqual(c.red, 0.6, accuracy: 1e-12)
        XCTAssertEqual(c.blue, 0.4, accuracy: 1e-12)
        XCTAssertEqual(c.alpha, 0.6, accuracy: 1e-12)
    }

    func testWrongTypedValueAtEvaluationTakesTheDefault() throws {
        let width = try line(#""line-width": ["get", "width"]"#).width
        XCTAssertEqual(width.value(atZoom: 10, for: MockStyleFeature(properties: ["width": .number(4)])), 4)
        XCTAssertEqual(width.value(atZoom: 10, for: MockStyleFeature(properties: ["width": .string("wide")])), 1)
        XCTAssertEqual(width.value(atZoom: 10, for: MockStyleFeature(properties: ["width": .number(-4)])), 1)
        XCTAssertEqual(width.value(atZoom: 10, for: none), 1)
    }

    func testTextFieldTokensAndCoalesce() throws {
        let style = try VectorStyle(json: #"""
            {"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [
              {"id": "a", "type": "symbol", "source": "s", "source-layer": "x", "layout": {"text-field": "{name} ({ref})", "text-font": ["Noto Sans"]}},
              {"id": "b", "type": "symbol", "source": "s", "source-layer": "x",
               "layout": {"text-field": ["coalesce", ["get", "name:latin"], ["get", "name"]], "symbol-placement": "line", "text-size": 14},
               "paint": {"text-halo-color": "#fff", "text-halo-width": 1.5, "text-color": "#333"}}]}
            """#)
        XCTAssertEqual(style.warnings, [])
        guard case .symbol(let a) = style.layers[0].kind, case .symbol(let b) = style.layers[1].kind else { return XCTFail("not symbols") }
        let street = MockStyleFeature(properties: ["name": .string("Невский проспект"), "name:latin": .string("Nevsky prospekt"), "ref": .number(1)])
        XCTAssertEqual(a.textField.value(atZoom: 15, for: street), "Невский проспект (1)")
        XCTAssertEqual(a.textField.value(atZoom: 15, for: none), " ()")
        XCTAssertEqual(b.textField.value(atZoom: 15, for: street), "Nevsky prospekt")
        XCTAssertEqual(b.textField.value(atZoom: 15, for: MockStyleFeature(properties: ["name": .string("Αθήνα")])), "Αθήνα")
        XCTAssertEqual(b.textField.value(atZoom: 15, for: none), "")
        XCTAssertEqual(b.placement.constantValue, .line)
        XCTAssertEqual(a.placement.constantValue, .point)
        XCTAssertEqual(b.haloWidth.constantValue, 1.5)
        XCTAssertEqual(b.haloColor.constantValue, StyleColor(red: 1, green: 1, blue: 1))
        XCTAssertEqual(b.textSize.constantValue, 14)
        XCTAssertEqual(a.textSize.constantValue, 16)
    }

    /// The placement options read with their spec defaults and zoom functions;
    /// the data-constant ones refuse a value that depends on the feature.
    func testSymbolPlacementOptions() throws {
        let style = try VectorStyle(json: #"""
            {"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [
              {"id": "a", "type": "symbol", "source": "s", "source-layer": "x", "layout": {"text-field": "{name}"}},
              {"id": "b", "type": "symbol", "source": "s", "source-layer": "x",
               "layout": {"text-field": "{name}", "text-max-width": 6, "symbol-spacing": ["interpolate", ["linear"], ["zoom"], 10, 100, 20, 300],
                 "text-padding": 4, "text-max-angle": 30, "text-allow-overlap": true, "text-ignore-placement": {"stops": [[10, false], [14, true]]}}}]}
            """#)
        XCTAssertEqual(style.warnings, [])
        guard case .symbol(let a) = style.layers[0].kind, case .symbol(let b) = style.layers[1].kind else { return XCTFail("not symbols") }
        XCTAssertEqual(a.maxWidth.constantValue, 10)
        XCTAssertEqual(a.spacing.constantValue, 250)
        XCTAssertEqual(a.padding.constantValue, 2)
        XCTAssertEqual(a.maxAngle.constantValue, 45)
        XCTAssertEqual(a.allowOverlap.constantValue, false)
        XCTAssertEqual(a.ignorePlacement.constantValue, false)
        XCTAssertEqual(b.maxWidth.constantValue, 6)
        XCTAssertEqual(b.spacing.value(atZoom: 15), 200, accuracy: 1e-9)
        XCTAssertEqual(b.padding.constantValue, 4)
        XCTAssertEqual(b.maxAngle.constantValue, 30)
        XCTAssertEqual(b.allowOverlap.constantValue, true)
        XCTAssertEqual(b.ignorePlacement.value(atZoom: 12), false)
        XCTAssertEqual(b.ignorePlacement.value(atZoom: 14), true)
        for property in ["symbol-spacing", "text-allow-overlap"] {
            let value = property == "symbol-spacing" ? #"["get", "gap"]"# : #"["has", "name"]"#
            XCTAssertThrowsError(try VectorStyle(json: #"""
                {"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [
                  {"id": "c", "type": "symbol", "source": "s", "source-layer": "x", "layout": {"\#(property)": \#(value)}}]}
                """#)) { error in
                XCTAssertEqual((error as? VectorStyleError)?.property, property)
            }
        }
    }
}

extension StylePropertyTests {
    /// `["coalesce", ["image", …], …]` passes over images the sprite lacks, as
    /// MapLibre's `ResolvedImage.available` does; with none left, the first name.
    func testCoalesceOfImagesSkipsImagesTheSpriteLacks() throws {
        let style = try VectorStyle(json: """
            {"version": 8, "sources": {"s": {"type": "vector"}},
             "layers": [{"id": "p", "type": "symbol", "source": "s", "source-layer": "poi", "layout": {"icon-image":
               ["coalesce", ["image", ["concat", ["get", "class"], "_icon"]], ["image", "generic_icon"]]}}]}
            """)
        XCTAssertEqual(style.warnings, [])
        guard case .symbol(let symbol)? = style.layers.first?.kind else { throw FixtureError("no symbol layer") }
        let image = SpriteImage(name: "i", x: 0, y: 0, width: 1, height: 1, pixelRatio: 1, sdf: false, stretchX: [], stretchY: [],
                                content: nil, sheet: try Bitmap(width: 1, height: 1, fill: RGBA(0, 0, 255)))
        let school = MockStyleFeature(properties: ["class": .string("school")])
        let cafe = MockStyleFeature(properties: ["class": .string("cafe")])
        let sprite = ["school_icon": image, "generic_icon": image]
        XCTAssertEqual(symbol.icon.image.value(atZoom: 15, for: SpriteAwareFeature(base: school, images: sprite)), "school_icon")
        XCTAssertEqual(symbol.icon.image.value(atZoom: 15, for: SpriteAwareFeature(base: cafe, images: sprite)), "generic_icon")
        XCTAssertEqual(symbol.icon.image.value(atZoom: 15, for: SpriteAwareFeature(base: cafe, images: [:])), "cafe_icon")
        // Without a sprite to ask, every image is taken to exist.
        XCTAssertEqual(symbol.icon.image.value(atZoom: 15, for: cafe), "cafe_icon")
    }
}
