import Synchronization

/// Whether the client that asked for an answer is still there: a connection
/// cancels it when its client leaves before the answer is written, and what
/// is waiting on the request's behalf (a render queued in the ``WorkQueue``)
/// is dropped rather than done for nobody.
final class RequestCancellation: Sendable {
    private enum State {
        case live([@Sendable () -> Void])
        case cancelled
    }

    private let state = Mutex(State.live([]))

    init() {}

    /// Whether the client left.
    var isCancelled: Bool {
        state.withLock { if case .cancelled = $0 { true } else { false } }
    }

    /// Runs `handler` once when the request is cancelled: at once when it already is.
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = state.withLock { state in
            guard case .live(var handlers) = state else { return true }
            handlers.append(handler)
            state = .live(handlers)
            return false
        }
        if runNow { handler() }
    }

    /// The client left: runs the handlers (the first call only), outside the lock.
    func cancel() {
        let handlers: [@Sendable () -> Void] = state.withLock { state in
            guard case .live(let handlers) = state else { return [] }
            state = .cancelled
            return handlers
        }
        for handler in handlers { handler() }
    }
}
