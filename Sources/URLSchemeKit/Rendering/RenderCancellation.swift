import Synchronization

/// A flag a renderer polls to learn that its request was stopped
/// (`URLProtocol.stopLoading()` came, or the task was cancelled).
///
/// Work that waits rather than computes (a forwarded network request) cannot
/// poll; it registers a handler with `onCancel(_:)` instead.
public final class RenderCancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    /// Handlers still to run; nil once cancelled (later handlers run at once).
    private let handlers = Mutex<[@Sendable () -> Void]?>([])

    /// A flag that is not cancelled yet; the protocol core cancels it on `stopLoading()`.
    public init() {}

    /// True once the request has been stopped; the result will not be delivered.
    public var isCancelled: Bool { flag.load(ordering: .acquiring) }

    /// Throws `CancellationError` once the request has been stopped.
    public func check() throws {
        if isCancelled { throw CancellationError() }
    }

    /// Runs `handler` once when the request is stopped: at once, on this thread,
    /// if it already was; otherwise on the thread that cancels. Keep it short.
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
}
