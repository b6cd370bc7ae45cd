import Foundation
import XCTest
@testable import URLSchemeServer

/// `Access-Control-Allow-Origin` on answers, so a MapLibre GL JS or Leaflet
/// page of another origin can `fetch` tiles, styles and images.
final class CrossOriginTests: XCTestCase {
    func testEveryAnswerAllowsAnyOriginByDefault() throws {
        let fixture = try ServerFixture(environment: ServerFixture.environment(), test: self)
        let client = try fixture.client()
        for target in ["/health", "/map?latitude=60&longitude=25&zoom=3&width=32&height=32", "/map?latitude=91", "/nowhere"] {
            client.send("GET \(target) HTTP/1.1\r\nHost: x\r\nOrigin: https://app.example\r\n\r\n")
            let answer = try XCTUnwrap(client.readAnswer(), target)
            XCTAssertEqual(answer.headers["access-control-allow-origin"], "*", "\(target) answered \(answer.status)")
            XCTAssertNil(answer.headers["access-control-allow-credentials"], "never with credentials")
        }
    }

    func testOneOriginOrNone() throws {
        let one = try ServerFixture(environment: ServerFixture.environment(), test: self) { $0.allowedOrigin = "https://app.example" }
        let client = try one.client()
        client.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readAnswer()?.headers["access-control-allow-origin"], "https://app.example")

        let none = try ServerFixture(environment: ServerFixture.environment(), test: self) { $0.allowedOrigin = nil }
        let other = try none.client()
        other.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = try XCTUnwrap(other.readAnswer())
        XCTAssertEqual(answer.status, 200)
        XCTAssertNil(answer.headers["access-control-allow-origin"])
    }

    func testTheOptionTakesStarNoneOrAnOriginAndNamesABadValue() throws {
        func origin(_ arguments: [String], _ environment: [String: String] = [:]) throws -> String? {
            try ServeOptions.configuration(arguments: arguments, environment: environment).allowedOrigin
        }
        XCTAssertEqual(try origin([]), "*")
        XCTAssertNil(try origin(["--cors-origin", "none"]))
        XCTAssertEqual(try origin(["--cors-origin", "http://127.0.0.1:8000"]), "http://127.0.0.1:8000")
        XCTAssertEqual(try origin([], ["URLSCHEME_CORS_ORIGIN": "https://app.example"]), "https://app.example")
        for bad in ["ftp://app.example", "https://app.example/page", "app.example", "https://app.example?x=1"] {
            XCTAssertThrowsError(try origin(["--cors-origin", bad])) { error in
                XCTAssertTrue("\(error)".hasPrefix("--cors-origin \(bad): expected *, none, or an origin"), "\(error)")
            }
        }
    }
}
