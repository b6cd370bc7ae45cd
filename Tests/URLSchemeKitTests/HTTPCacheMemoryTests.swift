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

    /// In the parent: starts an origin with `routes`, runs this test in a
    /// child, and checks it passed. In the child: nil, and the test goes on.
    private func runInChild(routes: (OriginServer) throws -> Void) throws -> URL? {
        if isInChildProcess { return URL(string: ProcessInfo.processInfo.environment[Self.originVariable] ?? "") }
        let origin = try OriginServer(test: self)
        try routes(origin)
        let run = try runInChildProcess(environment: [Self.originVariable: origin.url("").absoluteString])
        print("\(name) in a child process: \(run.summary)")
        XCTAssertEqual(run.status, 0, run.stderr.split(separator: "\n").filter { $0.contains("error") || $0.contains("MB") }.joined(separator: "\n"))
        return nil
    }

    private func makeSession(_ configuration: HTTPCache.Configuration, directory: URL) -> URLSession {
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.installURLSchemeKit(URLSchemeKitEnvironment(
            imageCache: ImageURLCache(memoryCapacity: 1 << 20, diskCapacity: 0),
            httpCache: HTTPCache(directory: directory, configuration: configuration)))
        let session = URLSession(configuration: sessionConfiguration)
        addTeardownBlock { session.invalidateAndCancel() }
        return session
    }

    /// Eight origins that never end their bodies, loaded at once: each fails
    /// naming the limit, and the process never holds more than a bounded
    /// amount of them (before: gigabytes queued for the forwarder's delegate).
    func testEightEndlessBodiesAtOnceEndWithMemoryBounded() async throws {
        guard let origin = try runInChild(routes: { origin in
            for index in 0..<8 { try origin.route("/endless\(index)", endless: true) }
        }) else { return }
        var configuration = HTTPCache.Configuration()
        configuration.maximumResponseSize = 8 << 20
        configuration.spoolThreshold = 1 << 20
        let session = makeSession(configuration, directory: try makeTemporaryDirectory())
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
        XCTAssertLessThan(extra, 160 << 20, "peak \(extra >> 20) MB above the baseline")
    }
}
