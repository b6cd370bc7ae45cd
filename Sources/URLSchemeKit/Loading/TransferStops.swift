import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a session delegate ends transfers it no longer wants (an answer past
/// its limit, a time-out, a cancelled render) without letting the chunks pile
/// up: the session's delegate queue is a `BoundedDelegateQueue`
/// (`delegateQueue(named:)`), and each task is cancelled once, from a queue of
/// its own, never from the delegate queue or a timer's. `cancel()` waits for
/// the session's work queue, busy receiving, and while it waits the caller's
/// queue stops draining (trap 19); a cancel repeated as the transfer ends by
/// itself can crash the process (trap 20). Used by `HTTPForwarder`,
/// `HTTPTileFetches` and `RangeFetches`.
final class TransferStops: Sendable {
    /// Tasks stopped whose last callback has not come yet.
    private let stopped = Mutex<Set<Int>>([])
    private static let queue = DispatchQueue(label: "URLSchemeKit.TransferStops", attributes: .concurrent)

    /// Chunks that may wait for a delegate before the session stops reading
    /// (libcurl's are at most 16 KiB: 16 MiB in flight per session).
    static let queuedChunks = 1_024

    /// A delegate queue for a session whose transfers are stopped here: serial, bounded.
    static func delegateQueue(named name: String) -> OperationQueue {
        BoundedDelegateQueue(name: name, limit: queuedChunks)
    }

    /// Cancels `task`, once, from another queue: the caller never waits.
    func stop(_ task: URLSessionTask) {
        guard stopped.withLock({ $0.insert(task.taskIdentifier).inserted }) else { return }
        Self.queue.async { task.cancel() }
    }

    /// Whether `stop(_:)` was called for `task` (its later chunks are dropped).
    func isStopped(_ task: URLSessionTask) -> Bool {
        stopped.withLock { $0.contains(task.taskIdentifier) }
    }

    /// `task`'s last callback came (`didCompleteWithError`): forgets it.
    func ended(_ task: URLSessionTask) {
        _ = stopped.withLock { $0.remove(task.taskIdentifier) }
    }
}
