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
/// render returns at once and an idle one costs no wake-ups. Such a wait
/// goes through ``waitingForInput(_:)``, so a render queue can lend the
/// render's slot to another render meanwhile (see ``RenderSlot``).
public final class RenderCancellation: Sendable {
    private struct State {
        /// Handlers still to run; nil once cancelled (later handlers run at once).
        var handlers: [@Sendable () -> Void]? = []
        /// What `check()` throws once cancelled; nil means `CancellationError`.
        var reason: (any Error & Sendable)?
    }

    private let flag = Atomic<Bool>(false)
    private let state = Mutex(State())
    /// The render queue's slot the render holds, lent while it waits for input.
    private let slot = Mutex<(any RenderSlot)?>(nil)

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

    /// Makes `slot` (the render queue's slot this render runs in) lent
    /// while the render waits for input, from now on; nil when the render ends.
    public func lendWhileWaiting(_ slot: (any RenderSlot)?) {
        self.slot.withLock { $0 = slot }
    }

    /// Runs `wait`, a wait for input from elsewhere (a tile server's answer,
    /// a byte range of a remote archive): the render's slot, if it holds one,
    /// is lent to another render meanwhile, and taken back (perhaps after
    /// waiting for a slot to free) before this returns, so the render
    /// computes only in a slot.
    public func waitingForInput<T>(_ wait: () throws -> T) rethrows -> T {
        let slot = self.slot.withLock { $0 }
        slot?.beginInputWait()
        defer { slot?.endInputWait() }
        return try wait()
    }
}

/// A render queue's slot held by one render (URLSchemeKit's `RenderQueue`
/// implements it), told when the render's threads wait for input so it can
/// lend the slot meanwhile: one slow tile server then holds threads, not the
/// slots every user's renders share.
public protocol RenderSlot: Sendable {
    /// A thread of the render starts waiting for input.
    func beginInputWait()
    /// That thread's wait ended; returns once the render holds its slot again.
    func endInputWait()
}
