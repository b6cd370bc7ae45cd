import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit
@testable import URLSchemeServer

/// The server's in-memory answer cache: repeated public answers without a
/// load, through a real server on loopback; its bounds and what it refuses.
final class AnswerCacheTests: XCTestCase {
    private let target = "/map?latitude=59.9&longitude=30.3&zoom=4&width=64&height=64"

    private func metrics(_ fixture: ServerFixture) async throws -> String {
        String(decoding: try await fixture.get("/metrics").0, as: UTF8.self)
    }

    func testARepeatedAnswerComesFromMemoryWithTheSameBytesAndTag() async throws {
        let fixture = try ServerFixture(environment: ServerFixture.environment(), test: self)
        let (first, firstResponse) = try await fixture.get(target)
        // The same URL with its query in another order is the same canonical URL.
        let (second, secondResponse) = try await fixture.get("/map?zoom=4&latitude=59.9&longitude=30.3&width=64&height=64")
        XCTAssertEqual(second, first)
        let tag = try XCTUnwrap(firstResponse.value(forHTTPHeaderField: "ETag"))
        XCTAssertEqual(secondResponse.value(forHTTPHeaderField: "ETag"), tag)
        XCTAssertEqual(secondResponse.value(forHTTPHeaderField: "Content-Type"), firstResponse.value(forHTTPHeaderField: "Content-Type"))
        let (_, notModified) = try await fixture.get(target, headers: ["If-None-Match": tag])
        XCTAssertEqual(notModified.statusCode, 304)
        // A request with credentials neither reads nor fills it.
        _ = try await fixture.get(target, headers: ["Cookie": "session=1"])
        let text = try await metrics(fixture)
        XCTAssertTrue(text.contains("urlscheme_answer_cache_lookups_total{result=\"hit\"} 2\n"), text)
        XCTAssertTrue(text.contains("urlscheme_answer_cache_lookups_total{result=\"miss\"} 1\n"), text)
        XCTAssertTrue(text.contains("urlscheme_load_seconds_count 2\n"), "one load for the first request, one for the one with a cookie: \(text)")
        XCTAssertTrue(text.contains("urlscheme_answer_cache_entries 1\n"), text)
    }

    func testWithoutAnImageCacheEveryRequestLoads() async throws {
        let environment = URLSchemeKitEnvironment(imageCache: nil, httpCache: nil)
        let fixture = try ServerFixture(environment: environment, test: self)
        _ = try await fixture.get(target)
        _ = try await fixture.get(target)
        let text = try await metrics(fixture)
        XCTAssertTrue(text.contains("urlscheme_load_seconds_count 2\n"), text)
        XCTAssertTrue(text.contains("urlscheme_answer_cache_entries 0\n"), text)
    }

    func testOnlyPublicInvariantAnswersAreKeptWithinTheCapacity() {
        let cache = AnswerCache(capacity: 8000)
        func answer(_ size: Int, _ extra: [(name: String, value: String)] = [], status: Int = 200) -> HTTPResponse {
            HTTPResponse(status: status, headers: [("ETag", "\"t\(size)\""), ("Cache-Control", "public, max-age=60")] + extra, body: Data(count: size))
        }
        cache.store(answer(100, [("Vary", "Accept")]), for: "vary")
        cache.store(HTTPResponse(status: 200, headers: [("ETag", "\"x\""), ("Cache-Control", "no-store")], body: Data(count: 10)), for: "private")
        cache.store(answer(100, status: 404), for: "missing")
        cache.store(answer(1001), for: "large")  // over an eighth of the capacity
        XCTAssertEqual(cache.usage.entries, 0)
        for index in 0..<100 { cache.store(answer(1000), for: "k\(index)") }
        XCTAssertEqual(cache.usage.bytes, 8000)
        XCTAssertEqual(cache.usage.entries, 8)
        XCTAssertNil(cache.answer(for: "k91", ifNoneMatch: nil), "the oldest went first")
        XCTAssertEqual(cache.answer(for: "k99", ifNoneMatch: nil)?.body.count, 1000)
        XCTAssertEqual(cache.answer(for: "k99", ifNoneMatch: "\"t1000\"")?.status, 304)
        XCTAssertFalse(cache.admits(HTTPRequest(method: "GET", target: "/map", headers: [("Authorization", "Bearer x")])))
        XCTAssertTrue(cache.admits(HTTPRequest(method: "GET", target: "/map")))
    }
}
