import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import URLSchemeKit

/// Issue "package foundation": cache hits through URLSession against the same
/// bytes fetched from nginx on 127.0.0.1, through the same kind of session
/// (ephemeral, same concurrency). Goal: hits at ≥ 3× nginx's rate.
struct CacheBenchmarks: BenchmarkSuite {
    let name = "cache"
    let summary = "64 KiB cache hits through URLSession vs nginx on loopback"

    static let bodySize = 64 << 10
    static let distinctURLs = 64
    static let loadsPerBatch = 2_000
    static let inFlight = 16

    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow] {
        let bodies = (0..<Self.distinctURLs).map { Self.body(seed: $0) }

        let cache = QueryKeyedURLCache(memoryCapacity: 256 << 20, diskCapacity: 0)
        var renderers = SchemeRenderers()
        renderers.set(BlobRenderer(bodies: bodies))
        let ours = URLSessionConfiguration.ephemeral
        ours.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: cache, httpCache: nil, renderers: renderers),
                                 extraProtocols: [BlobURLProtocol.self])
        let oursSession = URLSession(configuration: ours)
        // Sessions are invalidated when the suite ends: a live session's
        // connection housekeeping otherwise runs into the next suite's timings.
        defer { oursSession.finishTasksAndInvalidate() }
        let ourURLs = (0..<Self.distinctURLs).map { URL(string: "benchblob://?id=\($0)")! }
        try Self.loadAll(ourURLs, with: oursSession, expecting: bodies, count: Self.distinctURLs)  // fill the cache

        let server = try NginxServer(root: context.workDirectory.appendingPathComponent("nginx"), files: bodies)
        defer { server.stop() }
        let plain = URLSessionConfiguration.ephemeral
        plain.urlCache = nil
        let nginxSession = URLSession(configuration: plain)
        defer { nginxSession.finishTasksAndInvalidate() }
        let nginxURLs = (0..<Self.distinctURLs).map { URL(string: "http://127.0.0.1:\(server.port)/\($0).bin")! }

        var oursTime = 0.0, nginxTime = 0.0
        // Alternate the two sides so drift on a shared machine hits both alike.
        for _ in 0..<max(3, context.iterations / 2) {
            oursTime += try Stopwatch.median(iterations: 1) {
                try Self.loadAll(ourURLs, with: oursSession, expecting: bodies, count: Self.loadsPerBatch)
            }
            nginxTime += try Stopwatch.median(iterations: 1) {
                try Self.loadAll(nginxURLs, with: nginxSession, expecting: bodies, count: Self.loadsPerBatch)
            }
        }
        let rounds = Double(max(3, context.iterations / 2))
        let perLoadOurs = oursTime / rounds / Double(Self.loadsPerBatch)
        let perLoadNginx = nginxTime / rounds / Double(Self.loadsPerBatch)
        return [BenchmarkRow(
            name: "cache hit, 64 KiB, \(Self.inFlight) in flight (per load)",
            ours: perLoadOurs, reference: perLoadNginx, referenceName: "nginx on 127.0.0.1",
            goal: 1.0 / 3.0,
            detail: String(format: "%.0f loads/s vs %.0f loads/s", 1 / perLoadOurs, 1 / perLoadNginx))]
    }

    static func body(seed: Int) -> Data {
        var state = UInt64(seed + 1) &* 0x9E37_79B9_7F4A_7C15
        return Data((0..<bodySize).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        })
    }

    /// Cached loads of `url` (a scheme URL, rendered once to fill an
    /// `QueryKeyedURLCache`) against nginx on loopback serving the same bytes: the
    /// row the map and asset suites both report.
    static func cachedAgainstNginx(_ url: URL, name: String, assets: AssetImageSource? = nil, context: BenchmarkContext) throws -> BenchmarkRow {
        let cached = URLSessionConfiguration.ephemeral
        cached.installURLSchemeKit(URLSchemeKitEnvironment(assets: assets, imageCache: QueryKeyedURLCache(memoryCapacity: 64 << 20, diskCapacity: 0),
                                                           httpCache: nil))
        let cachedSession = URLSession(configuration: cached)
        defer { cachedSession.finishTasksAndInvalidate() }
        let body = try MapBenchmarks.load(url, cachedSession)
        let server = try NginxServer(root: context.workDirectory.appendingPathComponent("nginx-\(url.scheme ?? "scheme")"), files: [body])
        defer { server.stop() }
        let plain = URLSessionConfiguration.ephemeral
        plain.urlCache = nil
        let nginxSession = URLSession(configuration: plain)
        defer { nginxSession.finishTasksAndInvalidate() }
        let loads = 1_000
        let ours = try Stopwatch.median(iterations: 3) {
            try loadAll([url], with: cachedSession, expecting: [body], count: loads)
        } / Double(loads)
        let nginx = try Stopwatch.median(iterations: 3) {
            try loadAll([URL(string: "http://127.0.0.1:\(server.port)/0.bin")!], with: nginxSession, expecting: [body], count: loads)
        } / Double(loads)
        return BenchmarkRow(name: "\(name) cached (per load, \(inFlight) in flight)", ours: ours, reference: nginx,
                            referenceName: "nginx on 127.0.0.1", goal: 1.0 / 3.0,
                            detail: String(format: "%.0f loads/s vs %.0f loads/s; %d B", 1 / ours, 1 / nginx, body.count))
    }

    /// Loads `count` URLs (cycling through `urls`) with `inFlight` at a time and
    /// checks every body, so neither side can win by answering wrongly.
    static func loadAll(_ urls: [URL], with session: URLSession, expecting bodies: [Data], count: Int) throws {
        let slots = DispatchSemaphore(value: inFlight)
        let group = DispatchGroup()
        let failures = Atomic<Int>(0)
        for i in 0..<count {
            slots.wait()
            group.enter()
            let index = i % urls.count
            session.dataTask(with: urls[index]) { data, _, error in
                if error != nil || data != bodies[index] { failures.add(1, ordering: .relaxed) }
                slots.signal()
                group.leave()
            }.resume()
        }
        group.wait()
        let failed = failures.load(ordering: .relaxed)
        if failed > 0 { throw BenchmarkError("\(failed) of \(count) loads failed or returned wrong bytes") }
    }
}

/// The benchmark's scheme: `benchblob://?id=N` answers body N.
final class BlobURLProtocol: SchemeURLProtocol {
    override class var schemes: Set<String> { ["benchblob"] }
    override func makeRenderWork(in environment: URLSchemeKitEnvironment) throws -> RenderWork {
        let reader = try QueryReader(url: requestURL, knownNames: ["id"])
        return try environment.work(for: try reader.int("id", in: 0...Int(Int32.max)) ?? 0)
    }
}

struct BlobRenderer: Renderer {
    let bodies: [Data]
    func render(_ request: Int, in context: RenderContext) throws -> RenderedImage {
        guard bodies.indices.contains(request) else { throw URLParameterError(parameter: "id", reason: "has no body") }
        return RenderedImage(data: bodies[request], mimeType: "application/octet-stream")
    }
}
