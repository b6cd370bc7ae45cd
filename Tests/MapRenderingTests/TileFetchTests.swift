import XCTest
import Foundation
import Synchronization
import Raster
@testable import MapRendering

/// Waiting for tiles is woken by events (a tile, a cancellation), never by a
/// timer: a cancelled render returns at once and its loaders are told.
final class TileFetchTests: XCTestCase {
    /// A loader whose tiles never come: each call blocks until its
    /// cancellation fires, counting the calls and the cancellations seen.
    private final class StallingLoader: TileLoading {
        let started = DispatchSemaphore(value: 0)
        let calls = Atomic<Int>(0)
        let cancelled = Atomic<Int>(0)

        func tile(_ coordinate: TileCoordinate) throws -> [UInt8] {
            XCTFail("the renderer called the loader without its cancellation")
            throw MapTileError.unavailable(coordinate, "no cancellation")
        }

        func tile(_ coordinate: TileCoordinate, cancellation: RenderCancellation) throws -> [UInt8] {
            calls.add(1, ordering: .relaxed)
            let woken = DispatchSemaphore(value: 0)
            cancellation.onCancel { woken.signal() }
            started.signal()
            guard woken.wait(timeout: .now() + 10) == .success else { throw MapTileError.unavailable(coordinate, "never cancelled") }
            cancelled.add(1, ordering: .relaxed)
            throw MapTileError.unavailable(coordinate, "cancelled")
        }
    }

    private let view = MapSnapshotOptions(camera: .zoom(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 1), width: 512, height: 512)

    func testCancellingARenderWaitingForTilesReturnsAtOnceAndStopsTheLoaders() throws {
        let loader = StallingLoader()
        let renderer = TileMapRenderer(source: TileSource(loader: loader, attribution: ""), concurrentFetches: 2)
        let cancellation = RenderCancellation()
        let finished = DispatchSemaphore(value: 0)
        let outcome = Mutex<Error?>(nil)
        let options = view
        Thread {
            do {
                _ = try renderer.render(options, in: MapViewport(options: options), cancellation: cancellation)
            } catch {
                outcome.withLock { $0 = error }
            }
            finished.signal()
        }.start()
        // Both workers are waiting on their tiles, the renderer on the workers.
        XCTAssertEqual(loader.started.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(loader.started.wait(timeout: .now() + 5), .success)
        let start = Date()
        cancellation.cancel()
        XCTAssertEqual(finished.wait(timeout: .now() + 5), .success)
        let latency = Date().timeIntervalSince(start)
        XCTAssertTrue(outcome.withLock { $0 } is CancellationError, "\(String(describing: outcome.withLock { $0 }))")
        XCTAssertLessThan(latency, 0.05, "the render came back \(Int(latency * 1000)) ms after cancel()")
        // The two loaders in flight were woken by the cancellation; no third tile was started.
        let deadline = Date().addingTimeInterval(5)
        while loader.cancelled.load(ordering: .relaxed) < 2, Date() < deadline { usleep(1000) }
        XCTAssertEqual(loader.cancelled.load(ordering: .relaxed), 2)
        XCTAssertEqual(loader.calls.load(ordering: .relaxed), 2)
    }

    func testAReasonGivenToCancelIsWhatCheckThrows() {
        struct Expired: Error, Equatable {}
        let cancellation = RenderCancellation()
        XCTAssertNoThrow(try cancellation.check())
        cancellation.cancel(reason: Expired())
        cancellation.cancel()  // only the first counts
        XCTAssertThrowsError(try cancellation.check()) { XCTAssertTrue($0 is Expired, "\($0)") }
        let ran = Atomic<Bool>(false)
        cancellation.onCancel { ran.store(true, ordering: .relaxed) }
        XCTAssertTrue(ran.load(ordering: .relaxed), "a handler registered after cancel() runs at once")
    }
}
