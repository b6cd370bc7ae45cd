import Foundation
import XCTest
import URLSchemeKit
@testable import URLSchemeServer

/// The status each kind of library failure is answered with.
final class SchemeGatewayTests: XCTestCase {
    private func status(_ code: URLError.Code, underlying: Error? = nil, message: String = "the message") -> HTTPResponse {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let underlying { info[NSUnderlyingErrorKey] = underlying as NSError }
        return SchemeGateway.answer(to: URLError(code, userInfo: info))
    }

    func testEachFailureKindHasItsStatusAndNoneIsCached() {
        let tile = MapTileError.unavailable(TileCoordinate(z: 3, x: 1, y: 2), "the server answered 500")
        let cases: [(HTTPResponse, Int)] = [
            (status(.badURL), 400), (status(.fileDoesNotExist), 404), (status(.timedOut), 504),
            (status(.resourceUnavailable), 503),
            (status(.cannotDecodeContentData), 500),
        ]
        for (response, expected) in cases {
            XCTAssertEqual(response.status, expected)
            XCTAssertEqual(response.header("Cache-Control"), "no-store")
            XCTAssertEqual(response.body, Data("the message\n".utf8))
        }
        // As the library reports it: the tile's own description.
        XCTAssertEqual(status(.resourceUnavailable, underlying: tile, message: tile.description).status, 502)
        XCTAssertEqual(status(.resourceUnavailable).header("Retry-After"), "1")
    }

    func testIfNoneMatchListsAndWeakTags() {
        XCTAssertTrue(SchemeGateway.matches("\"a\", \"b\"", "\"b\""))
        XCTAssertTrue(SchemeGateway.matches("W/\"b\"", "\"b\""))
        XCTAssertTrue(SchemeGateway.matches("*", "\"b\""))
        XCTAssertFalse(SchemeGateway.matches("\"bb\"", "\"b\""))
    }
}
