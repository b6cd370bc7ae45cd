import Foundation
import Synchronization

/// Connections to each origin, shared between the outer sessions as plain
/// sessions would have them: each outer session gets up to its own
/// `httpMaximumConnectionsPerHost` forwarded loads per origin, and the inner
/// session (shared by every session using one `HTTPCache`) allows many more.
/// With the inner session's own limit of six alone, one session's six slow
/// downloads held every connection to a host and another session's small page
/// waited behind them until it timed out.
final class ForwardingLanes: Sendable {
    /// One outer session's loads to one origin.
    struct Lane: Hashable, Sendable {
        let session: ObjectIdentifier
        let origin: Origin
    }

    private struct State {
        var inFlight = 0
        var waiting: [@Sendable () -> Void] = []
    }

    private let lanes = Mutex<[Lane: State]>([:])
    private let queue: DispatchQueue

    /// Lanes whose waiting loads start on `queue`.
    init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// Runs `start` now when `lane` has fewer than `limit` loads in flight,
    /// else once one of them ends (`release`), in the order they came.
    func admit(_ lane: Lane, limit: Int, start: @escaping @Sendable () -> Void) {
        let now = lanes.withLock { lanes -> Bool in
            guard lanes[lane, default: State()].inFlight < max(1, limit) else {
                lanes[lane, default: State()].waiting.append(start)
                return false
            }
            lanes[lane, default: State()].inFlight += 1
            return true
        }
        if now { start() }
    }

    /// A load of `lane` ended: the next one waiting starts (it takes the slot).
    func release(_ lane: Lane) {
        let next = lanes.withLock { lanes -> (@Sendable () -> Void)? in
            guard var state = lanes[lane] else { return nil }
            if state.waiting.isEmpty {
                state.inFlight -= 1
                lanes[lane] = state.inFlight > 0 ? state : nil
                return nil
            }
            let next = state.waiting.removeFirst()
            lanes[lane] = state
            return next
        }
        if let next { queue.async(execute: next) }
    }
}
