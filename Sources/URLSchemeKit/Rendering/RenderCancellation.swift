import Synchronization

/// A flag a renderer polls to learn that its request was stopped
/// (`URLProtocol.stopLoading()` came, or the task was cancelled).
public final class RenderCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    /// A flag that is not cancelled yet; the protocol core cancels it on `stopLoading()`.
    public init() {}

    /// True once the request has been stopped; the result will not be delivered.
    public var isCancelled: Bool { flag.load(ordering: .acquiring) }

    /// Throws `CancellationError` once the request has been stopped.
    public func check() throws {
        if isCancelled { throw CancellationError() }
    }

    func cancel() { flag.store(true, ordering: .releasing) }
}
