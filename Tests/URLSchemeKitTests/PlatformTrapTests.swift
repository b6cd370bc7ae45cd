import XCTest
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// Pins the FoundationNetworking behaviours (`linux-url-loading.md`) that
/// URLSchemeKit's design leans on. If one of these starts failing, the
/// platform changed: revisit the mechanism named in the test.
final class PlatformTrapTests: XCTestCase {
    /// A protocol that answers with fixed chunks, reporting with a chosen storage policy.
    final class ChunkURLProtocol: URLProtocol {
        static let sawCachedResponse = Mutex<Bool?>(nil)
        override class func canInit(with request: URLRequest) -> Bool { request.url?.scheme == "chunks" }
        override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
        override func startLoading() {
            Self.sawCachedResponse.withLock { $0 = cachedResponse != nil }
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil)!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .allowed)
            client?.urlProtocol(self, didLoad: Data("first".utf8))
            client?.urlProtocol(self, didLoad: Data("second".utf8))
            client?.urlProtocolDidFinishLoading(self)
        }
        override func stopLoading() {}
    }

    private func session(_ cache: URLCache?, _ classes: [AnyClass]) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = classes
        configuration.urlCache = cache
        return URLSession(configuration: configuration)
    }

    private func plainCache() throws -> URLCache {
        URLCache(memoryCapacity: 1 << 20, diskCapacity: 1 << 20, diskPath: try makeTemporaryDirectory().path)
    }

    /// Trap 11: completion handlers and data(for:) keep only the last chunk,
    /// which is why ClientChannel delivers the whole body in one didLoad.
    func testCompletionHandlersSeeOnlyTheLastChunk() async throws {
        let (data, _) = try await session(nil, [ChunkURLProtocol.self]).data(from: URL(string: "chunks://h/x")!)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "second")
    }

    /// Trap 1: the session never stores a custom protocol's response, even with
    /// .allowed, which is why SchemeURLProtocol stores into ImageURLCache itself.
    func testTheSessionNeverStoresACustomProtocolsResponse() async throws {
        let cache = try plainCache()
        let url = URL(string: "chunks://h/stored")!
        _ = try await session(cache, [ChunkURLProtocol.self]).data(from: url)
        XCTAssertNil(cache.cachedResponse(for: URLRequest(url: url)))
    }

    /// Trap 3: URLCache's key ignores the query and the scheme and needs a host,
    /// which is why ImageURLCache keys by CacheKey.
    func testURLCacheKeyIgnoresQueryAndScheme() throws {
        let cache = try plainCache()
        let stored = URL(string: "map://tiles/q?a=1")!
        let response = CachedURLResponse(response: URLResponse(url: stored, mimeType: "image/png", expectedContentLength: 1, textEncodingName: nil), data: Data([1]))
        cache.storeCachedResponse(response, for: URLRequest(url: stored))
        XCTAssertNotNil(cache.cachedResponse(for: URLRequest(url: URL(string: "map://tiles/q?a=2")!)))
        XCTAssertNotNil(cache.cachedResponse(for: URLRequest(url: URL(string: "http://TILES/q")!)))
        let hostless = URL(string: "map://?a=1")!
        cache.storeCachedResponse(response, for: URLRequest(url: hostless))
        XCTAssertNil(cache.cachedResponse(for: URLRequest(url: hostless)))
    }

    /// Trap 2: the session hands the protocol a cached response whatever the
    /// policy, which is why SchemeURLProtocol checks the policy itself.
    func testTheSessionHandsACachedResponseEvenForReload() async throws {
        let cache = try plainCache()
        let url = URL(string: "chunks://h/policy")!
        cache.storeCachedResponse(CachedURLResponse(response: URLResponse(url: url, mimeType: nil, expectedContentLength: 1, textEncodingName: nil), data: Data([1])), for: URLRequest(url: url))
        _ = try await session(cache, [ChunkURLProtocol.self]).data(for: URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData))
        XCTAssertEqual(ChunkURLProtocol.sawCachedResponse.withLock { $0 }, true)
    }

    /// Traps 2 and 3 together, handled: with a plain URLCache the session passes
    /// a hit for another query (or for a reload); the protocol refuses both.
    func testSchemeURLProtocolRefusesWrongOrUnwantedHitsFromAPlainURLCache() async throws {
        let renderer = PatternURLProtocol.installFreshRenderer()
        let cache = try plainCache()
        let wrong = URL(string: "pattern://h/p?seed=1")!
        let response = HTTPURLResponse(url: wrong, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil)!
        cache.storeCachedResponse(CachedURLResponse(response: response, data: Data("stale".utf8)), for: URLRequest(url: wrong))
        let patternSession = session(cache, [PatternURLProtocol.self])

        let other = URL(string: "pattern://h/p?seed=2")!
        let (data, _) = try await patternSession.data(from: other)
        XCTAssertEqual(data, PatternURL(seed: 2).expectedBytes)

        let (reloaded, _) = try await patternSession.data(for: URLRequest(url: wrong, cachePolicy: .reloadIgnoringLocalCacheData))
        XCTAssertEqual(reloaded, PatternURL(seed: 1).expectedBytes)
        XCTAssertEqual(renderer.renders.load(ordering: .relaxed), 2)
    }

    /// Not a URL-loading trap, but one the test helpers build against: a
    /// `Process` started from a dispatch worker thread inherits the thread's
    /// blocked signal mask, so `terminate()` (SIGTERM) leaves it running and
    /// `waitUntilExit()` hangs. `LoopbackFileServer` stops its server with SIGKILL.
    func testAProcessStartedOnAWorkerThreadIgnoresTerminate() throws {
        let started = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var launched: Process?  // written before `started` is signalled, read after
        DispatchQueue.global().async {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sleep")
            process.arguments = ["30"]
            try? process.run()
            launched = process
            started.signal()
        }
        started.wait()
        let process = try XCTUnwrap(launched)
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        process.terminate()
        usleep(300_000)
        XCTAssertTrue(process.isRunning, "SIGTERM now reaches a child started on a worker thread: terminate() is enough again")
    }
}
