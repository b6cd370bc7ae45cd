import Synchronization

/// The one way a render learns that it should stop: the load was stopped
/// (`URLProtocol.stopLoading()` came, or the task was cancelled), or it ran
/// past its deadline (`ResourceBudget.renderDeadline` in URLSchemeKit).
///
/// Work that computes polls it between steps: ``check()``, or ``isCancelled``;
/// codecs and resamplers take `check` as their `checkCancellation` closure.
/// Work that waits (a tile on the network, another thread's decode) never
/// wakes up to poll: it registers a handler with ``onCancel(_:)`` that ends
/// the wait (cancels the request, signals the semaphore), so a cancelled
/// render returns at once and an idle one costs no wake-ups.
public final class RenderCancellation: Sendable {
    private struct State {
        /// Handlers still to run; nil once cancelled (later handlers run at once).
        var handlers: [@Sendable () -> Void]? = []
        /// What `check()` throws once cancelled; nil means `CancellationError`.
        var reason: (any Error & Sendable)?
    }

    private let flag = Atomic<Bool>(false)
    private let state = Mutex(State())

    /// A flag that is not cancelled yet; the protocol core cancels it on
    /// `stopLoading()` or when the render's deadline passes.
    public init() {}

    /// True once the request has been stopped or has run out of time; the
    /// result will not be delivered, so stop working.
    public var isCancelled: Bool { flag.load(ordering: .acquiring) }

    /// Throws once cancelled: the reason given to ``cancel(reason:)`` (a
    /// deadline's `URLError(.timedOut)`), else `CancellationError`.
    public func check() throws {
        guard isCancelled else { return }
        throw state.withLock { $0.reason } ?? CancellationError()
    }

    /// Runs `handler` once when the request is stopped (or runs out of time):
    /// at once, on this thread, if it already was; otherwise on the thread
    /// that cancels. Keep it short: signal a semaphore, cancel a task.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard state.handlers != nil else { return true }
            state.handlers?.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// Cancels: ``check()`` throws `reason` (`CancellationError` when nil)
    /// from now on and every ``onCancel(_:)`` handler runs, once. Only the
    /// first call counts.
    public func cancel(reason: (any Error & Sendable)? = nil) {
        let waiting = state.withLock { state -> [@Sendable () -> Void]? in
            guard let handlers = state.handlers else { return nil }
            state.reason = reason
            state.handlers = nil
            return handlers
        }
        guard let waiting else { return }
        flag.store(true, ordering: .releasing)
        for handler in waiting { handler() }
    }
}
