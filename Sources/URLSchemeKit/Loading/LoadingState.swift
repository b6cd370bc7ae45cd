import Synchronization

/// The lifecycle of one load, shared by the protocol (start/stop, on the work
/// queue) and its render job (on the render queue), under a lock.
///
///     idle ──start──► loading ──claimFinish──► finished
///                        │
///                        └──stop──► stopped (render cancelled; nothing reported)
///
/// A client call is made only by whoever wins `claimFinish()`, so the client
/// hears exactly one outcome, and never after `stopLoading()`.
package final class LoadingState: Sendable {
    private enum Phase {
        case idle
        case loading(RenderCancellation)
        case finished
        case stopped
    }

    private let phase = Mutex(Phase.idle)

    /// An idle load.
    package init() {}

    /// Moves idle → loading; nil when the load was already stopped or started.
    package func start() -> RenderCancellation? {
        phase.withLock { phase in
            guard case .idle = phase else { return nil }
            let cancellation = RenderCancellation()
            phase = .loading(cancellation)
            return cancellation
        }
    }

    /// Moves loading → finished; true for the one caller that may report.
    package func claimFinish() -> Bool {
        phase.withLock { phase in
            guard case .loading = phase else { return false }
            phase = .finished
            return true
        }
    }

    /// Moves to stopped from any phase but finished, cancelling a running render.
    package func stop() {
        phase.withLock { phase in
            switch phase {
            case .loading(let cancellation):
                cancellation.cancel()
                phase = .stopped
            case .idle:
                phase = .stopped
            case .finished, .stopped:
                break
            }
        }
    }
}
