import XCTest
@testable import URLSchemeKit

final class TypedURLTests: XCTestCase {
    func testParsingABuiltURLGivesTheSameValue() throws {
        let values = [
            PatternURL(seed: 7),
            PatternURL(seed: 0, size: 0, delay: 10_000, label: "a b&c=d+e/é?#%"),
            PatternURL(seed: 123_456, size: 64, label: ""),
        ]
        for value in values {
            XCTAssertEqual(try PatternURL(url: value.url), value, value.url.absoluteString)
        }
        XCTAssertEqual(PatternURL(seed: 7, size: 64).url.absoluteString, "pattern://?seed=7&size=64")
    }

    func testUnknownParameterSuggestsTheNearestName() {
        let url = URL(string: "pattern://?seed=1&sise=10")!
        XCTAssertThrowsError(try PatternURL(url: url)) { error in
            let error = error as? URLParameterError
            XCTAssertEqual(error?.parameter, "sise")
            XCTAssertTrue(error?.description.contains("did you mean 'size'?") ?? false, "\(String(describing: error))")
        }
        XCTAssertThrowsError(try PatternURL(url: URL(string: "pattern://?seed=1&zzzzzz=1")!)) { error in
            XCTAssertEqual("\(error)", "parameter 'zzzzzz' is unknown (known: seed, size, delay, label)")
        }
    }

    func testOutOfRangeMissingAndRepeatedParametersNameTheProblem() {
        func message(_ text: String) -> String {
            do {
                _ = try PatternURL(url: URL(string: text)!)
                return "parsed"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(message("pattern://?seed=1&delay=20000"), "parameter 'delay' must be a whole number from 0 to 10000, got '20000'")
        XCTAssertEqual(message("pattern://?size=1"), "parameter 'seed' is required")
        XCTAssertEqual(message("pattern://?seed=1&seed=2"), "parameter 'seed' is given 2 times; it takes one value")
        XCTAssertEqual(message("pattern://?seed=x"), "parameter 'seed' must be a whole number from 0 to 2147483647, got 'x'")
        XCTAssertEqual(message("other://?seed=1"), "parameter 'scheme' must be 'pattern', got 'other'")
    }

    func testNumbersAndChoices() throws {
        enum Shape: String, CaseIterable { case square, circle }
        let reader = try QueryReader(url: URL(string: "x://?lat=59.5&bad=nan&shape=Circle&s=oval")!, knownNames: ["lat", "bad", "shape", "s"])
        XCTAssertEqual(try reader.double("lat", in: -90...90), 59.5)
        XCTAssertThrowsError(try reader.double("bad", in: -90...90)) { error in
            XCTAssertEqual("\(error)", "parameter 'bad' must be a number from -90 to 90, got 'nan'")
        }
        XCTAssertEqual(try reader.choice("shape", as: Shape.self), .circle)
        XCTAssertThrowsError(try reader.choice("s", as: Shape.self)) { error in
            XCTAssertEqual("\(error)", "parameter 's' must be one of square, circle, got 'oval'")
        }
        XCTAssertNil(try reader.double("missing", in: 0...1))
        XCTAssertEqual(QueryWriter.format(0.1), "0.1")
        XCTAssertEqual(QueryWriter.format(-3), "-3")
        XCTAssertEqual(Double(QueryWriter.format(59.935634)), 59.935634)
    }

    func testEditDistance() {
        XCTAssertEqual(NameSuggestion.editDistance(Array("latitude"), Array("lattitude")), 1)
        XCTAssertEqual(NameSuggestion.editDistance(Array("zoom"), Array("zomo")), 1)
        XCTAssertEqual(NameSuggestion.nearest(to: "LONGTITUDE", in: ["latitude", "longitude"]), "longitude")
        XCTAssertNil(NameSuggestion.nearest(to: "q", in: ["latitude", "longitude"]))
    }
}
