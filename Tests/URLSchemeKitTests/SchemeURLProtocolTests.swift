import XCTest
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// The shared protocol core, driven the way a user drives it: a real URLSession.
final class SchemeURLProtocolTests: XCTestCase {
    func testALoadAnswers200WithTypeLengthAndTheRenderedBytes() async throws {
        let renderer = PatternRenderer()
        let session = makePatternSession(cache: nil, renderer: renderer)
        let pattern = PatternURL(seed: 42, size: 70_000)
        let (data, response) = try await session.data(from: pattern.url)
        let http = try XCTUnwrap(response as? HTTPURLResponse)
        XCTAssertEqual(http.statusCode, 200)
        XCTAssertEqual(http.value(forHTTPHeaderField: "Content-Type"), "application/x-pattern")
        XCTAssertEqual(http.value(forHTTPHeaderField: "Content-Length"), "70000")
        XCTAssertEqual(data, pattern.expectedBytes)
        XCTAssertEqual(renderer.renders.load(ordering: .relaxed), 1)
    }

    func testTheSecondLoadIsAnsweredFromImageURLCacheWithoutRendering() async throws {
        let renderer = PatternRenderer()
        let session = makePatternSession(cache: ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 0), renderer: renderer)
        let first = try await session.data(from: URL(string: "pattern://?seed=5&label=a")!)
        let second = try await session.data(from: URL(string: "pattern://?label=a&seed=5")!)
        XCTAssertEqual(first.0, second.0)
        XCTAssertEqual(second.1.url?.absoluteString, "pattern://?label=a&seed=5")
        XCTAssertEqual((second.1 as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type"), "application/x-pattern")
        XCTAssertEqual(renderer.renders.load(ordering: .relaxed), 1, "reordered query should hit")

        _ = try await session.data(from: URL(string: "pattern://?seed=5&label=b")!)
        XCTAssertEqual(renderer.renders.load(ordering: .relaxed), 2, "a different query must miss")
    }

    func testAnotherSessionAndProcessLikeInstanceShareTheDiskCache() async throws {
        let renderer = PatternRenderer()
        let directory = try makeTemporaryDirectory()
        let url = PatternURL(seed: 9, size: 4000).url
        let first = ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 1 << 20, directory: directory)
        _ = try await makePatternSession(cache: first, renderer: renderer).data(from: url)
        first.flush()   // as a process does before it exits
        let fresh = makePatternSession(cache: ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 1 << 20, directory: directory), renderer: renderer)
        let (data, _) = try await fresh.data(from: url)
        XCTAssertEqual(data, PatternURL(seed: 9, size: 4000).expectedBytes)
        XCTAssertEqual(renderer.renders.load(ordering: .relaxed), 1)
    }

    func testEachCachePolicy() async throws {
        let renderer = PatternRenderer()
        let session = makePatternSession(cache: ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 0), renderer: renderer)
        let url = PatternURL(seed: 11).url
        func load(_ policy: URLRequest.CachePolicy, _ target: URL = url) async throws -> Data {
            try await session.data(for: URLRequest(url: target, cachePolicy: policy)).0
        }
        func renders() -> Int { renderer.renders.load(ordering: .relaxed) }

        // A miss that may not load fails with .resourceUnavailable, naming the URL.
        do {
            _ = try await load(.returnCacheDataDontLoad)
            XCTFail("expected a failure")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .resourceUnavailable)
            XCTAssertEqual(error.failingURL, url)
            XCTAssertTrue(error.localizedDescription.contains("no cached response"), error.localizedDescription)
        }
        XCTAssertEqual(renders(), 0)

        _ = try await load(.useProtocolCachePolicy)
        XCTAssertEqual(renders(), 1)
        _ = try await load(.useProtocolCachePolicy)
        _ = try await load(.returnCacheDataElseLoad)
        let cached = try await load(.returnCacheDataDontLoad)
        XCTAssertEqual(cached, PatternURL(seed: 11).expectedBytes)
        XCTAssertEqual(renders(), 1, "hits must not render")

        _ = try await load(.reloadIgnoringLocalCacheData)
        XCTAssertEqual(renders(), 2, "reload must render again")
        _ = try await load(.returnCacheDataElseLoad, PatternURL(seed: 12).url)
        XCTAssertEqual(renders(), 3, "returnCacheDataElseLoad loads on a miss")
    }

    func testABadParameterFailsWithBadURLNamingIt() async throws {
        let renderer = PatternRenderer()
        let session = makePatternSession(cache: nil, renderer: renderer)
        for (text, expected) in [
            ("pattern://?seed=1&delay=-5", "parameter 'delay' must be a whole number from 0 to 10000, got '-5'"),
            ("pattern://?seed=1&sizee=5", "parameter 'sizee' is unknown; did you mean 'size'?"),
        ] {
            let url = URL(string: text)!
            do {
                _ = try await session.data(from: url)
                XCTFail("\(text) loaded")
            } catch let error as URLError {
                XCTAssertEqual(error.code, .badURL)
                XCTAssertEqual(error.failingURL, url)
                XCTAssertTrue(error.localizedDescription.contains(expected), error.localizedDescription)
            }
        }
        XCTAssertEqual(renderer.renders.load(ordering: .relaxed), 0)
    }

    func testACancelledTaskGetsCancelledAndTheRendererSeesIt() async throws {
        let renderer = PatternRenderer()
        let session = makePatternSession(cache: ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 0), renderer: renderer)
        let url = PatternURL(seed: 3, delay: 5_000).url
        let outcome = Mutex<Error?>(nil)
        let done = expectation(description: "completion")
        let task = session.dataTask(with: url) { _, _, error in
            outcome.withLock { $0 = error }
            done.fulfill()
        }
        task.resume()
        while renderer.renders.load(ordering: .relaxed) == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
        let started = Date()
        task.cancel()
        await fulfillment(of: [done], timeout: 4)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "cancel must not wait for the render")
        XCTAssertEqual((outcome.withLock { $0 } as? URLError)?.code, .cancelled)
        for _ in 0..<200 where renderer.cancellationsSeen.load(ordering: .relaxed) == 0 {
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        XCTAssertEqual(renderer.cancellationsSeen.load(ordering: .relaxed), 1)
        // Nothing was stored for a cancelled render.
        XCTAssertEqual(session.configuration.urlCache?.currentMemoryUsage, 0)
    }

    func testCancellingASwiftTaskThrowsCancelled() async throws {
        let session = makePatternSession(cache: nil)
        let load = Task { try await session.data(from: PatternURL(seed: 4, delay: 3_000).url) }
        try await Task.sleep(nanoseconds: 50_000_000)
        load.cancel()
        do {
            _ = try await load.value
            XCTFail("expected cancellation")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .cancelled)
        }
    }

    /// Driven directly with a recording client: once stopLoading() has come,
    /// the render's result is dropped (on Linux a later client call is fatal).
    func testNothingIsReportedAfterStopLoading() throws {
        let stoppedClient = RecordingClient()
        let stopped = StandalonePatternURLProtocol(request: URLRequest(url: PatternURL(seed: 1, delay: 100).url), cachedResponse: nil, client: stoppedClient)
        stopped.startLoading()
        stopped.stopLoading()

        let finishedClient = RecordingClient()
        let finished = StandalonePatternURLProtocol(request: URLRequest(url: PatternURL(seed: 1, size: 10).url), cachedResponse: nil, client: finishedClient)
        finished.startLoading()
        Thread.sleep(forTimeInterval: 0.4)
        finished.stopLoading()
        finished.startLoading()  // a second start is ignored too

        XCTAssertEqual(stoppedClient.events.withLock { $0 }, [])
        XCTAssertEqual(finishedClient.events.withLock { $0 }, ["response", "data 10", "finish"])
    }

    /// All sessions share one serial queue on Linux: a protocol that rendered in
    /// startLoading would hold every other session's cache hits behind it.
    func testASlowRenderInOneSessionDoesNotDelayAnotherSessionsCacheHits() async throws {
        let cache = ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 0)
        let fast = makePatternSession(cache: cache)
        let cachedURL = PatternURL(seed: 21).url
        _ = try await fast.data(from: cachedURL)

        let slow = makePatternSession(cache: nil)
        let slowLoad = Task { try await slow.data(from: PatternURL(seed: 22, delay: 1_000).url) }
        try await Task.sleep(nanoseconds: 50_000_000)
        let start = Date()
        for _ in 0..<20 { _ = try await fast.data(from: cachedURL) }
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertLessThan(elapsed, 0.5, "20 cache hits took \(elapsed) s behind a 1 s render")
        _ = try await slowLoad.value
    }
}
