import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one place that reaches past FoundationNetworking's public API.
///
/// On Linux a URLProtocol must call its client on the task's own serial work
/// queue: calls from any other queue race with the session's unlocked task
/// registry and crash under load. That queue (`URLSessionTask.workQueue`,
/// label `org.swift.URLSessionTask.WorkQueue`) and the task's session (whose
/// `configuration.urlCache` a protocol must store into itself) are internal
/// stored properties, read here by reflection. When reflection finds nothing
/// (another toolchain, or Apple platforms) the callers fall back to a serial
/// queue of their own and to not storing; `SessionTaskInternalsTests` fails
/// loudly if a toolchain moves either property.
enum SessionTaskInternals {
    /// The label swift-corelibs-foundation gives every task's work queue.
    static let workQueueLabel = "org.swift.URLSessionTask.WorkQueue"

    /// The task's serial work queue, where `startLoading()` runs.
    static func workQueue(of task: URLSessionTask) -> DispatchQueue? {
        guard let queue = storedProperty("workQueue", of: task) as? DispatchQueue,
              queue.label == workQueueLabel else { return nil }
        return queue
    }

    /// The session that owns the task (nil once the task has completed).
    static func session(of task: URLSessionTask) -> URLSession? {
        storedProperty("session", of: task) as? URLSession
    }

    /// Looks a stored property up by name in the class and its superclasses.
    private static func storedProperty(_ name: String, of object: AnyObject) -> Any? {
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            if let child = current.children.first(where: { $0.label == name }) {
                return child.value
            }
            mirror = current.superclassMirror
        }
        return nil
    }
}
