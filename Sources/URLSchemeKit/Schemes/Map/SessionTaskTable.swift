import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a session delegate keeps per task (the fetch a task's callbacks
/// fill in), by task identifier: added when the task is made, found by
/// each callback, removed when it completes.
struct SessionTaskTable<Value: Sendable>: ~Copyable, Sendable {
    private let values = Mutex<[Int: Value]>([:])

    /// Keeps `value` for `task`.
    func add(_ value: Value, for task: URLSessionTask) {
        values.withLock { $0[task.taskIdentifier] = value }
    }

    /// The value kept for `task`, if any.
    func value(for task: URLSessionTask) -> Value? {
        values.withLock { $0[task.taskIdentifier] }
    }

    /// Removes and returns the value kept for `task`.
    func remove(_ task: URLSessionTask) -> Value? {
        values.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    }
}
