import XCTest
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// Fails loudly when a toolchain moves what `SessionTaskInternals` reaches by
/// reflection: the task's work queue (client calls from anywhere else crash
/// under load) and its session (where the cache to store into lives).
final class SessionTaskInternalsTests: XCTestCase {
    /// Records, from inside startLoading, what reflection found.
    final class ProbeURLProtocol: URLProtocol {
        static let findings = Mutex<[String]>([])
        private static let key = DispatchSpecificKey<Int>()

        override class func canInit(with request: URLRequest) -> Bool { request.url?.scheme == "probe" }
        override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

        override func startLoading() {
            var found: [String] = []
            if let task, let queue = SessionTaskInternals.workQueue(of: task) {
                queue.setSpecific(key: Self.key, value: 7)
                found.append(DispatchQueue.getSpecific(key: Self.key) == 7 ? "on work queue" : "found another queue")
                found.append(SessionTaskInternals.session(of: task)?.configuration.urlCache is QueryKeyedURLCache ? "session cache" : "no session")
            } else {
                found.append("no work queue")
            }
            Self.findings.withLock { $0 = found }
            client?.urlProtocol(self, didFailWithError: URLError(.cancelled))
        }

        override func stopLoading() {}
    }

    func testStartLoadingRunsOnTheWorkQueueReflectionFinds() async {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [ProbeURLProtocol.self]
        configuration.urlCache = QueryKeyedURLCache(memoryCapacity: 1024, diskCapacity: 0)
        _ = try? await URLSession(configuration: configuration).data(from: URL(string: "probe://x")!)
        XCTAssertEqual(ProbeURLProtocol.findings.withLock { $0 }, ["on work queue", "session cache"],
                       "FoundationNetworking changed: URLSessionTask.workQueue/session are no longer where SessionTaskInternals looks")
    }
}
