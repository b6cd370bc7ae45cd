#if os(Linux)
import Dispatch
import Foundation
import Synchronization
import XCTest
@testable import URLSchemeServer

/// Work handed to an event loop from other threads (renders finishing, the
/// accepting loop handing over a connection) always runs: the loop is woken
/// for every task that is still waiting.
final class EventLoopTaskTests: XCTestCase {
    /// Counts tasks run, from any thread.
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    /// Four threads hand a loop 20,000 tasks each while it runs them. A wake-up
    /// flag cleared before the eventfd was read once lost a wake-up here: the
    /// loop slept with tasks waiting, and every later task (connections handed
    /// to it included) waited with them.
    func testEveryTaskHandedFromManyThreadsRuns() throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.eventLoops = 2
        let server = HTTPServer(configuration: configuration, transport: .eventLoops, handler: { _, _, _, respond in
            respond(HTTPResponse(status: 404))
        }, answered: { _, _, _, _ in })
        try server.start()
        defer {
            let drained = DispatchSemaphore(value: 0)
            server.drain(timeout: 1) { drained.signal() }
            _ = drained.wait(timeout: .now() + 5)
        }
        let loop = try XCTUnwrap(server.loops.last)
        let ran = Counter()
        let (threads, perThread) = (4, 20_000)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<perThread { loop.execute { ran.value.add(1, ordering: .relaxed) } }
        }
        let deadline = Date().addingTimeInterval(10)
        while ran.value.load(ordering: .relaxed) < threads * perThread, Date() < deadline { usleep(1000) }
        XCTAssertEqual(ran.value.load(ordering: .relaxed), threads * perThread, "tasks left waiting on a sleeping loop")
    }
}
#endif
