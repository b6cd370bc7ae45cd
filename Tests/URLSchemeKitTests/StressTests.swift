import XCTest
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit

/// 2,000 concurrent loads, half of them cancelled at random moments: every
/// load that is not cancelled completes with its exact bytes, and nothing
/// crashes (client calls from the wrong queue or after stopLoading are fatal
/// on Linux). Once through a rendering scheme, once through the HTTP cache
/// against an origin on loopback. `URLSCHEMEKIT_STRESS_ROUNDS` sets the rounds;
/// `.ci/run` runs 20 of them in a release build. Only public API is used, so
/// it builds in release.
final class StressTests: XCTestCase {
    func testConcurrentLoadsWithRandomCancellation() throws {
        let rounds = ProcessInfo.processInfo.environment["URLSCHEMEKIT_STRESS_ROUNDS"].flatMap(Int.init) ?? 1
        for round in 0..<rounds {
            try runRound(seed: UInt64(round + 1))
        }
    }

    func testConcurrentHTTPLoadsWithRandomCancellation() throws {
        let rounds = ProcessInfo.processInfo.environment["URLSCHEMEKIT_STRESS_ROUNDS"].flatMap(Int.init) ?? 1
        let origin = try OriginServer(test: self)
        // Fresh hits, revalidations (max-age=0 with an ETag) and uncacheable answers, mixed.
        let paths = (0..<40).map { "/stress/\($0)" }
        for (i, path) in paths.enumerated() {
            let control = ["max-age=3600", "max-age=0", "no-store"][i % 3]
            try origin.route(path, headers: ["Cache-Control": control, "ETag": "\"e\(i)\""], bodySize: 1024 + i * 1_531)
        }
        for round in 0..<rounds {
            let configuration = URLSessionConfiguration.ephemeral
            let cache = HTTPCache(directory: try makeTemporaryDirectory("stress\(round)"))
            configuration.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0), httpCache: cache))
            let session = URLSession(configuration: configuration)
            try runLoads(session: session, seed: UInt64(round + 1)) { next in
                let i = Int(next() % UInt64(paths.count))
                let size = 1024 + i * 1_531
                return (origin.url(paths[i]), Data((0..<size).map { UInt8(truncatingIfNeeded: $0) }))
            }
            session.invalidateAndCancel()
        }
    }

    private func runRound(seed: UInt64) throws {
        let session = makePatternSession(cache: QueryKeyedURLCache(memoryCapacity: 32 << 20, diskCapacity: 0))
        try runLoads(session: session, seed: seed) { next in
            // Seeds repeat, so some loads are cache hits and some race their twin's render.
            let pattern = PatternURL(seed: Int(next() % 1_500), size: 1024 + Int(next() % 60_000), delay: Int(next() % 3))
            return (pattern.url, pattern.expectedBytes)
        }
        session.invalidateAndCancel()
    }

    /// 2,000 loads of what `makeLoad` picks, every odd one cancelled after a random delay.
    private func runLoads(session: URLSession, seed: UInt64, _ makeLoad: (() -> UInt64) -> (URL, Data)) throws {
        let count = 2_000
        let wrong = Atomic<Int>(0)
        let unexpectedErrors = Mutex<[String]>([])
        let completed = Atomic<Int>(0)
        let group = DispatchGroup()
        var random = seed &* 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            random ^= random << 13; random ^= random >> 7; random ^= random << 17
            return random
        }

        // Tasks are created and resumed while earlier ones are answered, so the
        // session's task registry changes while client calls arrive.
        for i in 0..<count {
            let (url, expected) = makeLoad(next)
            let cancelled = i % 2 == 1
            group.enter()
            let task = session.dataTask(with: url) { data, response, error in
                defer { group.leave() }
                if let error {
                    if !(cancelled && (error as? URLError)?.code == .cancelled) {
                        unexpectedErrors.withLock { $0.append("\(url): \(error)") }
                    }
                    return
                }
                completed.add(1, ordering: .relaxed)
                if data != expected || (response as? HTTPURLResponse)?.statusCode != 200 {
                    wrong.add(1, ordering: .relaxed)
                }
            }
            task.resume()
            if cancelled {
                DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int(next() % 20_000))) { task.cancel() }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 120), .success, "round \(seed) hung")
        XCTAssertEqual(wrong.load(ordering: .relaxed), 0, "round \(seed): loads with wrong bytes")
        XCTAssertEqual(unexpectedErrors.withLock { Array($0.prefix(3)) }, [], "round \(seed)")
        XCTAssertGreaterThanOrEqual(completed.load(ordering: .relaxed), count / 2, "round \(seed)")
    }
}
