import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// The HTTP cache's memory under hostile and large bodies, measured as the
/// hostile corpus measures a load: each test runs again in a child process
/// (`runInChildProcess`), which loads through a real session and checks its
/// own peak resident memory against its baseline; the parent checks that the
/// child passed and reports the figure. The origin runs in the parent.
final class HTTPCacheMemoryTests: XCTestCase {
    private static let originVariable = "URLSCHEMEKIT_CHILD_ORIGIN"

    private static let modeVariable = "URLSCHEMEKIT_CHILD_MODE"

    /// In the parent: starts an origin with `routes`, runs this test in a
    /// child once per mode, checks each passed, and gives their runs. In the
    /// child: the origin's URL and its mode, and the test goes on.
    @discardableResult
    private func runInChild(modes: [String] = [""], routes: (OriginServer) throws -> Void) throws
        -> (origin: URL, mode: String)? {
        let environment = ProcessInfo.processInfo.environment
        if isChildTest, let origin = URL(string: environment[Self.originVariable] ?? "") {
            return (origin, environment[Self.modeVariable] ?? "")
        }
        let origin = try OriginServer(test: self)
        try routes(origin)
        runs = try modes.map { mode in
            let run = try runInChildProcess(environment: [Self.originVariable: origin.url("").absoluteString, Self.modeVariable: mode])
            print("\(name) \(mode) in a child process: \(run.summary)")
            print(run.output.split(separator: "\n").filter { $0.hasPrefix("t=") }.joined(separator: "\n"))
            XCTAssertEqual(run.status, 0, run.stderr.split(separator: "\n").filter { $0.contains("error") || $0.contains("MB") }.joined(separator: "\n"))
            return run
        }
        return nil
    }

    /// How a child reports its peak resident bytes (`VmHWM`: its own, since its exec).
    private static let peakLine = "URLSchemeKit child peak bytes: "

    /// The children's runs, by mode, once `runInChild` returned nil.
    private var runs: [ChildRun] = []

    /// Eight origins that never end their bodies (they stop at 256 MiB each),
    /// loaded at once: each fails naming the limit, and the process holds a
    /// bounded part of the 2 GiB they send: before, 0.5–2.2 GB queued for the
    /// forwarder's delegate, as fast as the machine's load let it fall behind;
    /// with `BoundedDelegateQueue`, 94–114 MB peak RSS for the whole process.
    func testEightEndlessBodiesAtOnceEndWithMemoryBounded() async throws {
        guard let (origin, _) = try runInChild(routes: { origin in
            for index in 0..<8 { try origin.route("/endless\(index)", endless: true) }
        }) else { return }
        var configuration = HTTPCache.Configuration()
        configuration.maximumResponseSize = 8 << 20
        configuration.spoolThreshold = 1 << 20
        let session = makeCachedSession(HTTPCache(directory: try makeTemporaryDirectory(), configuration: configuration))
        let baseline = residentBytes()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let url = origin.appendingPathComponent("endless\(index)")
                    await XCTAssertThrowsURLError(.dataLengthExceedsMaximum, containing: "maximumResponseSize") {
                        _ = try await session.data(for: URLRequest(url: url, timeoutInterval: 60))
                    }
                }
            }
            try await group.waitForAll()
        }
        let extra = residentBytes("VmHWM") - baseline
        print("eight endless bodies: peak \(extra >> 20) MB above the baseline")
        XCTAssertLessThan(extra, 128 << 20, "peak \(extra >> 20) MB above the baseline")
    }

    /// Issue 35 item 13, reproduced but not fixed: an endless body through a
    /// memory-only cache, with no time limit, should stay under 160 MB
    /// resident while it arrives (it goes to a spool file). It does not when
    /// the origin sends many small chunks: 32 MiB in 64-byte chunks takes the
    /// child past 200 MB. The memory is the platform's, not the spool's:
    /// FoundationNetworking's `_EasyHandle.resetTimer()` makes a new dispatch
    /// timer source for every chunk libcurl hands over, and each cancelled
    /// source (about 340 bytes) stays allocated until the task's work queue
    /// gets to dispose of it; a plain `URLSession` without any delegate holds
    /// the same. Skipped unless `URLSCHEMEKIT_KNOWN_FAILURES` is set, so the
    /// next fix has its failing test; it prints the resident memory each second.
    func testAnEndlessBodyThroughAMemoryOnlyCacheKeepsResidentMemoryBounded() async throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment["URLSCHEMEKIT_KNOWN_FAILURES"] == nil,
                      "issue 35 item 13: the platform keeps a timer source per chunk (set URLSCHEMEKIT_KNOWN_FAILURES to run)")
        guard let (origin, _) = try runInChild(routes: { origin in
            try origin.route("/endless", endless: true, endlessBytes: 32 << 20, endlessChunk: 64)
        }) else { return }
        let session = makeCachedSession(HTTPCache(directory: nil))
        let url = origin.appendingPathComponent("endless")
        let start = Date()
        let sampler = Task {
            var next = 1.0
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 100_000_000)
                guard Date().timeIntervalSince(start) > next else { continue }
                print("t=\(Int(next)) s rss \(residentBytes() >> 20) MB")
                next += 1
            }
        }
        // The origin stops mid-chunk: the load fails then, which is not what is measured.
        _ = try? await session.data(for: URLRequest(url: url, timeoutInterval: 60))
        sampler.cancel()
        let peak = residentBytes("VmHWM")
        print("t=end: peak \(peak >> 20) MB resident, \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
        XCTAssertLessThan(peak, 160 << 20, "peak \(peak >> 20) MB resident while the endless body arrived")
    }

    /// A 100 MB body through the cache costs no more memory than through a
    /// plain session (each child's peak, side by side; a spooled body is
    /// handed on as its mapped file, and read back from disk mapped), loads
    /// byte for byte, and is stored: a new cache on the directory answers it
    /// from disk without the origin.
    func testAHundredMegabyteBodyCostsNoMoreThanWithoutTheCache() async throws {
        let size = 100_000_000
        guard let (origin, mode) = try runInChild(modes: ["plain", "cached"], routes: { origin in
            try origin.route("/large", headers: ["Cache-Control": "max-age=3600"], bodySize: size)
        }) else {
            // Each child's own peak, as it reported it: wait4's figure starts at the
            // parent's peak (the spawn shares its memory until exec), so it hides a smaller child.
            let peaks = runs.compactMap { run in
                run.output.split(separator: "\n").last { $0.hasPrefix(Self.peakLine) }.flatMap { Int($0.dropFirst(Self.peakLine.count)) }
            }
            guard peaks.count == 2 else { return XCTFail("a child did not report its peak") }
            let extra = peaks[1] - peaks[0]
            print("100 MB body: peak \(peaks[0] >> 20) MB plain, \(peaks[1] >> 20) MB through the cache")
            XCTAssertLessThan(extra, 64 << 20, "the cache added \(extra >> 20) MB to the peak")
            return
        }
        let url = origin.appendingPathComponent("large")
        let directory = try makeTemporaryDirectory()
        var configuration = HTTPCache.Configuration()
        configuration.maximumBodySize = 128 << 20
        let cache = HTTPCache(directory: directory, configuration: configuration)
        let session = mode == "plain" ? URLSession(configuration: .ephemeral) : makeCachedSession(cache)
        let (data, _) = try await session.data(for: URLRequest(url: url, timeoutInterval: 60))
        XCTAssertTrue(Self.isPattern(data, size: size), "every byte as sent")
        defer { print(Self.peakLine + "\(residentBytes("VmHWM"))") }
        guard mode == "cached" else { return }
        cache.flush()
        let stored = makeCachedSession(HTTPCache(directory: directory, configuration: configuration))
        let (again, response) = try await stored.data(for: URLRequest(url: url, cachePolicy: .returnCacheDataDontLoad))
        XCTAssertEqual((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Cache-Status")?.contains("hit"), true)
        XCTAssertTrue(Self.isPattern(again, size: size), "the stored body, byte for byte")
    }

    /// Whether `data` is the origin's repeating 0...255 pattern of `size`
    /// bytes, compared a block at a time without a copy.
    private static func isPattern(_ data: Data, size: Int) -> Bool {
        let block = [UInt8]((0..<65_536).map { UInt8(truncatingIfNeeded: $0) })
        guard data.count == size else { return false }
        return data.withUnsafeBytes { raw in
            stride(from: 0, to: raw.count, by: block.count).allSatisfy { start in
                memcmp(raw.baseAddress! + start, block, min(block.count, raw.count - start)) == 0
            }
        }
    }
}
