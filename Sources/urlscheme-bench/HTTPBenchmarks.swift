import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit

/// Issue "HTTPCacheURLProtocol": the HTTP cache in front of nginx on
/// 127.0.0.1, against the same loads from nginx through a plain session
/// (ephemeral, no `urlCache`, same concurrency). Rows: a fresh hit (goal ≤
/// 0.33× nginx's time), the same with credentials on every request (each
/// user's own partition; the same goal), a miss forwarded and stored on disk (≤ 1.15×), the
/// same miss with a memory-only store (no goal: it shows how much of the miss
/// is the file and how much the two sessions it passes through), and a 304
/// revalidation of a 1 MiB response (≤ 0.5× fetching it whole). Issue 28
/// adds what a user waits for: a stored miss from an origin 20 ms away (≤
/// 1.05× a plain load of it, and no slower than the memory-only miss: the
/// disk write is behind the answer) and a 100 MB miss, spooled and stored
/// (≤ 1.1× a plain download).
struct HTTPBenchmarks: BenchmarkSuite {
    let name = "http"
    let summary = "HTTPCacheURLProtocol in front of nginx: fresh hits, stored misses, 304 revalidations"

    static let smallSize = 64 << 10
    static let largeSize = 1 << 20
    static let hugeSize = 100_000_000
    static let distinctURLs = 64

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let small = (0..<Self.distinctURLs).map { CacheBenchmarks.body(seed: 1_000 + $0) }
        let large = (0..<4).map { seed in Data((0..<Self.largeSize).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) }) }
        var paths: [String: Data] = [:]
        for (i, body) in small.enumerated() { paths["fresh/\(i).bin"] = body }
        for (i, body) in large.enumerated() { paths["revalidate/\(i).bin"] = body }
        let huge = Data((0..<Self.hugeSize).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        paths["huge.bin"] = huge
        // nginx sends ETag and Last-Modified for static files and answers If-None-Match with 304.
        let server = try NginxServer(root: context.workDirectory.appendingPathComponent("nginx-http"), paths: paths, serverConfig: """
            location /fresh/ { add_header Cache-Control "max-age=3600"; }
            location /revalidate/ { add_header Cache-Control "max-age=0"; }
            """)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"

        var sessions: [URLSession] = []
        defer { sessions.forEach { $0.finishTasksAndInvalidate() } }
        /// A session through `httpCache`, sending `headers` with every request.
        func session(through httpCache: HTTPCache, headers: [String: String] = [:]) -> URLSession {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = headers
            configuration.installURLSchemeKit(URLSchemeKitEnvironment(
                imageCache: QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0), httpCache: httpCache))
            sessions.append(URLSession(configuration: configuration))
            return sessions[sessions.count - 1]
        }
        let httpCache = HTTPCache(directory: context.workDirectory.appendingPathComponent("http-cache"),
                                  configuration: Self.cacheConfiguration)
        let cachedSession = session(through: httpCache)
        // The same protocol over a store without a directory: what a miss costs
        // before any file is written (the outer protocol plus the inner session).
        let memoryOnlySession = session(through: HTTPCache(directory: nil, configuration: Self.cacheConfiguration))
        // One user's session: its requests carry credentials, so its entries live
        // in a partition of their own (a keyed hash per load to find them).
        let credentialedSession = session(through: httpCache, headers: ["Authorization": "Bearer benchmark-user-token"])
        let plain = URLSessionConfiguration.ephemeral
        plain.urlCache = nil
        let plainSession = URLSession(configuration: plain)
        defer { plainSession.finishTasksAndInvalidate() }

        let rounds = max(3, context.iterations / 2)
        let freshURLs = (0..<Self.distinctURLs).map { URL(string: "\(base)/fresh/\($0).bin")! }
        try CacheBenchmarks.loadAll(freshURLs, with: cachedSession, expecting: small, count: small.count)  // store them
        let hitLoads = 2_000
        let hits = try alternate(rounds: rounds,
            ours: { try CacheBenchmarks.loadAll(freshURLs, with: cachedSession, expecting: small, count: hitLoads) },
            reference: { try CacheBenchmarks.loadAll(freshURLs, with: plainSession, expecting: small, count: hitLoads) })

        try CacheBenchmarks.loadAll(freshURLs, with: credentialedSession, expecting: small, count: small.count)
        let partitionedHits = try alternate(rounds: rounds,
            ours: { try CacheBenchmarks.loadAll(freshURLs, with: credentialedSession, expecting: small, count: hitLoads) },
            reference: { try CacheBenchmarks.loadAll(freshURLs, with: plainSession, expecting: small, count: hitLoads) })

        // Misses: every load a URL the cache has not seen (nginx ignores the query), forwarded and stored on disk.
        let missLoads = 500
        var batch = 0
        func uncached() -> [URL] {
            batch += 1
            return (0..<missLoads).map { URL(string: "\(base)/fresh/\($0 % Self.distinctURLs).bin?miss=\(batch)-\($0)")! }
        }
        let expectedMisses = (0..<missLoads).map { small[$0 % Self.distinctURLs] }
        let misses = try alternate(rounds: rounds,
            ours: { try CacheBenchmarks.loadAll(uncached(), with: cachedSession, expecting: expectedMisses, count: missLoads) },
            reference: { try CacheBenchmarks.loadAll(uncached(), with: plainSession, expecting: expectedMisses, count: missLoads) })

        let floor = try alternate(rounds: rounds,
            ours: { try CacheBenchmarks.loadAll(uncached(), with: memoryOnlySession, expecting: expectedMisses, count: missLoads) },
            reference: { try CacheBenchmarks.loadAll(uncached(), with: plainSession, expecting: expectedMisses, count: missLoads) })

        // Revalidations: stored with max-age=0, so each load asks nginx, which answers 304.
        let revalidateURLs = large.indices.map { URL(string: "\(base)/revalidate/\($0).bin")! }
        try CacheBenchmarks.loadAll(revalidateURLs, with: cachedSession, expecting: large, count: large.count)
        let revalidations = 200
        let revalidated = try alternate(rounds: rounds,
            ours: { try CacheBenchmarks.loadAll(revalidateURLs, with: cachedSession, expecting: large, count: revalidations) },
            reference: { try CacheBenchmarks.loadAll(revalidateURLs, with: plainSession, expecting: large, count: revalidations) })

        // What a user waits for: an origin 20 ms away, every URL new to the cache.
        let delayed = try DelayedOrigin(delay: 0.020, size: Self.smallSize, headers: ["Cache-Control": "max-age=3600"])
        defer { delayed.stop() }
        let delayedLoads = 160
        func delayedURLs() -> [URL] {
            batch += 1
            return (0..<delayedLoads).map { URL(string: "\(delayed.url.absoluteString)?miss=\(batch)-\($0)")! }
        }
        let expectedDelayed = [Data](repeating: delayed.body, count: delayedLoads)
        let delayedMisses = try alternate(rounds: rounds,
            ours: { try CacheBenchmarks.loadAll(delayedURLs(), with: cachedSession, expecting: expectedDelayed, count: delayedLoads) },
            reference: { try CacheBenchmarks.loadAll(delayedURLs(), with: plainSession, expecting: expectedDelayed, count: delayedLoads) })
        let delayedFloor = try alternate(rounds: rounds,
            ours: { try CacheBenchmarks.loadAll(delayedURLs(), with: cachedSession, expecting: expectedDelayed, count: delayedLoads) },
            reference: { try CacheBenchmarks.loadAll(delayedURLs(), with: memoryOnlySession, expecting: expectedDelayed, count: delayedLoads) })

        // A 100 MB body, new to the cache each time: spooled to a file, handed on mapped, stored.
        var hugeConfiguration = Self.cacheConfiguration
        hugeConfiguration.maximumBodySize = 128 << 20
        let hugeSession = session(through: HTTPCache(directory: context.workDirectory.appendingPathComponent("http-cache-huge"),
                                                     configuration: hugeConfiguration))
        func hugeURL() -> [URL] {
            batch += 1
            return [URL(string: "\(base)/huge.bin?miss=\(batch)")!]
        }
        let hugeMisses = try alternate(rounds: rounds,
            ours: { try CacheBenchmarks.loadAll(hugeURL(), with: hugeSession, expecting: [huge], count: 1) },
            reference: { try CacheBenchmarks.loadAll(hugeURL(), with: plainSession, expecting: [huge], count: 1) })

        let inFlight = CacheBenchmarks.inFlight
        return [
            BenchmarkRow(name: "http fresh hit, 64 KiB, \(inFlight) in flight (per load)",
                         ours: hits.ours / Double(hitLoads), reference: hits.reference / Double(hitLoads),
                         referenceName: "nginx on 127.0.0.1", goal: 0.33,
                         detail: String(format: "%.0f loads/s vs %.0f loads/s", Double(hitLoads) / hits.ours, Double(hitLoads) / hits.reference)),
            BenchmarkRow(name: "http fresh hit with Authorization, 64 KiB, \(inFlight) in flight (per load)",
                         ours: partitionedHits.ours / Double(hitLoads), reference: partitionedHits.reference / Double(hitLoads),
                         referenceName: "nginx on 127.0.0.1", goal: 0.33,
                         detail: "the user's own partition: a keyed hash of the credentials per load"),
            BenchmarkRow(name: "http miss forwarded and stored, 64 KiB, \(inFlight) in flight (per load)",
                         ours: misses.ours / Double(missLoads), reference: misses.reference / Double(missLoads),
                         referenceName: "plain URLSession from nginx", goal: 1.15,
                         detail: "stored on disk; every URL new to the cache"),
            BenchmarkRow(name: "http miss forwarded, memory-only store, 64 KiB, \(inFlight) in flight (per load)",
                         ours: floor.ours / Double(missLoads), reference: floor.reference / Double(missLoads),
                         referenceName: "plain URLSession from nginx", goal: nil,
                         detail: "no file written: the outer protocol and the inner URLSession alone, the floor of the row above"),
            BenchmarkRow(name: "http 304 revalidation, 1 MiB, \(inFlight) in flight (per load)",
                         ours: revalidated.ours / Double(revalidations), reference: revalidated.reference / Double(revalidations),
                         referenceName: "full fetch from nginx", goal: 0.5,
                         detail: "max-age=0 with an ETag: nginx answers 304, the stored body is served"),
            BenchmarkRow(name: "http miss forwarded and stored, 64 KiB, origin 20 ms away, \(inFlight) in flight (per load)",
                         ours: delayedMisses.ours / Double(delayedLoads), reference: delayedMisses.reference / Double(delayedLoads),
                         referenceName: "plain URLSession from the same origin", goal: 1.05,
                         detail: "python3 origin on 127.0.0.1 answering after 20 ms; every URL new to the cache"),
            BenchmarkRow(name: "http miss stored on disk vs memory-only store, 64 KiB, origin 20 ms away (per load)",
                         ours: delayedFloor.ours / Double(delayedLoads), reference: delayedFloor.reference / Double(delayedLoads),
                         referenceName: "the same miss, memory-only store", goal: 1.0,
                         detail: "the disk write is behind the answer, off the client's path"),
            BenchmarkRow(name: "http miss forwarded, spooled and stored, 100 MB (per load)",
                         ours: hugeMisses.ours, reference: hugeMisses.reference,
                         referenceName: "plain URLSession from nginx", goal: 1.1,
                         detail: "the body goes through a spool file and is handed on mapped; its entry is written behind"),
        ]
    }

    static var cacheConfiguration: HTTPCache.Configuration {
        var configuration = HTTPCache.Configuration()
        configuration.memoryCapacity = 256 << 20
        configuration.diskCapacity = 1 << 30
        return configuration
    }

    /// Median time of each side over `rounds`, alternating so drift on a shared machine hits both alike.
    private func alternate(rounds: Int, ours: () throws -> Void, reference: () throws -> Void) throws -> (ours: Double, reference: Double) {
        try ours()
        try reference()
        var oursTimes: [Double] = [], referenceTimes: [Double] = []
        for _ in 0..<rounds {
            oursTimes.append(try Stopwatch.median(iterations: 1, ours))
            referenceTimes.append(try Stopwatch.median(iterations: 1, reference))
        }
        return (oursTimes.sorted()[rounds / 2], referenceTimes.sorted()[rounds / 2])
    }
}
