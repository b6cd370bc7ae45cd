import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A flag a renderer polls to learn that its request should stop: it was
/// stopped (`URLProtocol.stopLoading()` came, or the task was cancelled), or
/// it ran past its deadline (`ResourceBudget.renderDeadline`).
///
/// Work that waits rather than computes (a forwarded network request) cannot
/// poll; it registers a handler with `onCancel(_:)` instead.
public final class RenderCancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    /// The deadline that passed, in seconds; nil when stopped by the client (or not cancelled).
    private let expiredDeadline = Mutex<TimeInterval?>(nil)
    /// Handlers still to run; nil once cancelled (later handlers run at once).
    private let handlers = Mutex<[@Sendable () -> Void]?>([])

    /// A flag that is not cancelled yet; the protocol core cancels it on
    /// `stopLoading()` or when the render's deadline passes.
    public init() {}

    /// True once the request has been stopped or has run out of time; the
    /// result will not be delivered, so stop working.
    public var isCancelled: Bool { flag.load(ordering: .acquiring) }

    /// Throws once cancelled: `CancellationError` when the request was
    /// stopped, `URLError(.timedOut)` naming the deadline when it ran out of time.
    public func check() throws {
        guard isCancelled else { return }
        if let deadline = expiredDeadline.withLock({ $0 }) {
            throw URLErrors.make(.timedOut, "the render took longer than its deadline of \(QueryWriter.format(deadline)) s (ResourceBudget.renderDeadline)", url: nil)
        }
        throw CancellationError()
    }

    /// Runs `handler` once when the request is stopped (or runs out of time):
    /// at once, on this thread, if it already was; otherwise on the thread
    /// that cancels. Keep it short.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = handlers.withLock { handlers -> Bool in
            guard handlers != nil else { return true }
            handlers?.append(handler)
            return false
        }
        if runNow { handler() }
    }

    func cancel() {
        flag.store(true, ordering: .releasing)
        let waiting = handlers.withLock { handlers -> [@Sendable () -> Void] in
            defer { handlers = nil }
            return handlers ?? []
        }
        for handler in waiting { handler() }
    }

    /// Cancels the render because its deadline of `seconds` passed.
    func expire(deadline seconds: TimeInterval) {
        expiredDeadline.withLock { if !isCancelled { $0 = seconds } }
        cancel()
    }
}
