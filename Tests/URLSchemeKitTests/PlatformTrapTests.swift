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
    /// .allowed, which is why SchemeURLProtocol stores into QueryKeyedURLCache itself.
    func testTheSessionNeverStoresACustomProtocolsResponse() async throws {
        let cache = try plainCache()
        let url = URL(string: "chunks://h/stored")!
        _ = try await session(cache, [ChunkURLProtocol.self]).data(from: url)
        XCTAssertNil(cache.cachedResponse(for: URLRequest(url: url)))
    }

    /// Trap 3: URLCache's key ignores the query and the scheme and needs a host,
    /// which is why QueryKeyedURLCache keys by CacheKey.
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
        let cache = try plainCache()
        let wrong = URL(string: "pattern://h/p?seed=1")!
        let response = HTTPURLResponse(url: wrong, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil)!
        cache.storeCachedResponse(CachedURLResponse(response: response, data: Data("stale".utf8)), for: URLRequest(url: wrong))
        let patternSession = session(cache, [StandalonePatternURLProtocol.self])

        let other = URL(string: "pattern://h/p?seed=2")!
        let (data, _) = try await patternSession.data(from: other)
        XCTAssertEqual(data, PatternURL(seed: 2).expectedBytes)

        let (reloaded, _) = try await patternSession.data(for: URLRequest(url: wrong, cachePolicy: .reloadIgnoringLocalCacheData))
        XCTAssertEqual(reloaded, PatternURL(seed: 1).expectedBytes)
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

    /// Trap 9: `URLProtocol.setProperty` values do not survive the bridge from
    /// `NSMutableURLRequest` to `URLRequest`, which is why the HTTP cache's loop
    /// guard is an inner session without `HTTPCacheURLProtocol`, not a marked request.
    func testProtocolPropertiesAreLostWhenARequestIsBridged() {
        let mutable = NSMutableURLRequest(url: URL(string: "http://example.test/")!)
        URLProtocol.setProperty(true, forKey: "URLSchemeKit.forwarded", in: mutable)
        // The only way to read it back on Linux takes a URLRequest, and there it is gone.
        XCTAssertNil(URLProtocol.property(forKey: "URLSchemeKit.forwarded", in: mutable as URLRequest),
                     "properties now survive bridging: a marked request could serve as the loop guard again")
    }

    /// A protocol that reports a redirect to its client, as a caching proxy
    /// that does not follow redirects itself would.
    final class RedirectingURLProtocol: URLProtocol {
        override class func canInit(with request: URLRequest) -> Bool { request.url?.scheme == "redirecting" }
        override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
        override func startLoading() {
            let response = HTTPURLResponse(url: request.url!, statusCode: 301, httpVersion: "HTTP/1.1",
                                           headerFields: ["Location": "redirecting://h/elsewhere"])!
            client?.urlProtocol(self, wasRedirectedTo: URLRequest(url: URL(string: "redirecting://h/elsewhere")!), redirectResponse: response)
            client?.urlProtocolDidFinishLoading(self)
        }
        override func stopLoading() {}
    }

    /// Trap 8: `urlProtocol(_:wasRedirectedTo:redirectResponse:)` is a fatal
    /// error, which is why the HTTP cache's inner session follows redirects and
    /// only the final response is reported. Run in a child process (this same
    /// test, with `URLSCHEMEKIT_CHILD_TEST` set), since the trap kills it.
    func testReportingARedirectToTheClientIsFatal() async throws {
        if isChildTest {
            _ = try await session(nil, [RedirectingURLProtocol.self]).data(from: URL(string: "redirecting://h/start")!)
            return
        }
        let child = try runInChildProcess(timeout: 20)
        XCTAssertTrue(child.signal != nil && !child.timedOut, "the child survived a redirect report: \(child.output.suffix(300))")
        XCTAssertTrue(child.output.contains("redirect"), child.output.suffix(300).description)
    }

    /// Trap 16: a `401` with a scheme the session supports (Basic) and no
    /// credential: the default handling suspends the task and never completes
    /// it, and the time-out never fires. Any origin can hang a load this way,
    /// which is why `HTTPForwarder` answers challenges itself and passes the
    /// `401` on. (With a scheme it does not know, the load completes.)
    func testDefaultHandlingOfABasicChallengeNeverCompletes() async throws {
        let origin = try OriginServer(test: self)
        try origin.route("/private", status: 401, headers: ["WWW-Authenticate": "Basic realm=\"photos\""], body: "who are you")
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let completed = Mutex(false)
        var request = URLRequest(url: origin.url("/private"))
        request.timeoutInterval = 1
        let task = session.dataTask(with: request) { _, _, _ in completed.withLock { $0 = true } }
        task.resume()
        try await Task.sleep(nanoseconds: 3_000_000_000)
        XCTAssertFalse(completed.withLock { $0 }, "the platform now completes a challenged load: HTTPForwarder's workaround may go")
        XCTAssertEqual(try origin.count("/private"), 1, "the origin answered; the session sits on the answer")
        task.cancel()
    }

    /// A protocol that starts another task from inside `startLoading()`, as a
    /// caching proxy forwarding on the spot would.
    final class NestingURLProtocol: URLProtocol {
        override class func canInit(with request: URLRequest) -> Bool { request.url?.scheme == "nesting" }
        override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
        override func startLoading() {
            URLSession(configuration: .ephemeral).dataTask(with: URL(string: "http://127.0.0.1:9/")!).resume()
            client?.urlProtocol(self, didReceive: URLResponse(url: request.url!, mimeType: nil, expectedContentLength: 0, textEncodingName: nil),
                                cacheStoragePolicy: .notAllowed)
            client?.urlProtocolDidFinishLoading(self)
        }
        override func stopLoading() {}
    }

    /// Trap 7: creating and resuming a task from inside `startLoading()` waits
    /// synchronously on the one shared work queue that `startLoading()` already
    /// holds: a deadlock, which libdispatch detects and turns into a crash
    /// (`__DISPATCH_WAIT_FOR_QUEUE__`). That is why `HTTPForwarder` creates and
    /// cancels its tasks on a queue of its own. In a child process.
    func testStartingATaskInsideStartLoadingDeadlocks() async throws {
        if isChildTest {
            _ = try await session(nil, [NestingURLProtocol.self]).data(from: URL(string: "nesting://h/x")!)
            print("URLSchemeKit trap child: the nested task did not deadlock")
            return
        }
        let child = try runInChildProcess(timeout: 10)
        XCTAssertFalse(child.exited, "starting a task inside startLoading() no longer deadlocks: \(child.output.suffix(300))")
        XCTAssertFalse(child.output.contains("did not deadlock"))
        if child.signal != nil, !child.timedOut {
            XCTAssertTrue(child.output.contains("__DISPATCH_WAIT_FOR_QUEUE__"), "crashed, but not in a synchronous wait: \(child.output.prefix(2000))")
        }
    }

    /// Trap 15's second half: the platform's HTTP protocol adds `User-Agent`
    /// and `Accept-Language` to a request without them. The HTTP cache writes
    /// the same values into what it forwards (`PlatformRequestHeaders`), so
    /// `Vary` compares what is really sent; if this fails, the platform's
    /// values changed and those must follow.
    func testThePlatformAddsTheAgentAndLanguageTheCacheExpects() async throws {
        let origin = try OriginServer(test: self)
        try origin.route("/agent", headers: ["Cache-Control": "no-store"], echoHeader: "User-Agent")
        try origin.route("/language", headers: ["Cache-Control": "no-store"], echoHeader: "Accept-Language")
        let plain = URLSession(configuration: .ephemeral)
        defer { plain.invalidateAndCancel() }
        let expected = Dictionary(uniqueKeysWithValues: PlatformRequestHeaders.defaults.map { ($0.name, $0.value) })
        let (agent, _) = try await plain.data(from: origin.url("/agent"))
        XCTAssertEqual(String(decoding: agent, as: UTF8.self), expected["User-Agent"])
        let (language, _) = try await plain.data(from: origin.url("/language"))
        XCTAssertEqual(String(decoding: language, as: UTF8.self), expected["Accept-Language"] ?? "(none)")
    }

    /// Trap 21: a configuration's `httpAdditionalHeaders` go with every hop
    /// of a redirect, whatever request the delegate's
    /// `willPerformHTTPRedirection` hands back: a delegate that drops
    /// `Authorization` for another host does not stop it. So the map's
    /// fetches take credentials out of the configuration and set them on
    /// each request (`LimitedFetches.takeCredentials`), where a redirect to
    /// another origin drops them.
    func testAdditionalHeadersFollowARedirectWhateverTheDelegateReturns() throws {
        let origin = try OriginServer(test: self)
        let other = try OriginServer(test: self, host: "127.0.0.2")
        try other.route("/target", echoHeader: "Authorization")
        try origin.route("/moved", status: 302, headers: ["Location": other.url("/target").absoluteString])
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["Authorization": "Bearer key"]
        let session = URLSession(configuration: configuration, delegate: AuthorizationDroppingDelegate(), delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let body = Result<Data, Error>.waiting { done in
            session.dataTask(with: origin.url("/moved")) { data, _, error in
                done(data.map { .success($0) } ?? .failure(error ?? URLError(.badServerResponse)))
            }.resume()
        }
        XCTAssertEqual(try other.count("/target"), 1, "the redirect was followed")
        XCTAssertEqual(String(decoding: try body.get(), as: UTF8.self), "Bearer key",
                       "the platform no longer re-adds a configuration's headers on a redirect: revisit LimitedFetches.takeCredentials")
    }
}

/// Drops `Authorization` from every redirected request (which the platform undoes, trap 21).
private final class AuthorizationDroppingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        var next = request
        next.setValue(nil, forHTTPHeaderField: "Authorization")
        completionHandler(next)
    }
}
