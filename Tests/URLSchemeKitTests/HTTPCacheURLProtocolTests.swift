import XCTest
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// HTTPCacheURLProtocol driven as a user drives it: a real URLSession
/// configured by `installURLSchemeKit(_:)`, a real origin process on
/// 127.0.0.1 that counts its requests, a real store on disk. The cache's clock
/// is moved forward instead of sleeping until responses go stale.
final class HTTPCacheURLProtocolTests: XCTestCase {
    /// Real time plus an offset the test moves.
    final class TestClock: Sendable {
        let offset = Mutex<TimeInterval>(0)
        var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }
    }

    private var origin: OriginServer!
    private var directory: URL!
    private let clock = TestClock()

    override func setUpWithError() throws {
        origin = try OriginServer(test: self)
        directory = try makeTemporaryDirectory()
    }

    /// Moves time forward for the cache and the origin's `Date` alike.
    private func advance(_ seconds: TimeInterval) throws {
        let offset = clock.offset.withLock { offset -> TimeInterval in
            offset += seconds
            return offset
        }
        try origin.setClockOffset(offset)
    }

    /// Every cache made so far, flushed before another is made or the disk is read:
    /// a new instance stands for a later run, which sees what earlier ones wrote.
    private var caches: [HTTPCache] = []

    private func makeCache(_ configuration: HTTPCache.Configuration = HTTPCache.Configuration()) -> HTTPCache {
        let clock = self.clock
        caches.forEach { $0.flush() }
        let cache = HTTPCache(directory: directory, configuration: configuration, clock: { clock.now })
        caches.append(cache)
        return cache
    }

    private func makeSession(_ cache: HTTPCache, headers: [String: String] = [:]) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = headers
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0), httpCache: cache))
        let session = URLSession(configuration: configuration)
        addTeardownBlock { session.invalidateAndCancel() }
        return session
    }

    private struct Answer {
        var status: Int
        var data: Data
        var body: String { String(decoding: data, as: UTF8.self) }
        var headers: HTTPHeaderFields
        var cacheStatus: String { headers["Cache-Status"] ?? "" }
    }

    private func load(_ session: URLSession, _ path: String, headers: [String: String] = [:], method: String = "GET",
                      policy: URLRequest.CachePolicy = .useProtocolCachePolicy, timeout: TimeInterval = 10) async throws -> Answer {
        var request = URLRequest(url: origin.url(path), cachePolicy: policy, timeoutInterval: timeout)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = try XCTUnwrap(response as? HTTPURLResponse)
        return Answer(status: http.statusCode, data: data, headers: HTTPHeaderFields(http))
    }

    private func entryFiles() -> [URL] {
        caches.forEach { $0.flush() }
        return ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "uskcache" }
    }

    // MARK: Freshness

    func testAFreshResponseIsServedFromTheStoreWithoutTheOrigin() async throws {
        try origin.route("/fresh", headers: ["Cache-Control": "max-age=3600", "ETag": "\"v1\"", "Content-Type": "text/plain"], body: "hello")
        let session = makeSession(makeCache())
        let first = try await load(session, "/fresh")
        XCTAssertEqual(first.body, "hello")
        XCTAssertEqual(first.cacheStatus, "URLSchemeKit; fwd=uri-miss; fwd-status=200; stored")
        try advance(60)
        let second = try await load(session, "/fresh")
        XCTAssertEqual(second.body, "hello")
        XCTAssertEqual(second.status, 200)
        XCTAssertTrue(second.cacheStatus.hasPrefix("URLSchemeKit; hit; ttl=35"), second.cacheStatus)
        // 60 s moved on the clock, plus the real time the loads took (a second more on a busy machine).
        XCTAssertTrue((60...61).contains(Int(second.headers["Age"] ?? "") ?? -1), "Age says how old the stored answer is: \(second.headers["Age"] ?? "none")")
        XCTAssertEqual(second.headers["Content-Type"], "text/plain")
        XCTAssertEqual(try origin.count("/fresh"), 1, "the hit never reached the origin")
    }

    func testTheStoreIsSharedByInstancesOnOneDirectory() async throws {
        try origin.route("/shared", headers: ["Cache-Control": "max-age=3600"], body: "kept")
        _ = try await load(makeSession(makeCache()), "/shared")
        let other = try await load(makeSession(makeCache()), "/shared")
        XCTAssertEqual(other.body, "kept")
        XCTAssertTrue(other.cacheStatus.contains("hit"), other.cacheStatus)
        XCTAssertEqual(try origin.count("/shared"), 1)
    }

    func testAStaleResponseIsRevalidatedAndA304UpdatesTheStoredHeaders() async throws {
        try origin.route("/stale", headers: ["Cache-Control": "max-age=60", "ETag": "\"v1\"", "X-Version": "1"], body: "payload")
        let session = makeSession(makeCache())
        _ = try await load(session, "/stale")
        try origin.route("/stale", headers: ["Cache-Control": "max-age=60", "ETag": "\"v1\"", "X-Version": "2"], body: "payload")
        try advance(120)
        let revalidated = try await load(session, "/stale")
        XCTAssertEqual(try origin.stats("/stale").lastHeaders["If-None-Match"], "\"v1\"", "a conditional request went to the origin")
        XCTAssertEqual(revalidated.status, 200, "the client gets the stored body as a 200")
        XCTAssertEqual(revalidated.body, "payload")
        XCTAssertEqual(revalidated.headers["X-Version"], "2", "the 304's fields replaced the stored ones")
        XCTAssertEqual(revalidated.cacheStatus, "URLSchemeKit; fwd=stale; fwd-status=304; stored")
        let after = try await load(session, "/stale")
        XCTAssertTrue(after.cacheStatus.contains("hit"), "fresh again after the 304: \(after.cacheStatus)")
        XCTAssertEqual(after.headers["X-Version"], "2")
        XCTAssertEqual(try origin.count("/stale"), 2)
    }

    /// A 304's new fields reach memory at once and the disk a moment later
    /// (a large body is not rewritten on every revalidation).
    func testARefreshBy304ReachesTheDiskMomentsLater() async throws {
        try origin.route("/refresh", headers: ["Cache-Control": "max-age=60", "ETag": "\"r\"", "X-Version": "1"], body: "r")
        let session = makeSession(makeCache())
        _ = try await load(session, "/refresh")
        try origin.route("/refresh", headers: ["Cache-Control": "max-age=60", "ETag": "\"r\"", "X-Version": "2"], body: "r")
        try advance(120)
        _ = try await load(session, "/refresh")
        var onDisk = makeCache().cachedResponse(for: URLRequest(url: origin.url("/refresh")))
        for _ in 0..<100 where (onDisk?.response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Version") != "2" {
            try await Task.sleep(nanoseconds: 20_000_000)
            onDisk = makeCache().cachedResponse(for: URLRequest(url: origin.url("/refresh")))
        }
        XCTAssertEqual((onDisk?.response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Version"), "2")
        XCTAssertEqual(onDisk?.data, Data("r".utf8))
    }

    func testLastModifiedValidation() async throws {
        let modified = HTTPDate.format(Date().addingTimeInterval(-86_400))
        try origin.route("/lm", headers: ["Cache-Control": "max-age=10", "Last-Modified": modified], body: "old")
        let session = makeSession(makeCache())
        _ = try await load(session, "/lm")
        try advance(30)
        let answer = try await load(session, "/lm")
        XCTAssertEqual(try origin.stats("/lm").lastHeaders["If-Modified-Since"], modified)
        XCTAssertEqual(answer.body, "old")
        XCTAssertTrue(answer.cacheStatus.contains("fwd-status=304"), answer.cacheStatus)
    }

    func testNoStoreIsNeverWrittenToDisk() async throws {
        try origin.route("/secret", headers: ["Cache-Control": "no-store, max-age=3600"], body: "private")
        try origin.route("/asked", headers: ["Cache-Control": "max-age=3600"], body: "asked")
        let session = makeSession(makeCache())
        for _ in 0..<2 {
            let answer = try await load(session, "/secret")
            XCTAssertEqual(answer.body, "private")
            XCTAssertEqual(answer.cacheStatus, "URLSchemeKit; fwd=uri-miss; fwd-status=200")
            _ = try await load(session, "/asked", headers: ["Cache-Control": "no-store"])
        }
        XCTAssertEqual(try origin.count("/secret"), 2)
        XCTAssertEqual(try origin.count("/asked"), 2, "a request's no-store keeps its response out too")
        XCTAssertEqual(entryFiles(), [])
        let bytes = try FileManager.default.subpathsOfDirectory(atPath: directory.path)
            .compactMap { FileManager.default.contents(atPath: directory.appendingPathComponent($0).path) }
        XCTAssertFalse(bytes.contains { $0.range(of: Data("private".utf8)) != nil }, "no file holds the body")
    }

    /// Cookies belong to the user's session: what the origin sets lands in that
    /// session's cookie storage, goes back with its later requests, and never
    /// with another session's, though both forward through one HTTPCache. A
    /// redirect's cookie is kept too.
    func testCookiesStayWithTheSessionThatReceivedThem() async throws {
        try origin.route("/login", headers: ["Cache-Control": "no-store", "Set-Cookie": "session=alice; Path=/"], body: "welcome")
        try origin.route("/hop", status: 302, headers: ["Location": "/login", "Set-Cookie": "hop=1; Path=/"])
        try origin.route("/whoami", headers: ["Cache-Control": "no-store"], echoHeader: "Cookie")
        let cache = makeCache()
        let alice = makeSession(cache), bob = makeSession(cache)
        let jar = try XCTUnwrap(alice.configuration.httpCookieStorage)
        let welcome = try await load(alice, "/hop").body
        XCTAssertEqual(welcome, "welcome")
        let names = (jar.cookies(for: origin.url("/")) ?? []).map { "\($0.name)=\($0.value)" }.sorted()
        XCTAssertEqual(names, ["hop=1", "session=alice"], "the origin's cookies are in the session's own storage")
        let aliceCookies = try await load(alice, "/whoami").body
        XCTAssertTrue(aliceCookies.contains("session=alice") && aliceCookies.contains("hop=1"), aliceCookies)
        let bobCookies = try await load(bob, "/whoami").body
        XCTAssertEqual(bobCookies, "(none)", "another session sends none of them")
        // A session that sends no cookies sends none, though its storage holds some.
        let quiet = URLSessionConfiguration.ephemeral
        quiet.httpShouldSetCookies = false
        quiet.httpCookieStorage = jar
        quiet.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0), httpCache: cache))
        let quietSession = URLSession(configuration: quiet)
        defer { quietSession.invalidateAndCancel() }
        let quietCookies = try await load(quietSession, "/whoami").body
        XCTAssertEqual(quietCookies, "(none)")
    }

    func testVaryKeepsAVariantPerRequestHeaderValue() async throws {
        try origin.route("/vary", headers: ["Cache-Control": "max-age=3600", "Vary": "X-Theme"], echoHeader: "X-Theme")
        let session = makeSession(makeCache())
        let english = try await load(session, "/vary", headers: ["X-Theme": "en"])
        let french = try await load(session, "/vary", headers: ["X-Theme": "fr"])
        XCTAssertEqual([english.body, french.body], ["en", "fr"])
        XCTAssertEqual(french.cacheStatus, "URLSchemeKit; fwd=vary-miss; fwd-status=200; stored")
        let englishAgain = try await load(session, "/vary", headers: ["X-Theme": "en"])
        let frenchAgain = try await load(session, "/vary", headers: ["X-Theme": "fr"])
        XCTAssertEqual([englishAgain.body, frenchAgain.body], ["en", "fr"])
        XCTAssertTrue(englishAgain.cacheStatus.contains("hit") && frenchAgain.cacheStatus.contains("hit"))
        let none = try await load(session, "/vary")
        XCTAssertEqual(none.body, "(none)", "a request without the header is a variant of its own")
        XCTAssertEqual(try origin.count("/vary"), 3)

        try origin.route("/star", headers: ["Cache-Control": "max-age=3600", "Vary": "*"], body: "star")
        _ = try await load(session, "/star")
        _ = try await load(session, "/star")
        XCTAssertEqual(try origin.count("/star"), 2, "Vary: * never matches")
    }

    func testASuccessfulUnsafeMethodInvalidatesTheTargetAndItsLocation() async throws {
        try origin.route("/item", headers: ["Cache-Control": "max-age=3600"], body: "item",
                         unsafeStatus: 201, unsafeHeaders: ["Location": "/list"])
        try origin.route("/list", headers: ["Cache-Control": "max-age=3600"], body: "list")
        let session = makeSession(makeCache())
        _ = try await load(session, "/item")
        _ = try await load(session, "/list")
        let posted = try await load(session, "/item", method: "POST")
        XCTAssertEqual(posted.status, 201)
        XCTAssertEqual(posted.cacheStatus, "URLSchemeKit; fwd=bypass; fwd-status=201")
        _ = try await load(session, "/item")
        _ = try await load(session, "/list")
        XCTAssertEqual(try origin.stats("/item").methods, ["GET", "POST", "GET"])
        XCTAssertEqual(try origin.count("/list"), 2, "the Location was invalidated too")
    }

    func testInstallingWithoutAnHTTPCacheLeavesHTTPToThePlatform() async throws {
        try origin.route("/plain", headers: ["Cache-Control": "max-age=60"], body: "plain")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0), httpCache: makeCache()))
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0), httpCache: nil))
        XCTAssertFalse(configuration.protocolClasses?.contains { $0 == HTTPCacheURLProtocol.self } ?? true)
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        addTeardownBlock { session.invalidateAndCancel() }
        for _ in 0..<2 {
            let answer = try await load(session, "/plain")
            XCTAssertEqual(answer.body, "plain")
            XCTAssertNil(answer.headers["Cache-Status"])
        }
        XCTAssertEqual(try origin.count("/plain"), 2)
        XCTAssertFalse(try origin.stats("/plain").lastHeaders.keys.contains { $0.lowercased().hasPrefix("x-urlschemekit") }, "nothing of ours is sent")
    }

    // MARK: URLRequest.cachePolicy

    func testTheFourCachePolicies() async throws {
        try origin.route("/policy", headers: ["Cache-Control": "max-age=60"], body: "one")
        let session = makeSession(makeCache())
        await XCTAssertThrowsURLError(.resourceUnavailable) {
            _ = try await self.load(session, "/policy", policy: .returnCacheDataDontLoad)
        }
        XCTAssertEqual(try origin.count("/policy"), 0, ".returnCacheDataDontLoad never goes to the origin")
        _ = try await load(session, "/policy")
        try advance(3_600)
        try origin.route("/policy", headers: ["Cache-Control": "max-age=60"], body: "two")
        let elseLoad = try await load(session, "/policy", policy: .returnCacheDataElseLoad)
        XCTAssertEqual(elseLoad.body, "one", "any stored response, however stale")
        let dontLoad = try await load(session, "/policy", policy: .returnCacheDataDontLoad)
        XCTAssertEqual(dontLoad.body, "one")
        XCTAssertEqual(try origin.count("/policy"), 1)
        let reload = try await load(session, "/policy", policy: .reloadIgnoringLocalCacheData)
        XCTAssertEqual(reload.body, "two")
        XCTAssertEqual(reload.cacheStatus, "URLSchemeKit; fwd=request; fwd-status=200; stored")
        let normal = try await load(session, "/policy")
        XCTAssertEqual(normal.body, "two", "the reload refreshed the store")
        XCTAssertTrue(normal.cacheStatus.contains("hit"))
        XCTAssertEqual(try origin.count("/policy"), 2)
    }

    // MARK: Offline

    func testWithTheOriginGoneAStoredResponseAnswersAndTheHostIsReportedOffline() async throws {
        try origin.route("/page", headers: ["Cache-Control": "max-age=60", "ETag": "\"p\""], body: "seen once")
        let cache = makeCache()
        let session = makeSession(cache)
        _ = try await load(session, "/page")
        origin.stop()
        try advance(86_400)
        let changes = Mutex<[String]>([])
        let port = origin.port
        let observer = NotificationCenter.default.addObserver(forName: HTTPCache.reachabilityDidChangeNotification,
                                                              object: cache, queue: nil) { note in
            let origin = note.userInfo?["origin"] as? String ?? "?", offline = note.userInfo?["isOffline"] as? Bool ?? false
            changes.withLock { $0.append("\(origin) \(offline ? "offline" : "online")") }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        let answer = try await load(session, "/page")
        XCTAssertEqual(answer.body, "seen once")
        XCTAssertEqual(answer.cacheStatus, "URLSchemeKit; fwd=stale; detail=offline")
        XCTAssertTrue(cache.isOffline(host: "127.0.0.1"))
        XCTAssertEqual(cache.offlineHosts, ["127.0.0.1"])
        XCTAssertTrue(cache.isOffline(origin.url("/page")))
        XCTAssertEqual(changes.withLock { $0 }, ["http://127.0.0.1:\(port) offline"])

        await XCTAssertThrowsURLError(.cannotConnectToHost, containing: "no response for it is stored") {
            _ = try await self.load(session, "/never-seen")
        }
    }

    /// RFC 9111 §4.2.4: no-cache and must-revalidate forbid stale answers even
    /// when disconnected, unless the configuration says the app prefers them.
    func testOfflineAnswersRespectRevalidationDirectivesUnlessOverridden() async throws {
        try origin.route("/strict", headers: ["Cache-Control": "max-age=1, must-revalidate"], body: "strict")
        try origin.route("/check", headers: ["Cache-Control": "no-cache", "ETag": "\"c\""], body: "check")
        let strict = makeSession(makeCache())
        var lenientConfiguration = HTTPCache.Configuration()
        lenientConfiguration.offlineOverridesRevalidation = true
        let lenientCache = HTTPCache(directory: try makeTemporaryDirectory("lenient"), configuration: lenientConfiguration,
                                     clock: { [clock] in clock.now })
        let lenient = makeSession(lenientCache)
        for session in [strict, lenient] {
            _ = try await load(session, "/strict")
            _ = try await load(session, "/check")
        }
        origin.stop()
        try advance(60)
        for (path, directive) in [("/strict", "must-revalidate"), ("/check", "no-cache")] {
            await XCTAssertThrowsURLError(.cannotConnectToHost, containing: "marked \(directive), which forbids answering offline") {
                _ = try await self.load(strict, path)
            }
            await XCTAssertThrowsURLError(.cannotConnectToHost, containing: "offlineOverridesRevalidation") {
                _ = try await self.load(strict, path)
            }
            let answer = try await load(lenient, path)
            XCTAssertEqual(answer.cacheStatus, "URLSchemeKit; fwd=stale; detail=offline", path)
        }
    }

    func testAnOfflineAgeLimitIsHonoured() async throws {
        try origin.route("/old", headers: ["Cache-Control": "max-age=60"], body: "old")
        var configuration = HTTPCache.Configuration()
        configuration.maximumOfflineAge = 3_600
        let session = makeSession(makeCache(configuration))
        _ = try await load(session, "/old")
        origin.stop()
        try advance(1_800)
        let recent = try await load(session, "/old")
        XCTAssertEqual(recent.body, "old")
        try advance(3_600)
        await XCTAssertThrowsURLError(.cannotConnectToHost, containing: "past the offline limit of 3600 s (HTTPCache.Configuration.maximumOfflineAge)") {
            _ = try await self.load(session, "/old")
        }
    }

    func testAHostThatTimedOutIsAnsweredFromTheStoreAtOnceUntilItAnswersAgain() async throws {
        try origin.route("/slow", headers: ["Cache-Control": "max-age=60", "ETag": "\"s\""], body: "stored")
        let cache = makeCache()
        let session = makeSession(cache)
        _ = try await load(session, "/slow")
        try origin.route("/slow", headers: ["Cache-Control": "max-age=60", "ETag": "\"s2\""], body: "new", delay: 5)
        try advance(120)

        var started = Date()
        let timedOut = try await load(session, "/slow", timeout: 1)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.9, "the first load waited for its time-out")
        XCTAssertEqual(timedOut.body, "stored")
        XCTAssertEqual(timedOut.cacheStatus, "URLSchemeKit; fwd=stale; detail=offline")
        XCTAssertTrue(cache.isOffline(host: "127.0.0.1"))

        started = Date()
        let backingOff = try await load(session, "/slow", timeout: 1)
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.5, "within the back-off the store answers at once")
        XCTAssertEqual(backingOff.body, "stored")
        XCTAssertEqual(try origin.count("/slow"), 2, "the back-off sent nothing to the origin")

        // The origin recovers; once the back-off has passed, the next load finds it and it is online again.
        try origin.route("/slow", headers: ["Cache-Control": "max-age=60", "ETag": "\"s2\""], body: "new")
        try advance(2)
        let recovered = try await load(session, "/slow", timeout: 5)
        XCTAssertEqual(recovered.body, "new")
        XCTAssertFalse(cache.isOffline(host: "127.0.0.1"))
    }

    // MARK: Forwarding

    func testForwardingKeepsMethodHeadersAndBodyAndNeverSendsTheCacheMarker() async throws {
        try origin.route("/echo", headers: ["Cache-Control": "max-age=60"], body: "x")
        let session = makeSession(makeCache(), headers: ["User-Agent": "URLSchemeKitTests/1.0", "X-Session": "s"])
        _ = try await load(session, "/echo", headers: ["X-Request": "r"])
        let headers = try origin.stats("/echo").lastHeaders
        XCTAssertEqual(headers["X-Request"], "r")
        XCTAssertEqual(headers["X-Session"], "s", "the session's additional headers are forwarded")
        XCTAssertEqual(headers["User-Agent"], "URLSchemeKitTests/1.0")
        XCTAssertFalse(headers.keys.contains { $0.lowercased().hasPrefix("x-urlschemekit") }, "nothing naming the cache leaves the process")
        XCTAssertEqual(try origin.count("/echo"), 1, "one forwarded request: the inner session does not loop back")

        var put = URLRequest(url: origin.url("/echo"))
        put.httpMethod = "PUT"
        put.httpBody = Data("new content".utf8)
        let (data, _) = try await session.data(for: put)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "done new content")
        XCTAssertEqual(try origin.stats("/echo").methods, ["GET", "PUT"])
    }

    func testRedirectsAreFollowedAndTheFinalResponseReported() async throws {
        try origin.route("/old-place", status: 301, headers: ["Location": "/new-place"])
        try origin.route("/new-place", headers: ["Cache-Control": "max-age=60"], body: "arrived")
        let session = makeSession(makeCache())
        let (data, response) = try await session.data(from: origin.url("/old-place"))
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "arrived")
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertEqual(response.url?.path, "/new-place")
    }

    /// An origin asking for credentials: the load fails at once with
    /// `.userAuthenticationRequired` naming the challenge. Passed on as a 401,
    /// Linux's session would start authenticating by itself and never complete
    /// the load (`PlatformTrapTests`); the inner session's own handling would
    /// hang the same way. A 401 without a challenge is an ordinary answer.
    func testAChallengeFailsAtOnceNamingIt() async throws {
        try origin.route("/private", status: 401, headers: ["WWW-Authenticate": "Basic realm=\"photos\""], body: "who are you")
        try origin.route("/plain401", status: 401, body: "no")
        let session = makeSession(makeCache())
        // A completion handler and an expectation, not `data(for:)`: were the load to hang, the test must not.
        let failed = expectation(description: "the load fails")
        let error = Mutex<URLError?>(nil)
        let task = session.dataTask(with: origin.url("/private")) { _, _, failure in
            error.withLock { $0 = failure as? URLError }
            failed.fulfill()
        }
        task.resume()
        await fulfillment(of: [failed], timeout: 5)
        task.cancel()
        let failure = try XCTUnwrap(error.withLock { $0 })
        XCTAssertEqual(failure.code, .userAuthenticationRequired)
        XCTAssertTrue(failure.localizedDescription.contains("Basic realm=\"photos\""), failure.localizedDescription)
        let plain = try await load(session, "/plain401")
        XCTAssertEqual([String(plain.status), plain.body], ["401", "no"])
    }

    // MARK: Bodies of any size

    /// The bytes the origin sends for a route with `bodySize` (a repeating 0...255 pattern).
    private func pattern(_ size: Int) -> Data { Data((0..<size).map { UInt8(truncatingIfNeeded: $0) }) }

    /// Spool files: in the disk store's temporary folder (where they can
    /// become entries), and the folder for caches without one.
    private func spoolFiles() -> Int {
        let storeFolder = directory.appendingPathComponent(".tmp").path
        let inStore = ((try? FileManager.default.contentsOfDirectory(atPath: storeFolder)) ?? []).filter { $0.contains("spool-") }
        let temporary = (try? SpoolFolder.temporary.get())?.path ?? ""
        return inStore.count + ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []).count
    }

    /// Waits up to 5 s for the spool files to number `count` (a dropped body's
    /// file goes when the load's last reference does, just after the answer).
    private func awaitSpoolFiles(_ count: Int) async throws {
        for _ in 0..<500 where spoolFiles() != count { try await Task.sleep(nanoseconds: 10_000_000) }
    }

    /// Bytes this process has passed to `write` so far (`wchar` of /proc/self/io).
    private func bytesWritten() throws -> Int {
        let io = try String(contentsOfFile: "/proc/self/io", encoding: .utf8)
        let line = try XCTUnwrap(io.split(separator: "\n").first { $0.hasPrefix("wchar:") })
        return try XCTUnwrap(Int(line.dropFirst("wchar:".count).trimmingCharacters(in: .whitespaces)))
    }

    /// Turning the cache on never makes a load fail that works without it: a
    /// body over the stored limit loads whole, and is passed on without being stored.
    func testABodyOverTheStoredLimitLoadsAndIsNotStored() async throws {
        try origin.route("/big", headers: ["Cache-Control": "max-age=3600"], bodySize: 300_000)
        var configuration = HTTPCache.Configuration()
        configuration.maximumBodySize = 100_000
        let session = makeSession(makeCache(configuration))
        let first = try await load(session, "/big")
        XCTAssertEqual(first.data, pattern(300_000))
        XCTAssertEqual(first.cacheStatus, "URLSchemeKit; fwd=uri-miss; fwd-status=200", "not stored")
        _ = try await load(session, "/big")
        XCTAssertEqual(try origin.count("/big"), 2)
    }

    /// A 40 MB body (it failed at the old 32 MiB limit) loads whole with the
    /// defaults; past the spool threshold it went through a file, which is gone.
    func testALargeBodyLoadsWholeThroughASpoolFile() async throws {
        let size = 40_000_000
        try origin.route("/large", headers: ["Cache-Control": "no-store"], bodySize: size)
        let before = spoolFiles()
        let answer = try await load(makeSession(makeCache()), "/large", timeout: 60)
        XCTAssertEqual(answer.data.count, size)
        XCTAssertTrue(answer.data == pattern(size), "every byte as sent")
        try await awaitSpoolFiles(before)
        XCTAssertEqual(spoolFiles(), before, "the spool file is removed")
    }

    /// A body spooled to a file is stored when the limits allow, and answers offline from disk.
    func testASpooledBodyIsStoredAndServedOffline() async throws {
        let size = 3_000_000
        try origin.route("/spooled", headers: ["Cache-Control": "max-age=60"], bodySize: size)
        var configuration = HTTPCache.Configuration()
        configuration.spoolThreshold = 64 << 10
        configuration.memoryCapacity = 1 << 20   // too small for it: the hit below comes from disk
        let session = makeSession(makeCache(configuration))
        let first = try await load(session, "/spooled")
        XCTAssertTrue(first.data == pattern(size))
        XCTAssertTrue(first.cacheStatus.hasSuffix("stored"), first.cacheStatus)
        origin.stop()
        try advance(3_600)
        let offline = try await load(makeSession(makeCache(configuration)), "/spooled")
        XCTAssertTrue(offline.data == pattern(size))
        XCTAssertEqual(offline.cacheStatus, "URLSchemeKit; fwd=stale; detail=offline")
    }

    /// A spooled body stored is written to disk once: its spool file becomes
    /// the entry file in place (the fields appended, the file renamed), not
    /// copied into a second file.
    func testASpooledBodyIsWrittenToDiskOnce() async throws {
        let size = 8_000_000
        try origin.route("/once", headers: ["Cache-Control": "max-age=60"], bodySize: size)
        var configuration = HTTPCache.Configuration()
        configuration.spoolThreshold = 64 << 10
        let cache = makeCache(configuration)
        let session = makeSession(cache)
        let before = try bytesWritten(), spoolsBefore = spoolFiles()
        let first = try await load(session, "/once")
        cache.flush()
        let written = try bytesWritten() - before
        XCTAssertTrue(first.data == pattern(size))
        XCTAssertTrue(first.cacheStatus.hasSuffix("stored"), first.cacheStatus)
        XCTAssertGreaterThanOrEqual(written, size, "the body went to disk")
        XCTAssertLessThan(written, size + size / 4, "written once, not spooled and then copied into its entry")
        XCTAssertEqual(spoolFiles(), spoolsBefore, "the spool file became the entry")
        XCTAssertEqual(entryFiles().count, 1)
        origin.stop()
        let again = try await load(makeSession(makeCache(configuration)), "/once")
        XCTAssertTrue(again.data == pattern(size), "the entry made from the spool file reads back whole")
        XCTAssertTrue(again.cacheStatus.hasPrefix("URLSchemeKit; hit"), again.cacheStatus)
    }

    /// An origin that never ends its body: the load fails naming the limit as
    /// soon as it is passed, and leaves no spool file. (Eight at once, with
    /// memory measured: `HTTPCacheMemoryTests`.)
    func testAnEndlessBodyEndsAtTheResponseLimit() async throws {
        try origin.route("/endless", endless: true)
        var configuration = HTTPCache.Configuration()
        configuration.maximumResponseSize = 8 << 20
        configuration.spoolThreshold = 1 << 20
        let session = makeSession(makeCache(configuration))
        let before = spoolFiles()
        await XCTAssertThrowsURLError(.dataLengthExceedsMaximum, containing: "maximumResponseSize") {
            _ = try await self.load(session, "/endless", timeout: 30)
        }
        try await awaitSpoolFiles(before)
        XCTAssertEqual(spoolFiles(), before, "no spool file is left behind")
    }

    /// A client that cancels mid-body ends the forwarded load, and the
    /// body's spool file goes with it.
    func testCancellingMidBodyRemovesTheSpoolFile() async throws {
        try origin.route("/long", endless: true)
        var configuration = HTTPCache.Configuration()
        configuration.spoolThreshold = 64 << 10
        let session = makeSession(makeCache(configuration))
        let before = spoolFiles()
        let task = session.dataTask(with: origin.url("/long"))
        task.resume()
        for _ in 0..<500 where spoolFiles() == before { try await Task.sleep(nanoseconds: 10_000_000) }
        XCTAssertEqual(spoolFiles(), before + 1, "the body went to a spool file")
        task.cancel()
        for _ in 0..<500 where spoolFiles() > before { try await Task.sleep(nanoseconds: 10_000_000) }
        XCTAssertEqual(spoolFiles(), before, "the spool file is removed with the load")
    }

    func testADamagedEntryIsAMissNeverServed() async throws {
        try origin.route("/damaged", headers: ["Cache-Control": "max-age=3600"], bodySize: 4_000)
        _ = try await load(makeSession(makeCache()), "/damaged")
        let file = try XCTUnwrap(entryFiles().first)
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: file)
        let fresh = makeSession(makeCache())
        await XCTAssertThrowsURLError(.resourceUnavailable) {
            _ = try await self.load(fresh, "/damaged", policy: .returnCacheDataDontLoad)
        }
        let reloaded = try await load(fresh, "/damaged")
        XCTAssertEqual(reloaded.data, Data((0..<4_000).map { UInt8(truncatingIfNeeded: $0) }))
        XCTAssertEqual(try origin.count("/damaged"), 2)
    }

    func testStaleWhileRevalidateAnswersAtOnceAndRefreshesBehind() async throws {
        try origin.route("/swr", headers: ["Cache-Control": "max-age=10, stale-while-revalidate=600", "ETag": "\"a\""], body: "A")
        let session = makeSession(makeCache())
        _ = try await load(session, "/swr")
        try origin.route("/swr", headers: ["Cache-Control": "max-age=10, stale-while-revalidate=600", "ETag": "\"b\""], body: "B")
        try advance(60)
        let stale = try await load(session, "/swr")
        XCTAssertEqual(stale.body, "A")
        XCTAssertTrue(stale.cacheStatus.contains("detail=stale-while-revalidate"), stale.cacheStatus)
        for _ in 0..<100 {
            if try origin.count("/swr") >= 2 { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        var refreshed = try await load(session, "/swr")
        for _ in 0..<50 where refreshed.body != "B" {
            try await Task.sleep(nanoseconds: 20_000_000)
            refreshed = try await load(session, "/swr")
        }
        XCTAssertEqual(refreshed.body, "B", "the background request stored the new response")
        XCTAssertTrue(refreshed.cacheStatus.contains("hit"))
    }

    func testStaleIfErrorServesTheStoredResponseWhenTheOriginFails() async throws {
        try origin.route("/sie", headers: ["Cache-Control": "max-age=10, stale-if-error=600"], body: "good")
        let session = makeSession(makeCache())
        _ = try await load(session, "/sie")
        try origin.route("/sie", status: 503, body: "down")
        try advance(60)
        let answer = try await load(session, "/sie")
        XCTAssertEqual(answer.body, "good")
        XCTAssertEqual(answer.cacheStatus, "URLSchemeKit; fwd=stale; fwd-status=503; detail=stale-if-error")
        try advance(3_600)
        let failed = try await load(session, "/sie")
        XCTAssertEqual(failed.status, 503, "past the window the error is passed on")
    }

    func testAByteRangeIsAnsweredFromAStoredResponse() async throws {
        try origin.route("/range", headers: ["Cache-Control": "max-age=60"], body: "0123456789")
        let session = makeSession(makeCache())
        _ = try await load(session, "/range")
        let part = try await load(session, "/range", headers: ["Range": "bytes=2-4"])
        XCTAssertEqual(part.status, 206)
        XCTAssertEqual(part.body, "234")
        XCTAssertEqual(part.headers["Content-Range"], "bytes 2-4/10")
        XCTAssertEqual(try origin.count("/range"), 1)
    }

    /// Fields that `Connection` names belong to the connection: never stored or served.
    func testFieldsListedInConnectionAreNotKept() async throws {
        try origin.route("/conn", headers: ["Cache-Control": "max-age=60", "Connection": "X-Hop", "X-Hop": "1", "X-Kept": "2"], body: "c")
        let session = makeSession(makeCache())
        _ = try await load(session, "/conn")
        let answer = try await load(session, "/conn")
        XCTAssertTrue(answer.cacheStatus.contains("hit"))
        XCTAssertNil(answer.headers["X-Hop"])
        XCTAssertEqual(answer.headers["X-Kept"], "2")
    }

    /// A Linux trap forwarding meets: FoundationNetworking always has libcurl
    /// decode bodies, so a Content-Encoding libcurl does not know fails the
    /// load (with libcurl's words) instead of arriving encoded.
    func testAContentEncodingLibcurlDoesNotKnowFailsTheLoad() async throws {
        try origin.route("/encoded", headers: ["Content-Encoding": "x-unknown"], body: "opaque")
        let session = makeSession(makeCache())
        do {
            _ = try await load(session, "/encoded")
            XCTFail("libcurl now passes unknown codings through: forwarding could store encoded bodies as they are")
        } catch let error as URLError {
            XCTAssertTrue(error.localizedDescription.contains("content encoding"), error.localizedDescription)
        }
    }

    func testHeadIsAnsweredFromAStoredGet() async throws {
        try origin.route("/head", headers: ["Cache-Control": "max-age=60"], body: "twelve bytes")
        let session = makeSession(makeCache())
        _ = try await load(session, "/head")
        let head = try await load(session, "/head", method: "HEAD")
        XCTAssertEqual(head.body, "")
        XCTAssertEqual(head.headers["Content-Length"], "12")
        XCTAssertTrue(head.cacheStatus.contains("hit"))
        XCTAssertEqual(try origin.count("/head"), 1)
    }

    func testAClientsOwnConditionIsAnsweredWithA304() async throws {
        try origin.route("/cond", headers: ["Cache-Control": "max-age=60", "ETag": "\"c\""], body: "content")
        let session = makeSession(makeCache())
        _ = try await load(session, "/cond")
        let conditional = try await load(session, "/cond", headers: ["If-None-Match": "\"c\""])
        XCTAssertEqual(conditional.status, 304)
        XCTAssertEqual(conditional.body, "")
        XCTAssertEqual(try origin.count("/cond"), 1)
    }

    /// Header fields count in the memory cost: answers with no body and 200 KB
    /// of fields each are held within the memory capacity, and the usage says so.
    func testHeaderBytesCountInTheMemoryBudget() async throws {
        var headers = ["Cache-Control": "max-age=60"]
        for index in 0..<20 { headers["X-Pad-\(index)"] = String(repeating: "h", count: 10_000) }
        for index in 0..<24 { try origin.route("/fields-\(index)", headers: headers) }
        var configuration = HTTPCache.Configuration()
        configuration.memoryCapacity = 2 << 20
        configuration.diskCapacity = 0
        let cache = makeCache(configuration)
        let session = makeSession(cache)
        for index in 0..<24 { _ = try await load(session, "/fields-\(index)") }
        XCTAssertGreaterThan(cache.currentMemoryUsage, 1 << 20, "24 answers of 200 KB of fields fill the 2 MiB budget")
        XCTAssertLessThanOrEqual(cache.currentMemoryUsage, 2 << 20)
    }

    /// The session's `timeoutIntervalForResource` bounds a forwarded load from
    /// start to end (Linux's session does not enforce it for a protocol).
    func testTheSessionsResourceTimeLimitEndsASlowLoad() async throws {
        try origin.route("/slow", headers: ["Cache-Control": "no-store"], body: "late", delay: 5)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForResource = 1
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0), httpCache: makeCache()))
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        let start = Date()
        await XCTAssertThrowsURLError(.timedOut, containing: "timeoutIntervalForResource") {
            _ = try await session.data(from: self.origin.url("/slow"))
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 4, "ended at the limit, not when the origin answered")
    }

    /// One cache per user, each dropped with its session: what they opened
    /// (the inner session, its connections and their descriptors) goes with them.
    func testCachesNoLongerReferencedCloseTheirConnections() async throws {
        try origin.route("/user", headers: ["Cache-Control": "max-age=60"], body: "page")
        func openDescriptors() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0 }
        let before = openDescriptors()
        for _ in 0..<40 {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0),
                                                                      httpCache: HTTPCache(directory: nil)))
            let session = URLSession(configuration: configuration)
            _ = try await session.data(from: origin.url("/user"))
            session.finishTasksAndInvalidate()
        }
        // Invalidation completes on the sessions' own queues.
        for _ in 0..<50 where openDescriptors() > before + 10 { try await Task.sleep(nanoseconds: 100_000_000) }
        XCTAssertLessThanOrEqual(openDescriptors(), before + 10, "40 dropped caches hold no connections")
    }

    /// One session's six slow downloads do not hold the connections another
    /// session needs: each session has its own share of each origin, as it
    /// would without the cache.
    func testOneSessionsSlowLoadsDoNotStarveAnother() async throws {
        try origin.route("/slow-download", headers: ["Cache-Control": "no-store"], body: "late", delay: 8)
        try origin.route("/small-page", headers: ["Cache-Control": "no-store"], body: "page")
        let cache = makeCache()
        let sessionA = makeSession(cache), sessionB = makeSession(cache)
        let slow = (0..<6).map { _ in sessionA.dataTask(with: origin.url("/slow-download")) }
        slow.forEach { $0.resume() }
        defer { slow.forEach { $0.cancel() } }
        try await Task.sleep(nanoseconds: 500_000_000)
        let start = Date()
        let page = try await load(sessionB, "/small-page")
        XCTAssertEqual(page.body, "page")
        XCTAssertLessThan(Date().timeIntervalSince(start), 4, "B did not wait for A's downloads")
    }

    /// A reload with the origin down says that a response is stored, and how
    /// to get it, instead of claiming none is.
    func testAReloadWithTheOriginDownSaysAResponseIsStored() async throws {
        try origin.route("/kept", headers: ["Cache-Control": "max-age=60"], body: "kept")
        let session = makeSession(makeCache())
        _ = try await load(session, "/kept")
        origin.stop()
        await XCTAssertThrowsURLError(.cannotConnectToHost, containing: "forbids answering from the stored response") {
            _ = try await self.load(session, "/kept", policy: .reloadIgnoringLocalCacheData)
        }
        let offline = try await load(session, "/kept")
        XCTAssertEqual(offline.body, "kept")
    }

    // MARK: RFC 9111 §4.3.4, §4.3.5, §4.2.4

    /// A HEAD answer whose `Last-Modified` and `Content-Length` differ from the
    /// stored GET's describes another representation: the stored one goes.
    func testAHeadThatNoLongerDescribesTheStoredGetInvalidatesIt() async throws {
        try origin.route("/changing", headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\"",
                                                "Last-Modified": "Mon, 02 Nov 2026 10:00:00 GMT"], body: "one")
        let session = makeSession(makeCache())
        _ = try await load(session, "/changing")
        try origin.route("/changing", headers: ["Cache-Control": "max-age=0", "Last-Modified": "Tue, 24 Nov 2026 10:00:00 GMT"],
                         body: "two, longer")
        let head = try await load(session, "/changing", method: "HEAD")
        XCTAssertEqual(head.status, 200)
        await XCTAssertThrowsURLError(.resourceUnavailable) {
            _ = try await self.load(session, "/changing", policy: .returnCacheDataDontLoad)
        }
    }

    /// A 304 whose validator names another representation than the stored one
    /// (here it answers a client's own `If-Modified-Since`) must not freshen it.
    func testA304ForAnotherRepresentationDoesNotFreshenTheStoredOne() async throws {
        try origin.route("/variant", headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\""], body: "one")
        let session = makeSession(makeCache())
        _ = try await load(session, "/variant")
        let modified = "Tue, 24 Nov 2026 10:00:00 GMT"
        try origin.route("/variant", headers: ["Cache-Control": "max-age=3600", "Last-Modified": modified], body: "two")
        let conditional = try await load(session, "/variant", headers: ["If-Modified-Since": modified])
        XCTAssertEqual(conditional.status, 304)
        let next = try await load(session, "/variant")
        XCTAssertEqual(next.body, "two", "the stored v1 was not made fresh by a 304 about another representation")
    }

    /// One origin that cannot be reached says nothing of another port on the
    /// same host: a stale copy from the answering one is revalidated, not served offline.
    func testReachabilityIsPerOriginNotPerHost() async throws {
        let other = try OriginServer(test: self)
        try other.route("/gone", body: "x")
        try origin.route("/page", headers: ["Cache-Control": "max-age=1", "ETag": "\"p\""], body: "page")
        let cache = makeCache()
        let session = makeSession(cache)
        _ = try await load(session, "/page")
        other.stop()
        await XCTAssertThrowsURLError(.cannotConnectToHost) {
            _ = try await session.data(from: other.url("/gone"))
        }
        XCTAssertTrue(cache.isOffline(other.url("/gone")))
        XCTAssertFalse(cache.isOffline(origin.url("/page")))
        try advance(10)
        let page = try await load(session, "/page")
        XCTAssertEqual(page.cacheStatus, "URLSchemeKit; fwd=stale; fwd-status=304; stored", "asked its own origin, which answers")
        XCTAssertEqual(try origin.count("/page"), 2)
    }
}

/// Asserts that `body` throws a `URLError` with `code` (and `text` in its description).
func XCTAssertThrowsURLError(_ code: URLError.Code, containing text: String? = nil,
                             file: StaticString = #filePath, line: UInt = #line,
                             _ body: () async throws -> Void) async {
    do {
        try await body()
        XCTFail("expected URLError \(code.rawValue), got success", file: file, line: line)
    } catch let error as URLError {
        XCTAssertEqual(error.code, code, error.localizedDescription, file: file, line: line)
        if let text {
            XCTAssertTrue(error.localizedDescription.contains(text), error.localizedDescription, file: file, line: line)
        }
    } catch {
        XCTFail("expected URLError \(code.rawValue), got \(error)", file: file, line: line)
    }
}
