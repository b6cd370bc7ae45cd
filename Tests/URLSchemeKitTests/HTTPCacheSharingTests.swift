import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// One process fetching for many users, as a server does: one `URLSession`
/// per user, one `HTTPCache` for all of them (the default, shared kind), real
/// origins on loopback (127.0.0.2 stands for another host), a real store on
/// disk. No user's answer, cookie or secret reaches another user or the disk.
final class HTTPCacheSharingTests: XCTestCase {
    private var origin: OriginServer!
    private var directory: URL!

    /// What the origin answers for each user's credentials: who they are, never the secret itself.
    private let users = ["Bearer alice-token": "alice", "Bearer bob-token": "bob", "sid=alice-cookie": "alice",
                         "sid=bob-cookie": "bob", "user=alice": "alice", "user=bob": "bob", "(none)": "(none)"]

    override func setUpWithError() throws {
        origin = try OriginServer(test: self)
        directory = try makeTemporaryDirectory()
    }

    /// Every cache made, flushed before the disk is searched for secrets.
    private var caches: [HTTPCache] = []

    private func makeCache(private isPrivate: Bool = false) -> HTTPCache {
        var configuration = HTTPCache.Configuration()
        configuration.isPrivate = isPrivate
        let cache = HTTPCache(directory: directory, configuration: configuration)
        caches.append(cache)
        return cache
    }

    /// A user's session: its own cookie storage, holding `cookies` (name=value) for `host`.
    private func makeSession(_ cache: HTTPCache, cookies: [String] = [], host: String = "127.0.0.1") throws -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 0), httpCache: cache))
        let session = URLSession(configuration: configuration)
        addTeardownBlock { session.invalidateAndCancel() }
        for pair in cookies {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            let cookie = try XCTUnwrap(HTTPCookie(properties: [.domain: host, .path: "/", .name: parts[0], .value: parts[1]]))
            session.configuration.httpCookieStorage?.setCookie(cookie)
        }
        return session
    }

    private struct Answer {
        var body: String
        var headers: HTTPHeaderFields
        var url: URL?
        var cacheStatus: String { headers["Cache-Status"] ?? "" }
        var isHit: Bool { cacheStatus.contains("; hit") }
    }

    private func load(_ session: URLSession, _ url: URL, headers: [String: String] = [:], method: String = "GET") async throws -> Answer {
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = try XCTUnwrap(response as? HTTPURLResponse)
        return Answer(body: String(decoding: data, as: UTF8.self), headers: HTTPHeaderFields(http), url: http.url)
    }

    /// Every byte the cache directory holds, file by file.
    private func storedFiles() throws -> [(name: String, bytes: Data)] {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        var files: [(String, Data)] = []
        while let url = enumerator?.nextObject() as? URL {
            if let data = FileManager.default.contents(atPath: url.path) { files.append((url.lastPathComponent, data)) }
        }
        return files
    }

    private func assertNothingOnDisk(_ secrets: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        caches.forEach { $0.flush() }
        let files = try storedFiles()
        XCTAssertFalse(files.filter { $0.name.hasSuffix(".uskcache") }.isEmpty, "something was stored", file: file, line: line)
        for secret in secrets {
            for stored in files where stored.bytes.range(of: Data(secret.utf8)) != nil {
                XCTFail("\(stored.name) holds \(secret)", file: file, line: line)
            }
        }
    }

    // MARK: Credentials split the cache

    func testTwoTokensGetTheirOwnAnswersAndTheirOwnHits() async throws {
        try origin.route("/me", headers: ["Cache-Control": "max-age=60"], echoHeader: "Authorization", echoMap: users)
        let cache = makeCache()
        let alice = try makeSession(cache), bob = try makeSession(cache)
        let url = origin.url("/me")
        let aliceFirst = try await load(alice, url, headers: ["Authorization": "Bearer alice-token"])
        let bobFirst = try await load(bob, url, headers: ["Authorization": "Bearer bob-token"])
        XCTAssertEqual([aliceFirst.body, bobFirst.body], ["alice", "bob"], "Bob never gets Alice's profile")
        let aliceAgain = try await load(alice, url, headers: ["Authorization": "Bearer alice-token"])
        let bobAgain = try await load(bob, url, headers: ["Authorization": "Bearer bob-token"])
        XCTAssertEqual([aliceAgain.body, bobAgain.body], ["alice", "bob"])
        XCTAssertTrue(aliceAgain.isHit && bobAgain.isHit, "each second load is a hit in its own partition: \(aliceAgain.cacheStatus), \(bobAgain.cacheStatus)")
        let anonymous = try await load(try makeSession(cache), url)
        XCTAssertEqual(anonymous.body, "(none)", "a request without credentials sees neither")
        XCTAssertEqual(try origin.count("/me"), 3)
        try assertNothingOnDisk(["alice-token", "bob-token"])
    }

    func testTwoCookieStoragesGetTheirOwnAnswersAndTheirOwnHits() async throws {
        try origin.route("/feed", headers: ["Cache-Control": "max-age=60"], echoHeader: "Cookie", echoMap: users)
        let cache = makeCache()
        let alice = try makeSession(cache, cookies: ["sid=alice-cookie"]), bob = try makeSession(cache, cookies: ["sid=bob-cookie"])
        let url = origin.url("/feed")
        let aliceFirst = try await load(alice, url), bobFirst = try await load(bob, url)
        XCTAssertEqual([aliceFirst.body, bobFirst.body], ["alice", "bob"])
        let aliceAgain = try await load(alice, url), bobAgain = try await load(bob, url)
        XCTAssertEqual([aliceAgain.body, bobAgain.body], ["alice", "bob"])
        XCTAssertTrue(aliceAgain.isHit && bobAgain.isHit, "\(aliceAgain.cacheStatus), \(bobAgain.cacheStatus)")
        XCTAssertEqual(try origin.count("/feed"), 2)
        try assertNothingOnDisk(["alice-cookie", "bob-cookie"])
    }

    func testVaryValuesAreNotWrittenDown() async throws {
        try origin.route("/vary-auth", headers: ["Cache-Control": "public, max-age=60", "Vary": "Authorization"], echoHeader: "Authorization", echoMap: users)
        try origin.route("/vary-cookie", headers: ["Cache-Control": "public, max-age=60", "Vary": "Cookie"], echoHeader: "Cookie", echoMap: users)
        let cache = makeCache()
        let alice = try makeSession(cache, cookies: ["sid=alice-cookie"]), bob = try makeSession(cache, cookies: ["sid=bob-cookie"])
        for session in [alice, bob] {
            let name = session === alice ? "alice" : "bob"
            let token = "Bearer \(name)-token"
            let byToken = try await load(session, origin.url("/vary-auth"), headers: ["Authorization": token])
            XCTAssertEqual(byToken.body, name)
            let again = try await load(session, origin.url("/vary-auth"), headers: ["Authorization": token])
            XCTAssertEqual(again.body, name)
            XCTAssertTrue(again.isHit, again.cacheStatus)
            _ = try await load(session, origin.url("/vary-cookie"))
        }
        let bobCookie = try await load(bob, origin.url("/vary-cookie"))
        XCTAssertEqual(bobCookie.body, "bob")
        XCTAssertTrue(bobCookie.isHit, bobCookie.cacheStatus)
        try assertNothingOnDisk(["alice-token", "bob-token", "alice-cookie", "bob-cookie"])
    }

    // MARK: The shared partition's rules

    func testAPrivateAnswerIsServedOnlyInItsPartition() async throws {
        try origin.route("/private", headers: ["Cache-Control": "private, max-age=60"], echoHeader: "Authorization", echoMap: users)
        let cache = makeCache()
        let alice = try makeSession(cache), anonymous = try makeSession(cache)
        let url = origin.url("/private")
        _ = try await load(alice, url, headers: ["Authorization": "Bearer alice-token"])
        let again = try await load(alice, url, headers: ["Authorization": "Bearer alice-token"])
        XCTAssertTrue(again.isHit, "kept in Alice's own partition: \(again.cacheStatus)")
        let other = try await load(anonymous, url)
        XCTAssertEqual(other.body, "(none)")
        let otherAgain = try await load(anonymous, url)
        XCTAssertFalse(otherAgain.isHit, "private is never stored in the shared partition: \(otherAgain.cacheStatus)")
        XCTAssertEqual(try origin.count("/private"), 3)
    }

    func testAPublicAnswerToAnAuthorizedRequestIsShared() async throws {
        try origin.route("/logo", headers: ["Cache-Control": "public, max-age=60"], body: "logo")
        try origin.route("/mine", headers: ["Cache-Control": "max-age=60"], body: "mine")
        let cache = makeCache()
        let alice = try makeSession(cache), bob = try makeSession(cache)
        _ = try await load(alice, origin.url("/logo"), headers: ["Authorization": "Bearer alice-token"])
        let shared = try await load(bob, origin.url("/logo"), headers: ["Authorization": "Bearer bob-token"])
        XCTAssertEqual(shared.body, "logo")
        XCTAssertTrue(shared.isHit, "public lets every user have it: \(shared.cacheStatus)")
        _ = try await load(alice, origin.url("/mine"), headers: ["Authorization": "Bearer alice-token"])
        let notShared = try await load(bob, origin.url("/mine"), headers: ["Authorization": "Bearer bob-token"])
        XCTAssertFalse(notShared.isHit, "without public, an Authorization answer stays with its user: \(notShared.cacheStatus)")
        XCTAssertEqual(try origin.count("/logo"), 1)
        XCTAssertEqual(try origin.count("/mine"), 2)
    }

    func testAPrivateCacheIsOneStoreForItsOneUser() async throws {
        try origin.route("/me", headers: ["Cache-Control": "private, max-age=60"], echoHeader: "Authorization", echoMap: users)
        let cache = makeCache(private: true)
        let app = try makeSession(cache)
        _ = try await load(app, origin.url("/me"), headers: ["Authorization": "Bearer alice-token"])
        let refreshed = try await load(app, origin.url("/me"), headers: ["Authorization": "Bearer bob-token"])
        XCTAssertEqual(refreshed.body, "alice", "a private cache is not split by credentials")
        XCTAssertTrue(refreshed.isHit, refreshed.cacheStatus)
        try assertNothingOnDisk([])
    }

    func testAnUnsafeMethodInvalidatesEveryPartition() async throws {
        try origin.route("/doc", headers: ["Cache-Control": "max-age=60"], echoHeader: "Authorization", echoMap: users)
        let cache = makeCache()
        let alice = try makeSession(cache), bob = try makeSession(cache)
        _ = try await load(alice, origin.url("/doc"), headers: ["Authorization": "Bearer alice-token"])
        let hit = try await load(alice, origin.url("/doc"), headers: ["Authorization": "Bearer alice-token"])
        XCTAssertTrue(hit.isHit, hit.cacheStatus)
        _ = try await load(bob, origin.url("/doc"), headers: ["Authorization": "Bearer bob-token"], method: "POST")
        let afterPost = try await load(alice, origin.url("/doc"), headers: ["Authorization": "Bearer alice-token"])
        XCTAssertFalse(afterPost.isHit, "Bob's POST invalidated Alice's copy too: \(afterPost.cacheStatus)")
        XCTAssertEqual(try origin.stats("/doc").methods, ["GET", "POST", "GET"])
        let stored = try await load(alice, origin.url("/doc"), headers: ["Authorization": "Bearer alice-token"])
        XCTAssertTrue(stored.isHit, "what is stored after the invalidation answers again: \(stored.cacheStatus)")
    }

    // MARK: Cookies set, URLs with passwords

    func testSetCookieIsNeitherStoredNorReplayed() async throws {
        try origin.route("/welcome", headers: ["Cache-Control": "public, max-age=60", "Set-Cookie": "session=alice-session; Path=/"],
                         body: "welcome")
        let cache = makeCache()
        let alice = try makeSession(cache), bob = try makeSession(cache)
        let first = try await load(alice, origin.url("/welcome"))
        XCTAssertEqual(first.headers["Set-Cookie"]?.contains("alice-session"), true, "the live answer keeps its cookie")
        XCTAssertEqual(alice.configuration.httpCookieStorage?.cookies(for: origin.url("/"))?.first?.value, "alice-session")
        let replay = try await load(bob, origin.url("/welcome"))
        XCTAssertTrue(replay.isHit, replay.cacheStatus)
        XCTAssertEqual(replay.body, "welcome")
        XCTAssertNil(replay.headers["Set-Cookie"], "a hit never hands Alice's session to Bob")
        XCTAssertTrue(bob.configuration.httpCookieStorage?.cookies(for: origin.url("/"))?.isEmpty ?? true)
        try assertNothingOnDisk(["alice-session"])
    }

    func testAURLWithAPasswordIsNeverStoredNorAnsweredFromAnotherUsersEntry() async throws {
        let basic = { (user: String) in "Basic " + Data("\(user):\(user)-password".utf8).base64EncodedString() }
        try origin.route("/x", headers: ["Cache-Control": "max-age=60"], echoHeader: "Authorization",
                         echoMap: [basic("alice"): "alice", basic("bob"): "bob", "(none)": "(none)"])
        let cache = makeCache()
        let session = try makeSession(cache)
        let base = origin.url("/x").absoluteString.replacingOccurrences(of: "http://", with: "")
        let alice = try await load(session, try XCTUnwrap(URL(string: "http://alice:alice-password@" + base)))
        let bob = try await load(session, try XCTUnwrap(URL(string: "http://bob:bob-password@" + base)))
        XCTAssertFalse(bob.isHit, "Bob is not answered from Alice's entry: \(bob.cacheStatus)")
        XCTAssertEqual([alice.body, bob.body], ["alice", "bob"], "the URL's user info is sent as Basic credentials")
        let plain = try await load(session, origin.url("/x"))
        XCTAssertFalse(plain.isHit, plain.cacheStatus)
        XCTAssertEqual(try origin.count("/x"), 3)
        for stored in try storedFiles() {
            XCTAssertNil(stored.bytes.range(of: Data("alice-password".utf8)), "\(stored.name) holds Alice's password")
            XCTAssertNil(stored.bytes.range(of: Data("alice:".utf8)), "\(stored.name) holds Alice's user name")
        }
    }

    // MARK: Redirects

    /// `/go` on one host redirects to another whose page varies by cookie; the
    /// cookie for that host is added on the redirect hop. The page is stored
    /// under its own URL with the hop's fields, so each user gets their own;
    /// the redirect (fresh for a minute) is stored and followed through the cache.
    func testARedirectToAnotherHostKeepsEachUsersVariant() async throws {
        let other = try OriginServer(test: self, host: "127.0.0.2")
        try other.route("/page", headers: ["Cache-Control": "max-age=60", "Vary": "Cookie"], echoHeader: "Cookie", echoMap: users)
        try origin.route("/go", status: 302, headers: ["Location": other.url("/page").absoluteString, "Cache-Control": "max-age=60"])
        try origin.route("/go-uncached", status: 302, headers: ["Location": other.url("/page").absoluteString])
        let cache = makeCache()
        let alice = try makeSession(cache, cookies: ["user=alice"], host: "127.0.0.2")
        let bob = try makeSession(cache, cookies: ["user=bob"], host: "127.0.0.2")
        let aliceFirst = try await load(alice, origin.url("/go"))
        let bobFirst = try await load(bob, origin.url("/go"))
        XCTAssertEqual([aliceFirst.body, bobFirst.body], ["alice", "bob"], "Bob never gets Alice's page")
        XCTAssertEqual(aliceFirst.url, other.url("/page"))
        let aliceAgain = try await load(alice, origin.url("/go"))
        let bobAgain = try await load(bob, origin.url("/go"))
        XCTAssertEqual([aliceAgain.body, bobAgain.body], ["alice", "bob"])
        XCTAssertTrue(aliceAgain.isHit && bobAgain.isHit, "\(aliceAgain.cacheStatus), \(bobAgain.cacheStatus)")
        XCTAssertEqual(bobAgain.url, other.url("/page"), "the answer says where it came from")
        XCTAssertEqual(try origin.count("/go"), 1, "the redirect, stored once for everyone, answered every later load")
        XCTAssertEqual(try other.count("/page"), 2)
        _ = try await load(alice, origin.url("/go-uncached"))
        _ = try await load(alice, origin.url("/go-uncached"))
        XCTAssertEqual(try origin.count("/go-uncached"), 2, "a 302 without explicit freshness is not stored")
        try assertNothingOnDisk(["user=alice", "user=bob"])
    }

    func testAuthorizationIsNotSentToAnotherHost() async throws {
        let other = try OriginServer(test: self, host: "127.0.0.2")
        try other.route("/who", headers: ["Cache-Control": "no-store"], echoHeader: "Authorization", echoMap: users)
        try origin.route("/who", headers: ["Cache-Control": "no-store"], echoHeader: "Authorization", echoMap: users)
        try origin.route("/away", status: 302, headers: ["Location": other.url("/who").absoluteString])
        try origin.route("/here", status: 302, headers: ["Location": "/who"])
        let session = try makeSession(makeCache())
        let away = try await load(session, origin.url("/away"), headers: ["Authorization": "Bearer alice-token"])
        XCTAssertEqual(away.body, "(none)", "another host never sees the token")
        let here = try await load(session, origin.url("/here"), headers: ["Authorization": "Bearer alice-token"])
        XCTAssertEqual(here.body, "alice", "the same origin still does")
    }

    // MARK: What the platform adds

    /// `Vary: User-Agent` compares the agent really sent, which the platform
    /// adds when the request has none: a program with another agent (on the
    /// same directory) gets its own variant.
    func testVarySeesTheAgentThePlatformAdds() async throws {
        try origin.route("/ua", headers: ["Cache-Control": "max-age=60", "Vary": "User-Agent"], echoHeader: "User-Agent")
        let session = try makeSession(makeCache())
        let platform = try await load(session, origin.url("/ua"))
        let defaultAgent = try XCTUnwrap(PlatformRequestHeaders.defaults.first { $0.name == "User-Agent" }?.value)
        XCTAssertEqual(platform.body, defaultAgent)
        let sameAgent = try await load(session, origin.url("/ua"), headers: ["User-Agent": defaultAgent])
        XCTAssertTrue(sameAgent.isHit, "the same agent, given or added, is the same variant: \(sameAgent.cacheStatus)")
        let otherAgent = try await load(session, origin.url("/ua"), headers: ["User-Agent": "another-program"])
        XCTAssertEqual(otherAgent.body, "another-program")
        XCTAssertFalse(otherAgent.isHit, otherAgent.cacheStatus)
    }
}
