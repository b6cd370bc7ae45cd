import Foundation
import XCTest
@testable import MapRendering

/// MapLibre's own expression conformance cases (a selection of
/// maplibre-style-spec's test/integration/expression/tests, BSD-3-Clause, copied by
/// Scripts/extract_maplibre_expression_tests.py into Fixtures/MapLibreExpressions):
/// each expression compiled by our compiler and evaluated on each input must give
/// MapLibre's expected output.
final class MapLibreExpressionConformanceTests: XCTestCase {
    private struct Fixture: Decodable {
        var source: String
        var cases: [Case]
    }

    private struct Case: Decodable {
        var name: String
        var expression: StyleJSON
        var type: String?
        var `default`: StyleJSON?
        /// The property's `interpolated` (whether a legacy function over zoom interpolates), when the case gives it.
        var interpolated: Bool?
        var inputs: [[StyleJSON]]
        var compiled: String?
        var outputType: String?
        var outputs: [StyleJSON]
    }

    /// Cases where our documented subset differs from MapLibre on purpose, with why.
    static let deviations: [String: String] = {
        let typedAtCompile = "MapLibre types expressions when it compiles them and refuses these; ours are typed as they evaluate (these inputs give an evaluation error or false there)"
        let objects = "an object value: MVT properties are scalars, and StyleValue has no object case"
        return [
            "coalesce/argument-type-mismatch": typedAtCompile,
            "coalesce/infer-array-type": typedAtCompile,
            "equal/array": typedAtCompile,
            "equal/color": typedAtCompile,
            "equal/mismatch": typedAtCompile,
            "greater/boolean": typedAtCompile,
            "greater/mismatch": typedAtCompile,
            "greater/null": typedAtCompile,
            "greater_or_equal/boolean": typedAtCompile,
            "greater_or_equal/mismatch": typedAtCompile,
            "greater_or_equal/null": typedAtCompile,
            "less/boolean": typedAtCompile,
            "less/mismatch": typedAtCompile,
            "less/null": typedAtCompile,
            "less_or_equal/boolean": typedAtCompile,
            "less_or_equal/mismatch": typedAtCompile,
            "less_or_equal/null": typedAtCompile,
            "not_equal/mismatch": typedAtCompile,
            "in/invalid-needle-literal-array": typedAtCompile,
            "interpolate/exponential-string-array": typedAtCompile,
            "interpolate/uninterpolable-output/bare-number-array": typedAtCompile,
            "interpolate/uninterpolable-output/boolean": typedAtCompile,
            "interpolate/uninterpolable-output/null": typedAtCompile,
            "interpolate/uninterpolable-output/string": typedAtCompile,
            "match/label-mixed": typedAtCompile,
            "match/label-non-integer": typedAtCompile,
            "match/label-overflow": typedAtCompile,
            "match/labels-mixed-1": typedAtCompile,
            "match/labels-mixed-2": typedAtCompile,
            "match/labels-mixed-3": typedAtCompile,
            "match/labels-mixed-4": typedAtCompile,
            "match/mismatch-input-literal-number": typedAtCompile,
            "match/mismatch-input-literal-string": typedAtCompile,
            "match/mismatch-input": typedAtCompile,
            "match/mismatch-output": typedAtCompile,
            "in/basic-array": objects,
            "in/invalid-haystack": objects,
            "in/invalid-needle": objects,
            "to-number/2-ary": objects,
            "to-number/basic": objects,
            "to-string/basic": objects,
            "get/from-literal": objects,
            "get/from-object-property": objects,
            "has/object-arg/literal": objects,
            "literal/object": objects,
            "id/basic": "string feature ids: MVT ids are unsigned integers",
            "all/short-circuiting": "uses 'error', outside the subset",
            "any/short-circuiting": "uses 'error', outside the subset",
            "equal/collator-value": "collators are outside the subset",
            "in/assert-array": "'array' is outside the subset",
            "to-string/color": "'rgba' is outside the subset",
            "zoom/nested-let": "'let' is outside the subset",
            "interpolate/global-state/basic": "global-state is outside the subset",
            "interpolate/global-state/missing-property": "global-state",
            "interpolate/projection/global-state": "projection",
            "interpolate/projection/linear": "projection",
            "interpolate/projection/same-from-to": "projection",
            "interpolate/linear-color-array": "MapLibre's color-array property type is outside the subset",
            "interpolate/linear-number-array": "MapLibre's number-array property type (a {values} object) is outside the subset",
            "legacy/identity/color_array": "color-array property type",
            "legacy/identity/number_array": "number-array property type",
            "legacy/identity/padding": "padding property type",
            "legacy/identity/enum-default": "enum values are checked by our property conversion, which the harness does not model",
            "legacy/interval/tokens-zoom": "{token} strings are read in text-field constants, not in function outputs",
        ]
    }()

    private func loadFixture() throws -> Fixture {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/MapLibreExpressions/cases.json")
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }

    func testMapLibreExpressionCases() throws {
        let fixture = try loadFixture()
        XCTAssertGreaterThan(fixture.cases.count, 200)
        var failures: [String] = []
        var checkedOutputs = 0
        for testCase in fixture.cases where Self.deviations[testCase.name] == nil {
            if let failure = run(testCase, checked: &checkedOutputs) { failures.append("\(testCase.name): \(failure)") }
        }
        XCTAssertEqual(failures, [], "\(failures.count) of \(fixture.cases.count) cases differ from MapLibre")
        // 212 cases, 596 outputs at the fixture's commit; the deviations all exist.
        XCTAssertGreaterThanOrEqual(checkedOutputs, 590)
        let names = Set(fixture.cases.map(\.name))
        XCTAssertEqual(Set(Self.deviations.keys).subtracting(names), [])
    }

    private func outputType(_ name: String?) -> StyleOutputType {
        switch name {
        case "color": return .color
        case "number": return .number
        case "string": return .string
        case "boolean": return .boolean
        case "array": return .numberArray
        default: return .any
        }
    }

    /// Nil if the case passes, else what differs.
    private func run(_ testCase: Case, checked: inout Int) -> String? {
        let compiler = StyleExpressionCompiler(maximumDepth: 32)
        let type = outputType(testCase.type)
        let expression: StyleExpression
        do {
            if case .object(let members) = testCase.expression {
                expression = try StyleFunctionCompiler(expressions: compiler, interpolated: testCase.interpolated).compile(members, expecting: type)
            } else {
                expression = try compiler.compile(testCase.expression, expecting: type)
            }
            // A property value's zoom rule (MapLibre checks it for every expression).
            guard expression.zoomIsOnlyCurveInput else { throw StyleCompileError.invalid("zoom placement") }
        } catch {
            return testCase.compiled == "success" ? "compile failed: \(error)" : nil
        }
        guard testCase.compiled == "success" else { return "compiled, MapLibre refuses it" }
        for (index, input) in testCase.inputs.enumerated() {
            guard index < testCase.outputs.count, input.count == 2 else { continue }
            var zoom = 0.0
            if case .object(let globals) = input[0], case .number(let z)? = globals["zoom"] { zoom = z }
            let feature = mockFeature(input[1], compiler)
            var result: StyleValue
            do {
                result = try expression.evaluate(zoom: zoom, feature: feature)
                // A typed property converts as StyleProperty does; a value of the
                // wrong type takes the property's default (MapLibre's too).
                if let type = testCase.type, let converted = convert(result, type: type, isFunction: isFunction(testCase)) {
                    result = converted
                } else if testCase.type != nil {
                    result = try testCase.default.map { try compiler.literal($0, expecting: self.outputType(testCase.type)) } ?? .null
                }
            } catch {
                // An evaluation error: the property's default, else MapLibre's error.
                result = (try? testCase.default.map { try compiler.literal($0, expecting: self.outputType(testCase.type)) }) ?? .null
            }
            checked += 1
            if let difference = compare(result, testCase.outputs[index], colorOutput: testCase.outputType == "color") {
                return "input \(index): \(difference)"
            }
        }
        return nil
    }

    private func isFunction(_ testCase: Case) -> Bool {
        if case .object = testCase.expression { return true }
        return false
    }

    /// The value as a property of MapLibre's `type` takes it (nil if it cannot):
    /// our property conversions, strict strings for legacy functions.
    private func convert(_ value: StyleValue, type: String, isFunction: Bool) -> StyleValue? {
        switch type {
        case "number": return StyleLayerReader.number(value).map(StyleValue.number)
        case "color": return StyleLayerReader.color(value).map(StyleValue.color)
        case "boolean": return StyleLayerReader.boolean(value).map(StyleValue.bool)
        case "string" where !isFunction: return StyleLayerReader.text(value).map(StyleValue.string) ?? .string("")
        case "string", "enum":
            if case .string = value { return value }
            return nil
        case "array":
            if case .array = value { return value }
            return nil
        default: return value
        }
    }

    private func mockFeature(_ json: StyleJSON, _ compiler: StyleExpressionCompiler) -> MockStyleFeature {
        var feature = MockStyleFeature()
        guard case .object(let members) = json else { return feature }
        if case .object(let properties)? = members["properties"] {
            for (key, value) in properties {
                feature.properties[key] = try? compiler.literal(value, expecting: .any)
            }
        }
        if case .number(let id)? = members["id"], id >= 0, id == id.rounded() { feature.featureID = UInt64(id) }
        if case .object(let geometry)? = members["geometry"], case .string(let type)? = geometry["type"] {
            switch type {
            case "Point", "MultiPoint": feature.styleGeometryType = .point
            case "LineString", "MultiLineString": feature.styleGeometryType = .lineString
            default: feature.styleGeometryType = .polygon
            }
        }
        return feature
    }

    /// Nil if `actual` is MapLibre's `expected` (numbers to 6 significant places,
    /// colours as MapLibre prints them: premultiplied 0…1 channels).
    private func compare(_ actual: StyleValue, _ expected: StyleJSON, colorOutput: Bool) -> String? {
        switch (actual, expected) {
        case (_, .object(let members)) where members["error"] != nil:
            return actual == .null ? nil : "gave \(actual), MapLibre an error"
        case (.color(let c), .array(let channels)) where channels.count == 4:
            let premultiplied = [c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha]
            for (value, json) in zip(premultiplied, channels) {
                guard case .number(let e) = json, abs(value - e) <= 1e-5 * max(1, abs(e)) else {
                    return "gave \(premultiplied), expected \(channels)"
                }
            }
            return nil
        case (.number(let a), .number(let e)):
            return abs(a - e) <= 1e-5 * max(1, abs(e)) ? nil : "gave \(a), expected \(e)"
        case (.array(let a), .array(let e)) where a.count == e.count:
            for (x, y) in zip(a, e) {
                if let difference = compare(x, y, colorOutput: false) { return difference }
            }
            return nil
        case (.null, .null): return nil
        case (.bool(let a), .bool(let e)): return a == e ? nil : "gave \(a), expected \(e)"
        case (.string(let a), .string(let e)): return a == e ? nil : "gave '\(a)', expected '\(e)'"
        default: return "gave \(actual), expected \(expected)"
        }
    }
}
