import Foundation
import XCTest
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit
@testable import URLSchemeServer

/// A real server on a loopback port, driven by raw sockets and a plain URLSession.
final class SchemeServerTests: XCTestCase {
    private let mapQuery = "latitude=59.9&longitude=30.3&zoom=4&width=120&height=80"

    /// What a session with the package's protocols (the library, no server) loads for `url`.
    private func libraryLoad(_ url: String, _ environment: URLSchemeKitEnvironment) async throws -> (Data, HTTPURLResponse) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(environment)
        let (data, response) = try await URLSession(configuration: configuration).data(from: URL(string: url)!)
        return (data, response as! HTTPURLResponse)
    }

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("serve-" + UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testMapAndAssetAnswersAreTheLibrarysBytesWithCacheHeadersAnd304() async throws {
        let store = try FileAssetStore(directory: try temporaryDirectory())
        var photo = try Bitmap(width: 64, height: 48)
        for y in 0..<48 { for x in 0..<64 { photo[x, y] = RGBA(UInt8(x * 4), UInt8(y * 5), 90) } }
        let id = try store.add(PNGEncoder().encode(photo))
        let environment = ServerFixture.environment(assets: AssetImageSource(store: store))
        let fixture = try ServerFixture(environment: environment, test: self) { $0.maxAge = 600 }
        for (scheme, query) in [("map", mapQuery), ("asset", "id=\(id)&width=32")] {
            let (expected, libraryResponse) = try await libraryLoad("\(scheme)://?\(query)", environment)
            let (body, response) = try await fixture.get("/\(scheme)?\(query)")
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertEqual(body, expected, "\(scheme): the library's bytes")
            XCTAssertEqual(response.value(forHTTPHeaderField: "Content-Type"), libraryResponse.value(forHTTPHeaderField: "Content-Type"))
            XCTAssertEqual(response.value(forHTTPHeaderField: "Cache-Control"), "public, max-age=600")
            let tag = try XCTUnwrap(response.value(forHTTPHeaderField: "ETag"))
            XCTAssertTrue(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count == 34, "strong: \(tag)")

            let client = try fixture.client()
            client.send("GET /\(scheme)?\(query) HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"other\", \(tag)\r\n\r\n")
            let notModified = try XCTUnwrap(client.readAnswer())
            XCTAssertEqual(notModified.status, 304)
            XCTAssertEqual(notModified.headers["etag"], tag)
            XCTAssertEqual(notModified.headers["cache-control"], "public, max-age=600")
            XCTAssertNil(notModified.headers["content-length"])
            client.send("GET /\(scheme)?\(query) HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"other\"\r\n\r\n")
            XCTAssertEqual(client.readAnswer()?.body, expected, "another tag: the body, on the same connection")
        }
        // Another rendering of the same photo has another tag.
        let (_, wider) = try await fixture.get("/asset?id=\(id)&width=40")
        let (_, narrower) = try await fixture.get("/asset?id=\(id)&width=32")
        XCTAssertNotEqual(wider.value(forHTTPHeaderField: "ETag"), narrower.value(forHTTPHeaderField: "ETag"))
    }

    func testKeepAliveHeadAndPipelinedRequestsOnOneConnection() throws {
        let fixture = try ServerFixture(environment: ServerFixture.environment(), test: self)
        let client = try fixture.client()
        client.send("GET /map?\(mapQuery) HTTP/1.1\r\nHost: x\r\n\r\n")
        let get = try XCTUnwrap(client.readAnswer())
        XCTAssertEqual(get.status, 200)
        XCTAssertEqual(get.headers["content-type"], "image/png")
        XCTAssertNil(get.headers["connection"])
        client.send("HEAD /map?\(mapQuery) HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try XCTUnwrap(client.readAnswer(head: true))
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["content-length"], String(get.body.count), "HEAD: the length of the body it leaves out")
        XCTAssertEqual(head.headers["etag"], get.headers["etag"])
        // Two requests in one write: answered in order; the last asks to close.
        client.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /poll?question=Lunch%3F&option=Yes&option=No&votes=3,1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(client.readAnswer()?.body, Data("ok\n".utf8))
        let poll = try XCTUnwrap(client.readAnswer())
        XCTAssertEqual(poll.status, 200, String(decoding: poll.body, as: UTF8.self))
        XCTAssertEqual(poll.headers["connection"], "close")
        XCTAssertTrue(client.isClosedByServer())
    }

    func testEachErrorHasItsStatusTheLibrarysMessageAndNoStore() async throws {
        let store = try FileAssetStore(directory: try temporaryDirectory())
        let removed = try store.add(PNGEncoder().encode(Bitmap(width: 4, height: 4, fill: RGBA(1, 2, 3))))
        try store.remove(removed)
        let environment = ServerFixture.environment(assets: AssetImageSource(store: store))
        let fixture = try ServerFixture(environment: environment, test: self)
        for (target, status) in [("/map?latitude=95&longitude=0", 400), ("/asset?id=\(removed)", 404)] {
            let scheme = target.dropFirst().prefix { $0 != "?" }
            var libraryError: Error?
            do { _ = try await libraryLoad("\(scheme)://?" + target.split(separator: "?")[1], environment) } catch { libraryError = error }
            let (body, response) = try await fixture.get(target)
            XCTAssertEqual(response.statusCode, status, target)
            XCTAssertEqual(String(decoding: body, as: UTF8.self), (libraryError as NSError?).map { $0.localizedDescription + "\n" }, target)
            XCTAssertEqual(response.value(forHTTPHeaderField: "Cache-Control"), "no-store", target)
        }
        let (unknown, unknownResponse) = try await fixture.get("/tiles")
        XCTAssertEqual(unknownResponse.statusCode, 404)
        XCTAssertTrue(String(decoding: unknown, as: UTF8.self).hasPrefix("no route /tiles;"))

        let refusals: [(String, Int)] = [
            ("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: x\r\n\r\n", 414),
            ("GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-A: 1\r\n", count: 150) + "\r\n", 431),
            ("POST /map HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", 405),
            ("GET /map HTTP/2.0\r\nHost: x\r\n\r\n", 505),
            ("GET /map?latitude=1&longitude=%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ]
        for (request, status) in refusals {
            let client = try fixture.client()
            client.send(request)
            let answer = try XCTUnwrap(client.readAnswer(), "\(status)")
            XCTAssertEqual(answer.status, status, String(decoding: answer.body, as: UTF8.self))
            XCTAssertEqual(answer.headers["cache-control"], "no-store")
            if status == 405 { XCTAssertEqual(answer.headers["allow"], "GET, HEAD") }
        }
    }

    func testARenderPastItsDeadlineIs504AndAFullQueueIs503WithRetryAfter() throws {
        var renderers = SchemeRenderers()
        renderers.set(SlowMapRenderer())
        var budget = ResourceBudget()
        budget.renderDeadline = 1
        let fixture = try ServerFixture(environment: ServerFixture.environment(renderers: renderers, budget: budget), test: self) {
            $0.workers = 1
            $0.queueLength = 0
        }
        let first = try fixture.client(), second = try fixture.client()
        let started = Date()
        first.send("GET /map?latitude=1&longitude=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(200_000)
        second.send("GET /map?latitude=2&longitude=2 HTTP/1.1\r\nHost: x\r\n\r\n")
        let busy = try XCTUnwrap(second.readAnswer())
        XCTAssertEqual(busy.status, 503)
        XCTAssertEqual(busy.headers["retry-after"], "1")
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.9, "refused at once, not after the render")
        let late = try XCTUnwrap(first.readAnswer())
        XCTAssertEqual(late.status, 504, String(decoding: late.body, as: UTF8.self))
        XCTAssertEqual(late.headers["cache-control"], "no-store", "a time-out is never cached")
        // The worker is free again.
        second.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(second.readAnswer()?.status, 200)
    }

    /// A render still waiting in the queue when its client hangs up is
    /// dropped (never rendered, its place given to the next); one whose
    /// client waits is rendered.
    func testAQueuedRenderWhoseClientLeftIsNotRendered() throws {
        let slow = SlowMapRenderer(seconds: 0.5)
        var renderers = SchemeRenderers()
        renderers.set(slow)
        let fixture = try ServerFixture(environment: ServerFixture.environment(renderers: renderers), test: self) {
            $0.workers = 1
            $0.queueLength = 4
        }
        let first = try fixture.client(), leaving = try fixture.client(), staying = try fixture.client()
        first.send("GET /map?latitude=1&longitude=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(150_000)  // the first render holds the one worker
        leaving.send("GET /map?latitude=2&longitude=2 HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(50_000)
        staying.send("GET /map?latitude=3&longitude=3 HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(50_000)
        leaving.close()
        XCTAssertEqual(first.readAnswer()?.status, 200)
        XCTAssertEqual(staying.readAnswer()?.status, 200)
        XCTAssertEqual(slow.renders.count.withLock { $0 }, 2, "the render of the client that left never started")
        staying.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        let metrics = String(decoding: try XCTUnwrap(staying.readAnswer()).body, as: UTF8.self)
        XCTAssertTrue(metrics.contains("urlscheme_loads_cancelled_total 1\n"), metrics)
    }

    func testASlowClientTimesOutWithoutHoldingUpOthers() throws {
        let fixture = try ServerFixture(environment: ServerFixture.environment(), test: self) {
            $0.headerTimeout = 1
            $0.idleTimeout = 1
        }
        let slow = try fixture.client()
        slow.send("GET /health HTTP/1.1\r\nHo")
        let idle = try fixture.client()
        let started = Date()
        for _ in 0..<5 {
            let other = try fixture.client()
            other.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(other.readAnswer()?.status, 200)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.5, "others are served while the slow head waits")
        usleep(600_000)
        slow.send("st: x\r\n")  // trickling does not extend the header timeout (it would end at 1.6 s)
        let timedOut = try XCTUnwrap(slow.readAnswer())
        XCTAssertEqual(timedOut.status, 408)
        XCTAssertEqual(timedOut.headers["connection"], "close")
        XCTAssertLessThan(Date().timeIntervalSince(started), 1.45, "1 s from the head's first byte")
        XCTAssertTrue(slow.isClosedByServer())
        XCTAssertTrue(idle.isClosedByServer(), "an idle connection closes after the idle timeout")
    }

    /// The connection's one timer is armed at most the shortest timeout ahead
    /// and fires early, finding the idle deadline not due: a connection in use
    /// lives on past its idle timeout, and an idle one closes on time.
    func testAConnectionInUseOutlivesItsIdleTimeoutAndAnIdleOneClosesOnTime() throws {
        let fixture = try ServerFixture(environment: ServerFixture.environment(), test: self) {
            $0.headerTimeout = 0.4
            $0.idleTimeout = 1
        }
        let client = try fixture.client()
        let started = Date()
        for _ in 0..<4 {
            client.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(client.readAnswer()?.status, 200, "still open \(Date().timeIntervalSince(started)) s in")
            usleep(700_000)  // past the timer's reach (0.4 s), within the idle timeout
        }
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 2.5, "longer than the idle timeout in all")
        client.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readAnswer()?.status, 200)
        let idleSince = Date()
        XCTAssertTrue(client.isClosedByServer(), "an idle connection closes after the idle timeout")
        XCTAssertEqual(Date().timeIntervalSince(idleSince), 1, accuracy: 0.4, "closed at the idle timeout, not at the timer's first firing")
    }

    /// The Dispatch transport (other systems' only one) still serves: keep-alive,
    /// `HEAD`, pipelining, a refusal, the header timeout and the drain.
    func testTheDispatchTransportServesAsTheEventLoopsDo() throws {
        let fixture = try ServerFixture(environment: ServerFixture.environment(), test: self, transport: .dispatch) { $0.headerTimeout = 0.5 }
        let client = try fixture.client()
        client.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\nHEAD /health HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readAnswer()?.body, Data("ok\n".utf8))
        XCTAssertEqual(client.readAnswer(head: true)?.headers["content-length"], "3")
        client.send("POST /health HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readAnswer()?.status, 405)
        XCTAssertTrue(client.isClosedByServer())
        let slow = try fixture.client()
        slow.send("GET /health HTTP/1.1\r\n")
        XCTAssertEqual(slow.readAnswer()?.status, 408)
        // An idle keep-alive connection: one answered request first, so the
        // server has surely accepted it before the drain begins.
        let idle = try fixture.client()
        idle.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(idle.readAnswer()?.status, 200)
        let drained = DispatchSemaphore(value: 0)
        fixture.server.drain { drained.signal() }
        XCTAssertTrue(idle.isClosedByServer())
        XCTAssertEqual(drained.wait(timeout: .now() + 5), .success)
    }

    func testSmugglingAttemptsAreRefusedAndTheRestIsNeverRead() throws {
        let fixture = try ServerFixture(environment: ServerFixture.environment(), test: self)
        let attempts = [
            "GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 43\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 35\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /health HTTP/1.1\r\nHost: x\rTransfer-Encoding: chunked\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /health HTTP/1.1\r\nHost: x\r\nX: a\r\n Transfer-Encoding: chunked\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
        ]
        for attempt in attempts {
            let client = try fixture.client()
            client.send(attempt)
            let answer = try XCTUnwrap(client.readAnswer())
            XCTAssertEqual(answer.status, 400, attempt.debugDescription)
            XCTAssertEqual(answer.headers["connection"], "close")
            XCTAssertTrue(client.isClosedByServer(), "nothing after a refused head is read as a request: \(attempt.debugDescription)")
        }
    }

    func testHealthMetricsAccessLogAndDrain() throws {
        var renderers = SchemeRenderers()
        renderers.set(SlowMapRenderer(seconds: 1))
        let fixture = try ServerFixture(environment: ServerFixture.environment(renderers: renderers), test: self)
        let client = try fixture.client()
        client.send("GET /map?latitude=1&longitude=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readAnswer()?.status, 200)
        client.send("GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readAnswer()?.status, 404)
        let metrics = String(decoding: try XCTUnwrap(client.readAnswer()).body, as: UTF8.self)
        XCTAssertTrue(metrics.contains("urlscheme_requests_total{route=\"map\",status=\"200\"} 1\n"), metrics)
        XCTAssertTrue(metrics.contains("urlscheme_requests_total{route=\"other\",status=\"404\"} 1\n"), metrics)
        XCTAssertTrue(metrics.contains("urlscheme_load_seconds_bucket{le=\"0.5\"} 0\n"), "the 1 s render is not under 0.5 s")
        XCTAssertTrue(metrics.contains("urlscheme_load_seconds_bucket{le=\"2.5\"} 1\n"), metrics)
        XCTAssertTrue(metrics.contains("urlscheme_loads_in_flight 0\n"))
        XCTAssertTrue(metrics.contains("urlscheme_queue_length 0\n"))

        let lines = fixture.log.lines.withLock { $0 }
        XCTAssertEqual(lines.count, 3, "one line per request (the metrics' own after its answer)")
        let first = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(first["status"] as? Int, 200)
        XCTAssertEqual(first["route"] as? String, "map")
        XCTAssertEqual(first["target"] as? String, "/map?latitude=1&longitude=1")
        XCTAssertGreaterThan(first["ms"] as? Double ?? 0, 900)

        // Drain while one request is in progress and another's head is half sent.
        let busy = try fixture.client(), halfway = try fixture.client()
        busy.send("GET /map?latitude=2&longitude=2 HTTP/1.1\r\nHost: x\r\n\r\n")
        halfway.send("GET /health HTTP/1.1\r\n")
        usleep(200_000)
        let drained = DispatchSemaphore(value: 0)
        fixture.server.drain { drained.signal() }
        usleep(100_000)
        XCTAssertTrue(client.isClosedByServer(), "an idle keep-alive connection closes at once")
        XCTAssertThrowsError(try fixture.client(), "no new connection is accepted")
        halfway.send("Host: x\r\n\r\n")
        let health = try XCTUnwrap(halfway.readAnswer())
        XCTAssertEqual(health.status, 503)
        XCTAssertEqual(health.headers["connection"], "close")
        let finished = try XCTUnwrap(busy.readAnswer())
        XCTAssertEqual(finished.status, 200, "the request in progress is answered")
        XCTAssertEqual(finished.headers["connection"], "close")
        XCTAssertEqual(drained.wait(timeout: .now() + 5), .success)
    }

    func testAtTheConnectionCapANewClientWaitsUntilOneCloses() throws {
        let fixture = try ServerFixture(environment: ServerFixture.environment(), test: self) { $0.maximumConnections = 2 }
        let first = try fixture.client(), second = try fixture.client()
        for client in [first, second] {
            client.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(client.readAnswer()?.status, 200)
        }
        // The kernel completes the handshake (the backlog), but the server does not take the connection.
        let third = try fixture.client(receiveTimeout: 0.5)
        third.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertNil(third.readAnswer(), "not served while two connections are open")
        first.close()
        var answer: RawHTTPClient.Answer?
        for _ in 0..<10 where answer == nil { answer = third.readAnswer() }
        XCTAssertEqual(answer?.status, 200, "served once one closed")
    }
}
