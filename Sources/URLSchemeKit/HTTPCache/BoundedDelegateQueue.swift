import Foundation

/// The inner session's delegate queue: serial, and it pushes back. The
/// platform hands each chunk a session receives to its delegate queue as an
/// operation, from the session's work queue, and nothing limits how many
/// wait: a delegate that falls behind (a loaded machine, a fast origin) let
/// eight endless bodies queue 0.5–2.2 GB (trap 19), and a cancel does not
/// stop a fast transfer. Here the work queue waits while `limit` operations
/// are queued: it stops reading from the sockets, so TCP holds the origin
/// back, and the bytes in flight stay under `limit` chunks (libcurl's are at
/// most 16 KiB) whatever the machine's load.
///
/// Never call `addOperation` from a thread that the queue's own operations
/// wait for: the forwarder's delegate methods never wait for the session's
/// work queue (they cancel from another queue), and an operation added from
/// this queue's own thread is taken without waiting.
final class BoundedDelegateQueue: OperationQueue, @unchecked Sendable {
    // @unchecked Sendable: OperationQueue is @unchecked Sendable itself, and
    // the only state added is a semaphore (thread-safe) and a queue set once.

    private let slots: DispatchSemaphore
    /// Runs the operations; held here because `underlyingQueue` does not retain it.
    private let dispatchQueue: DispatchQueue

    init(name: String, limit: Int) {
        slots = DispatchSemaphore(value: limit)
        dispatchQueue = DispatchQueue(label: name, qos: .userInteractive)
        super.init()
        self.name = name
        maxConcurrentOperationCount = 1
        underlyingQueue = dispatchQueue
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        let waits = OperationQueue.current !== self
        if waits { slots.wait() }
        super.addOperation { [slots] in
            block()
            if waits { slots.signal() }
        }
    }
}
