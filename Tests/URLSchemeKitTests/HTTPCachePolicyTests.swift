import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// The caching rules alone: parsing, age and freshness arithmetic, and the
/// decision for each request and stored response, without a network.
final class HTTPCachePolicyTests: XCTestCase {
    private let url = URL(string: "http://origin.test/a")!
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func entry(_ headers: [String: String], status: Int = 200, age: TimeInterval = 0,
                       vary: [String: String] = [:]) -> HTTPCacheEntry {
        var fields = HTTPHeaderFields(headers)
        if fields["Date"] == nil { fields["Date"] = HTTPDate.format(start) }
        return HTTPCacheEntry(url: url, statusCode: status, headers: fields, body: Data("body".utf8),
                              requestTime: start, responseTime: start.addingTimeInterval(age), varyValues: vary)
    }

    private func request(_ headers: [String: String] = [:], policy: URLRequest.CachePolicy = .useProtocolCachePolicy) -> URLRequest {
        var request = URLRequest(url: url, cachePolicy: policy)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    private func decide(_ entry: HTTPCacheEntry?, _ request: URLRequest, at seconds: TimeInterval) -> String {
        switch HTTPCachePolicy.decide(request, entry: entry, varyMiss: false, now: start.addingTimeInterval(seconds)) {
        case let .serve(_, status): return status.timeToLive.map { $0 < 0 ? "serve stale" : "serve" } ?? "serve"
        case .serveAndRevalidate: return "serve and revalidate"
        case let .forward(reason, validating, _): return "forward \(reason.rawValue)" + (validating == nil ? "" : " conditional")
        case .unavailable: return "unavailable"
        case .gatewayTimeout: return "504"
        }
    }

    func testCacheControlParsing() {
        let control = CacheControl(#"Max-Age=60, no-cache="Set-Cookie, Foo", max-age=10, private , stale-if-error=5"#)
        XCTAssertEqual(control.maxAge, 60, "first occurrence wins, names are case-insensitive")
        XCTAssertTrue(control.noCache)
        XCTAssertEqual(control.directives["no-cache"], "Set-Cookie, Foo", "a comma inside quotes stays in the value")
        XCTAssertTrue(control.contains("private"))
        XCTAssertEqual(control.staleIfError, 5)
        XCTAssertEqual(CacheControl("max-age=abc").maxAge, 0, "an invalid delta-seconds is stale, not fresh")
        XCTAssertEqual(CacheControl("max-age=-1").maxAge, 0)
        XCTAssertEqual(CacheControl("max-age=99999999999999").maxAge, 1 << 31)
        XCTAssertEqual(CacheControl(#"max-age="30""#).maxAge, 30)
        XCTAssertEqual(CacheControl("max-stale").maxStale, Int.max)
        XCTAssertNil(CacheControl(nil).maxAge)
    }

    func testHTTPDateForms() throws {
        let expected = Date(timeIntervalSince1970: 784_111_777)   // 1994-11-06 08:49:37 UTC
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), expected)
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"), expected)
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994"), expected)
        XCTAssertEqual(HTTPDate.format(expected), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDate.format(start), "Fri, 15 Jan 2027 08:00:00 GMT")
        XCTAssertEqual(HTTPDate.parse(HTTPDate.format(start)), start)
        XCTAssertEqual(HTTPDate.parse("Sun, 06 nov 1994 08:49:37 gMT"), expected, "names match without regard to case")
        XCTAssertEqual(HTTPDate.parse("Sun Nov 16 08:49:37 1994"), Date(timeIntervalSince1970: 784_111_777 + 10 * 86_400))
        for bad in ["0", "", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
                    "Sun 06 Nov 1994 08:49:37 GMT", "Sun, 06  Nov  1994 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT",
                    "Sun, +6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT ", "Sun Nov 6 08:49:37 1994"] {
            XCTAssertNil(HTTPDate.parse(bad), bad)
        }
    }

    /// RFC 9111 §4.2.3: apparent age, corrected Age value, resident time.
    func testCurrentAgeCalculation() {
        // The origin says the response is 100 s old; it took 2 s to arrive; 30 s have passed since.
        var stored = entry(["Age": "100", "Cache-Control": "max-age=200"], age: 2)
        XCTAssertEqual(stored.currentAge(at: start.addingTimeInterval(32)), 132, accuracy: 0.001)
        // A Date 50 s before the response arrived: the apparent age (50) beats Age + delay (0 + 2).
        stored = entry(["Date": HTTPDate.format(start.addingTimeInterval(-48)), "Cache-Control": "max-age=200"], age: 2)
        XCTAssertEqual(stored.currentAge(at: start.addingTimeInterval(2)), 50, accuracy: 0.001)
        XCTAssertEqual(stored.timeToLive(at: start.addingTimeInterval(2)), 150, accuracy: 0.001)
    }

    func testOnlyTheFirstAgeCounts() {
        let stored = entry(["Age": "7200, 0", "Cache-Control": "max-age=3600"])
        XCTAssertEqual(stored.currentAge(at: start), 7200, accuracy: 0.001)
        XCTAssertEqual(entry(["Age": "abc", "Cache-Control": "max-age=3600"]).currentAge(at: start), 0, accuracy: 0.001)
    }

    func testFreshnessLifetimeSources() {
        XCTAssertEqual(entry(["Cache-Control": "max-age=60", "Expires": HTTPDate.format(start.addingTimeInterval(600))]).freshnessLifetime, 60,
                       "max-age beats Expires")
        XCTAssertEqual(entry(["Expires": HTTPDate.format(start.addingTimeInterval(600))]).freshnessLifetime, 600)
        XCTAssertEqual(entry(["Expires": "0"]).freshnessLifetime, 0, "an invalid Expires is in the past")
        let modified = HTTPDate.format(start.addingTimeInterval(-10_000))
        XCTAssertEqual(entry(["Last-Modified": modified]).freshnessLifetime, 1_000, "10 % of the time since Last-Modified")
        XCTAssertEqual(entry(["Last-Modified": modified], status: 500).freshnessLifetime, 0, "no heuristic for a 500")
        XCTAssertEqual(entry(["Last-Modified": modified, "Cache-Control": "public"], status: 500).freshnessLifetime, 1_000)
    }

    func testStorability() {
        XCTAssertTrue(HTTPCachePolicy.isStorable(entry([:]), request: request()), "200 is cacheable by default")
        XCTAssertFalse(HTTPCachePolicy.isStorable(entry(["Cache-Control": "no-store"]), request: request()))
        XCTAssertFalse(HTTPCachePolicy.isStorable(entry([:]), request: request(["Cache-Control": "no-store"])))
        XCTAssertFalse(HTTPCachePolicy.isStorable(entry([:], status: 500), request: request()))
        XCTAssertTrue(HTTPCachePolicy.isStorable(entry(["Cache-Control": "max-age=5"], status: 500), request: request()))
        XCTAssertFalse(HTTPCachePolicy.isStorable(entry([:], status: 206), request: request()))
        XCTAssertFalse(HTTPCachePolicy.isStorable(entry(["Vary": "*"]), request: request()))
        XCTAssertTrue(HTTPCachePolicy.isStorable(entry(["Cache-Control": "private, max-age=5"]), request: request()),
                      "a private cache stores private responses")
        XCTAssertTrue(HTTPCachePolicy.isStorable(entry(["Cache-Control": "must-understand, no-store, max-age=5"]), request: request()),
                      "must-understand: no-store yields for a status code whose rules are known")
        XCTAssertFalse(HTTPCachePolicy.isStorable(entry(["Cache-Control": "must-understand, no-store"], status: 299), request: request()))
    }

    func testFreshStaleAndRequestDirectives() {
        let stored = entry(["Cache-Control": "max-age=100", "ETag": "\"v1\""])
        XCTAssertEqual(decide(stored, request(), at: 50), "serve")
        XCTAssertEqual(decide(stored, request(), at: 150), "forward stale conditional")
        XCTAssertEqual(decide(stored, request(["Cache-Control": "max-age=10"]), at: 50), "forward request conditional",
                       "fresh, but not fresh enough for the request: the request is why it is forwarded")
        XCTAssertEqual(decide(stored, request(["Cache-Control": "min-fresh=60"]), at: 50), "forward request conditional")
        XCTAssertEqual(decide(stored, request(["Cache-Control": "max-stale=100"]), at: 150), "serve stale")
        XCTAssertEqual(decide(stored, request(["Cache-Control": "max-stale"]), at: 10_000), "serve stale")
        XCTAssertEqual(decide(stored, request(["Cache-Control": "no-cache"]), at: 50), "forward request conditional")
        XCTAssertEqual(decide(stored, request(["Pragma": "no-cache"]), at: 50), "forward request conditional")
        XCTAssertEqual(decide(stored, request(["Pragma": "no-cache", "Cache-Control": "max-age=1000"]), at: 50), "serve",
                       "Pragma counts only without Cache-Control")
        XCTAssertEqual(decide(stored, request(["Cache-Control": "only-if-cached"]), at: 150), "504")
        XCTAssertEqual(decide(nil, request(["Cache-Control": "only-if-cached"]), at: 0), "504")
        XCTAssertEqual(decide(nil, request(), at: 0), "forward uri-miss")
        XCTAssertEqual(decide(entry(["Cache-Control": "max-age=100"]), request(), at: 150), "forward stale",
                       "no validator: an unconditional request")
    }

    func testResponseDirectives() {
        XCTAssertEqual(decide(entry(["Cache-Control": "max-age=100, no-cache", "ETag": "\"v\""]), request(), at: 1), "forward stale conditional")
        let mustRevalidate = entry(["Cache-Control": "max-age=100, must-revalidate", "ETag": "\"v\""])
        XCTAssertEqual(decide(mustRevalidate, request(["Cache-Control": "max-stale"]), at: 150), "forward stale conditional",
                       "must-revalidate overrides max-stale")
        let swr = entry(["Cache-Control": "max-age=100, stale-while-revalidate=60", "ETag": "\"v\""])
        XCTAssertEqual(decide(swr, request(), at: 150), "serve and revalidate")
        XCTAssertEqual(decide(swr, request(), at: 170), "forward stale conditional", "past the window")
        let immutable = entry(["Cache-Control": "max-age=100, immutable", "ETag": "\"v\""])
        XCTAssertEqual(decide(immutable, request(policy: .reloadRevalidatingCacheData), at: 50), "serve")
        XCTAssertEqual(decide(stale(), request(policy: .reloadRevalidatingCacheData), at: 50), "forward request conditional")
    }

    private func stale() -> HTTPCacheEntry { entry(["Cache-Control": "max-age=100", "ETag": "\"v\""]) }

    func testURLRequestCachePolicies() {
        XCTAssertEqual(decide(stale(), request(policy: .returnCacheDataElseLoad), at: 10_000), "serve stale")
        XCTAssertEqual(decide(nil, request(policy: .returnCacheDataElseLoad), at: 0), "forward uri-miss")
        XCTAssertEqual(decide(stale(), request(policy: .returnCacheDataDontLoad), at: 10_000), "serve stale")
        XCTAssertEqual(decide(nil, request(policy: .returnCacheDataDontLoad), at: 0), "unavailable")
        XCTAssertEqual(decide(stale(), request(policy: .reloadIgnoringLocalCacheData), at: 1), "forward request")
        XCTAssertEqual(decide(stale(), request(policy: .reloadIgnoringLocalAndRemoteCacheData), at: 1), "forward request")
    }

    func testStaleIfError() {
        let stored = entry(["Cache-Control": "max-age=100, stale-if-error=60"])
        XCTAssertTrue(HTTPCachePolicy.allowsStaleIfError(stored, request: request(), now: start.addingTimeInterval(150)))
        XCTAssertFalse(HTTPCachePolicy.allowsStaleIfError(stored, request: request(), now: start.addingTimeInterval(170)))
        XCTAssertTrue(HTTPCachePolicy.allowsStaleIfError(stale(), request: request(["Cache-Control": "stale-if-error=600"]),
                                                         now: start.addingTimeInterval(150)))
    }

    func testVaryMatching() {
        let stored = entry(["Vary": "Accept-Language, Accept"], vary: ["accept-language": "en,fr"])
        XCTAssertTrue(stored.varyMatches(request(["Accept-Language": "en, fr"])), "white space around commas does not matter")
        XCTAssertFalse(stored.varyMatches(request(["Accept-Language": "de"])))
        XCTAssertFalse(stored.varyMatches(request(["Accept-Language": "en,fr", "Accept": "image/png"])),
                       "a header absent when stored must be absent now")
        XCTAssertFalse(entry(["Vary": "*"]).varyMatches(request()), "Vary: * never matches")
    }

    func testClientConditionsAnsweredFromTheStore() {
        let stored = entry(["ETag": "W/\"v1\"", "Last-Modified": HTTPDate.format(start.addingTimeInterval(-60))])
        XCTAssertTrue(HTTPCachePolicy.conditionMatches(request(["If-None-Match": "\"x\", \"v1\""]), entry: stored))
        XCTAssertFalse(HTTPCachePolicy.conditionMatches(request(["If-None-Match": "\"x\""]), entry: stored))
        XCTAssertTrue(HTTPCachePolicy.conditionMatches(request(["If-Modified-Since": HTTPDate.format(start)]), entry: stored))
        XCTAssertFalse(HTTPCachePolicy.conditionMatches(request(["If-Modified-Since": HTTPDate.format(start.addingTimeInterval(-120))]), entry: stored))
    }

    func testByteRangesOfAStoredResponse() {
        let stored = HTTPCacheEntry(url: url, statusCode: 200, headers: HTTPHeaderFields(["ETag": "\"v\""]),
                                    body: Data("0123456789".utf8), requestTime: start, responseTime: start)
        func range(_ headers: [String: String]) -> Range<Int>? { HTTPCachePolicy.byteRange(request(headers), entry: stored) }
        XCTAssertEqual(range(["Range": "bytes=0-1"]), 0..<2)
        XCTAssertEqual(range(["Range": "bytes=3-"]), 3..<10)
        XCTAssertEqual(range(["Range": "bytes=-4"]), 6..<10)
        XCTAssertEqual(range(["Range": "bytes=8-100"]), 8..<10, "a last position past the end is the end")
        XCTAssertNil(range(["Range": "bytes=10-"]), "unsatisfiable: the whole response instead")
        XCTAssertNil(range(["Range": "bytes=0-1,4-5"]), "several ranges: the whole response instead")
        XCTAssertNil(range(["Range": "lines=1-2"]))
        XCTAssertEqual(range(["Range": "bytes=0-1", "If-Range": "\"v\""]), 0..<2)
        XCTAssertNil(range(["Range": "bytes=0-1", "If-Range": "\"other\""]), "If-Range names another version")
    }

    func testCacheStatusHeader() {
        XCTAssertEqual(CacheStatus(hit: true, timeToLive: 42).headerValue, "URLSchemeKit; hit; ttl=42")
        XCTAssertEqual(CacheStatus(forward: .stale, forwardStatus: 304, stored: true).appended(to: "CDN; hit"),
                       "CDN; hit, URLSchemeKit; fwd=stale; fwd-status=304; stored")
        XCTAssertEqual(CacheStatus(forward: .uriMiss, detail: "offline").headerValue, "URLSchemeKit; fwd=uri-miss; detail=offline")
    }

    func testResourceKeyKeepsQueryOrderAndNormalisesTheRest() {
        XCTAssertEqual(CacheKey(resource: URL(string: "HTTP://Example.COM:80?b=2&a=1#frag")!)?.rawValue, "http://example.com/?b=2&a=1")
        XCTAssertEqual(CacheKey(resource: URL(string: "https://example.com:443/p%20q")!)?.rawValue, "https://example.com/p%20q")
        XCTAssertEqual(CacheKey(resource: URL(string: "https://example.com:8443/")!)?.rawValue, "https://example.com:8443/")
        XCTAssertNotEqual(CacheKey(resource: URL(string: "http://a/?x=1&y=2")!), CacheKey(resource: URL(string: "http://a/?y=2&x=1")!))
    }
}
