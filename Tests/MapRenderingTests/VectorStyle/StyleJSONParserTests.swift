import Foundation
import XCTest
@testable import MapRendering

/// The style JSON reader against Foundation's `JSONSerialization` as the
/// reference: the same documents accepted and refused, the same values read.
final class StyleJSONParserTests: XCTestCase {
    /// Foundation's reading of `text` as a StyleJSON, or nil if it refuses it.
    private func reference(_ text: String) -> StyleJSON? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else { return nil }
        return convert(object)
    }

    private func convert(_ object: Any) -> StyleJSON {
        switch object {
        case is NSNull: return .null
        case let string as String: return .string(string)
        case let array as [Any]: return .array(array.map(convert))
        case let dictionary as [String: Any]: return .object(dictionary.mapValues(convert))
        case let number as NSNumber:
            // Foundation's booleans are NSNumbers whose type is 'c'.
            if String(cString: number.objCType) == "c" { return .bool(number.boolValue) }
            return .number(number.doubleValue)
        default: return .null
        }
    }

    private func ours(_ text: String) -> StyleJSON? {
        try? StyleJSONParser.parse(Data(text.utf8), maximumDepth: 64)
    }

    func testAgreesWithJSONSerialization() {
        let documents = [
            #"{"a": [1, -2.5, 3e2, 0, -0, 1E-3, 0.000001], "b": {"c": null, "d": true, "e": false}}"#,
            #"  [ ]  "#, #"{}"#, #""plain""#, #"12"#, #"[[[[]]]]"#,
            #"["esc \" \\ \/ \b \f \n \r \t", "\u00e9\u4e2d", "\ud83d\ude00", "Нева", "Αθήνα"]"#,
            #"{"dup": 1, "dup": 2}"#,
            // Refused by both.
            #"[01]"#, #"[1.]"#, #"[.5]"#, #"[-]"#, #"[1e]"#, #"[+1]"#, #"[NaN]"#, #"[Infinity]"#,
            #"{"a" 1}"#, #"{a: 1}"#, #"["unterminated]"#, "[\"tab\there\"]", #"["\x"]"#, #"["\u12"]"#, #"[tru]"#, #"[nul]"#,
            #"[1] 2"#, #""#, #"{"#, #"[1, 2"#, "[\"a\u{0}\"]",
        ]
        for document in documents {
            XCTAssertEqual(ours(document), reference(document), document)
        }
    }

    func testTrailingCommasAreRefused() {
        // RFC 8259 (and JavaScript's JSON.parse, which MapLibre reads styles with)
        // refuse them; swift-foundation's JSONSerialization accepts them.
        XCTAssertNil(ours("[1,]"))
        XCTAssertNil(ours(#"{"a": 1,}"#))
    }

    func testLoneSurrogatesAndOverflow() {
        // A lone surrogate cannot be a Swift string: U+FFFD, as Foundation's decoder does too.
        XCTAssertEqual(ours(#"["\ud800x"]"#), .array([.string("\u{FFFD}x")]))
        XCTAssertNil(ours("[1e999]"))
        XCTAssertNil(ours(String(repeating: "[", count: 65) + String(repeating: "]", count: 65)))
        XCTAssertNotNil(ours(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)))
    }

    /// Line and column (from 1, columns in characters), as an editor shows them, not a byte offset.
    func testErrorsNameTheLineAndColumn() {
        XCTAssertThrowsError(try StyleJSONParser.parse(Data(#"{"a": [1, 2,]}"#.utf8), maximumDepth: 8)) { error in
            XCTAssertEqual((error as? VectorStyleError)?.description, "line 1, column 13: the style is not valid JSON: an unexpected character")
        }
        XCTAssertThrowsError(try StyleJSONParser.parse(Data("{\n  \"é\": 1,\n  \"ü\": tru }".utf8), maximumDepth: 8)) { error in
            XCTAssertEqual((error as? VectorStyleError)?.line, 3)
            XCTAssertEqual((error as? VectorStyleError)?.column, 8, "characters, not bytes: 'ü' is two")
        }
    }

    /// The position of a value found by path, for errors found after parsing.
    func testPositionOfAValue() {
        let json = Data("{\"layers\": [\n  {\"id\": \"a\"},\n  {\"id\": \"b\", \"paint\": {\"line-width\": \"wide\"}}\n]}".utf8)
        XCTAssertEqual(StyleJSONParser.position(of: ["layers", "1", "paint", "line-width"], in: json, maximumDepth: 8).map { [$0.line, $0.column] }, [3, 39])
        XCTAssertEqual(StyleJSONParser.position(of: ["layers", "0"], in: json, maximumDepth: 8).map { [$0.line, $0.column] }, [2, 3])
        XCTAssertNil(StyleJSONParser.position(of: ["layers", "2"], in: json, maximumDepth: 8))
    }

    func testALargeDocumentReadsQuickly() throws {
        // A style within the byte limit made of half a million numbers: read in one pass. The bound
        // catches a pass per number (minutes), not speed: a debug build on a busy machine took 4.2 s.
        let json = #"{"version": 8, "metadata": {"x": ["# + String(repeating: "1,", count: 500_000) + #"1]}, "layers": []}"#
        let start = Date()
        _ = try VectorStyle(json: json)
        #if DEBUG
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
        #else
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        #endif
    }
}
