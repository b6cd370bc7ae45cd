import XCTest
import MapRendering
import Synchronization
@testable import URLSchemeKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A render waiting on a slow tile server lends its `RenderQueue` slot, so one
/// slow server cannot stall the renders of other sessions sharing the queue.
final class RenderQueueInputWaitTests: XCTestCase {
    /// Two `map://` renders wait on a real loopback tile server that trickles
    /// its tiles (a byte every half second) and a queue of two slots; another
    /// session's `poll://` on the same queue is answered in well under the
    /// time the tiles take (before the fix it waited for both maps, 14 s in
    /// the audit).
    func testASlowTileServerDoesNotHoldTheRenderSlotsOfOtherSessions() async throws {
        let origin = try OriginServer(test: self)
        try origin.route("/tile", headers: ["Content-Type": "image/png"], bodySize: 40, trickle: 0.5)
        let queue = RenderQueue(maximumConcurrentRenders: 2)
        var sources = MapTileSources()
        sources.register("slow", TileSource(
            loader: HTTPTileLoader(template: origin.url("/tile").absoluteString + "?z={z}&x={x}&y={y}", userAgent: "URLSchemeKitTests", timeout: 60),
            attribution: "test"))
        func session(_ environment: URLSchemeKitEnvironment) -> URLSession {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.installURLSchemeKit(environment)
            return URLSession(configuration: configuration)
        }
        let maps = session(URLSchemeKitEnvironment(tileSources: sources, renderQueue: queue, imageCache: nil, httpCache: nil))
        let polls = session(URLSchemeKitEnvironment(renderQueue: queue, imageCache: nil, httpCache: nil))

        // Two renders whose tiles take 20 s each: both slots, before the fix.
        let mapTasks = (0..<2).map { index in
            let url = URL(string: "map://?latitude=\(10 * index)&longitude=20&zoom=3&width=64&height=64&tiles=slow")!
            let task = maps.dataTask(with: url)
            task.resume()
            return task
        }
        defer { mapTasks.forEach { $0.cancel() } }
        try await Task.sleep(for: .seconds(1.5))
        XCTAssertTrue(mapTasks.allSatisfy { $0.state == .running }, "the map renders should still be waiting on their tiles")

        let started = Date()
        let (data, response) = try await polls.data(from: URL(string: "poll://?question=Lunch&option=Soup&option=Salad&votes=3,4")!)
        let seconds = Date().timeIntervalSince(started)
        print("poll:// answered in \(seconds) s while two map:// renders waited on the slow tile server")
        XCTAssertEqual(response.mimeType, "image/png")
        XCTAssertFalse(data.isEmpty)
        XCTAssertLessThan(seconds, 3, "poll:// waited \(seconds) s behind renders waiting on a slow tile server")
        XCTAssertTrue(mapTasks.allSatisfy { $0.state == .running }, "the map renders should still be waiting on their tiles")
    }

    /// At most `maximumWaitingRenders` renders lend their slot at once (each
    /// holds a thread); past that a waiting render keeps its slot. A render
    /// whose input came takes a slot before any render not yet started.
    func testWaitingRendersAreBoundedAndResumeFirst() throws {
        let queue = RenderQueue(maximumConcurrentRenders: 1, maximumWaitingRenders: 1)
        let gates = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let order = Mutex<[String]>([])
        let started = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        for (index, name) in ["a", "b"].enumerated() {
            let cancellation = RenderCancellation()
            try queue.submit(cancellation: cancellation) {
                order.withLock { $0.append(name + " waits") }
                started.signal()
                cancellation.waitingForInput { gates[index].wait() }
                order.withLock { $0.append(name + " ends") }
                finished.signal()
            }
        }
        try queue.submit(cancellation: RenderCancellation()) {
            order.withLock { $0.append("c runs") }
            finished.signal()
        }
        // a lends its one slot to b; b may not lend it on (one waiting render at most), so c waits.
        XCTAssertEqual(started.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(started.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(finished.wait(timeout: .now() + 0.5), .timedOut, "\(order.withLock { $0 })")
        XCTAssertEqual(queue.pendingCount, 1)
        // a's input comes: it waits for b's slot, ahead of c.
        gates[0].signal()
        XCTAssertEqual(finished.wait(timeout: .now() + 0.5), .timedOut, "\(order.withLock { $0 })")
        gates[1].signal()
        for _ in 0..<3 { XCTAssertEqual(finished.wait(timeout: .now() + 5), .success) }
        XCTAssertEqual(order.withLock { $0 }, ["a waits", "b waits", "b ends", "a ends", "c runs"])
    }
}
