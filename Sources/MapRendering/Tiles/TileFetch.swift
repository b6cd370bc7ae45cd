import Dispatch
import Synchronization

/// Fetches a snapshot's tiles a few at a time on worker threads and hands
/// each to the rendering thread as it arrives, so a map of many tiles waits
/// about as long as its slowest few, not the sum of all, and holds only the
/// tiles not yet composited.
final class TileFetch: Sendable {
    private struct State {
        var next = 0
        var arrived: [(index: Int, result: Result<[UInt8], Error>)] = []
    }

    private let tiles: [TileCoordinate]
    private let loader: any TileLoading
    private let concurrency: Int
    private let state = Mutex(State())
    /// Cancelled when the fetch ends for any reason (done, an error, the
    /// render's cancellation): the workers' loaders give up on it.
    private let stopped = RenderCancellation()
    /// Signalled once per arrived tile, and once when `stopped` is cancelled.
    private let arrival = DispatchSemaphore(value: 0)

    init(_ tiles: [TileCoordinate], loader: any TileLoading, concurrency: Int) {
        self.tiles = tiles
        self.loader = loader
        self.concurrency = max(1, concurrency)
    }

    /// Calls `body` with each tile's index and bytes, in order of arrival, on
    /// the calling thread, which sleeps until a tile arrives or `cancellation`
    /// fires (no polling). The first error (a tile, `body`, or the
    /// cancellation's) stops the workers (their loaders see `stopped`
    /// cancelled) and is rethrown without waiting for them.
    func forEach(cancellation: RenderCancellation, _ body: (Int, [UInt8]) throws -> Void) throws {
        defer { stopped.cancel() }
        stopped.onCancel { [arrival] in arrival.signal() }
        cancellation.onCancel { [stopped] in stopped.cancel() }
        // Each worker on a serial queue of its own, which libdispatch gives a
        // thread of its own: the workers block on the network, and on the
        // global queue (as many threads as cores) two of them held every
        // thread, so the other fetches (and any other global work) waited.
        for _ in 0..<min(concurrency, tiles.count) {
            DispatchQueue(label: "URLSchemeKit.TileFetch.worker").async { self.work() }
        }
        var remaining = tiles.count
        while remaining > 0 {
            try cancellation.check()
            cancellation.waitingForInput { arrival.wait() }
            try cancellation.check()
            let arrived = state.withLock { state in
                defer { state.arrived.removeAll() }
                return state.arrived
            }
            for (index, result) in arrived {
                remaining -= 1
                try body(index, try result.get())
            }
        }
    }

    private func work() {
        while !stopped.isCancelled {
            let claimed = state.withLock { state -> Int? in
                guard state.next < tiles.count else { return nil }
                defer { state.next += 1 }
                return state.next
            }
            guard let index = claimed else { return }
            let result = Result { try loader.tile(tiles[index], cancellation: stopped) }
            state.withLock { $0.arrived.append((index, result)) }
            arrival.signal()
        }
    }
}
