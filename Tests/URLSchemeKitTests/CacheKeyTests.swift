import XCTest
@testable import URLSchemeKit

final class CacheKeyTests: XCTestCase {
    private func key(_ text: String) -> CacheKey? { CacheKey(url: URL(string: text)!) }

    func testQueryOrderDoesNotMatterButValuesDo() {
        XCTAssertEqual(key("map://?a=1&b=2"), key("map://?b=2&a=1"))
        XCTAssertNotEqual(key("map://?a=1"), key("map://?a=2"))
        XCTAssertEqual(key("map://?b=2&a=1")?.rawValue, "map://?a=1&b=2")
    }

    func testRepeatedNamesKeepTheirOrder() {
        XCTAssertEqual(key("map://?m=A&z=1&m=B"), key("map://?z=1&m=A&m=B"))
        XCTAssertNotEqual(key("map://?m=A&m=B"), key("map://?m=B&m=A"))
    }

    func testSchemeHostPortPathCountAndFragmentDoesNot() {
        XCTAssertNotEqual(key("map://tiles/q?a=1"), key("http://tiles/q?a=1"))
        XCTAssertNotEqual(key("http://h:80/q"), key("http://h:81/q"))
        XCTAssertNotEqual(key("http://h/p"), key("http://h/q"))
        XCTAssertEqual(key("HTTP://TILES/q"), key("http://tiles/q"))
        XCTAssertEqual(key("map://?a=1#top"), key("map://?a=1"))
        XCTAssertEqual(key("map://?a=%41"), key("map://?a=A"))
        XCTAssertNotEqual(key("map://?a"), key("map://?a="))
        XCTAssertEqual(key("map://?")?.rawValue, "map://")
    }
}
