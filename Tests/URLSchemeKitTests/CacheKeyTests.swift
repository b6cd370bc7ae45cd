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

    func testTheDirectReadingGivesTheSameKeyAsURLComponents() throws {
        // Every URL here must give one key both ways; the first group is read
        // directly, the second needs URLComponents (escapes, "=" in a value,
        // user info, IPv6, non-ASCII, an empty port, no "//").
        let direct = [
            "map://?latitude=59.935634&longitude=30.325935", "MAP://?b=2&a=1&a=0#frag", "asset://?id=abc_12-x&width=640&filter=sepia,blur:2",
            "map://?marker=59.9,30.3,label:A&marker=55.7,37.6&path=1,2,3,4,width:3", "http://Tiles.Example:0080/z/1/2.png?k=v",
            "http://h/p/q", "map://?", "map://?&&a&=x&b=", "map://host?a", "x-y.z+w://?q=1",
        ]
        let general = [
            "map://?a=%41", "map://?a=b=c", "http://user@h/p", "http://[::1]:8080/p?a=1", "map://?name=%E2%9C%93",
            "http://h:/p", "map:?a=1", "map://?a=b%20c&a=x",
            // Found by Fuzz/cache: URL spells this host in punycode, URLComponents percent-encoded.
            "https://\u{47A}\u{146}s", "https://xn--s-lla67v/p", "http://" + String(repeating: "a", count: 3000) + "/p?q=1",
        ]
        for text in direct + general {
            let url = try XCTUnwrap(URL(string: text), text)
            XCTAssertEqual(CacheKey.directKey(url.absoluteString) != nil, direct.contains(text), text)
            XCTAssertEqual(CacheKey(url: url), CacheKey(components: url), text)
            if let fast = CacheKey.directKey(url.absoluteString) { XCTAssertEqual(fast, CacheKey(components: url)?.rawValue, text) }
        }
    }
}
