import Foundation
import Synchronization
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
        read(task).workQueue
    }

    /// The session that owns the task (nil once the task has completed).
    static func session(of task: URLSessionTask) -> URLSession? {
        read(task).session
    }

    /// Both. The first task of each class is searched by property name; later
    /// ones read the two properties at the positions found then (reflection
    /// boxes every property it passes, and a protocol asks on every load), and
    /// search again should a label not match.
    static func read(_ task: URLSessionTask) -> (workQueue: DispatchQueue?, session: URLSession?) {
        let type = ObjectIdentifier(Swift.type(of: task))
        if let known = positions.withLock({ $0[type] }),
           let queue = child(known.workQueue, of: task, labelled: "workQueue"),
           let session = child(known.session, of: task, labelled: "session") {
            return (workQueueIfLabelled(queue), session as? URLSession)
        }
        var queue: Any?, session: Any?
        var found = Positions(workQueue: nil, session: nil)
        var mirror: Mirror? = Mirror(reflecting: task)
        var depth = 0
        search: while let current = mirror {
            for (offset, child) in current.children.enumerated() {
                switch child.label {
                case "workQueue":
                    queue = child.value
                    found.workQueue = Position(depth: depth, offset: offset)
                case "session":
                    session = child.value
                    found.session = Position(depth: depth, offset: offset)
                default:
                    continue
                }
                if found.workQueue != nil && found.session != nil { break search }
            }
            mirror = current.superclassMirror
            depth += 1
        }
        if found.workQueue != nil && found.session != nil { positions.withLock { $0[type] = found } }
        return (queue.flatMap(workQueueIfLabelled), session as? URLSession)
    }

    /// Where a stored property sits: how many superclasses up, and its index there.
    private struct Position {
        let depth: Int
        let offset: Int
    }

    private struct Positions {
        var workQueue: Position?
        var session: Position?
    }

    /// The positions found for each task class.
    private static let positions = Mutex<[ObjectIdentifier: Positions]>([:])

    /// The value at `position` when the property there has `label`.
    private static func child(_ position: Position?, of object: AnyObject, labelled label: String) -> Any? {
        guard let position else { return nil }
        var mirror: Mirror? = Mirror(reflecting: object)
        for _ in 0..<position.depth { mirror = mirror?.superclassMirror }
        guard let children = mirror?.children, position.offset < children.count else { return nil }
        let child = children[children.index(children.startIndex, offsetBy: position.offset)]
        return child.label == label ? child.value : nil
    }

    private static func workQueueIfLabelled(_ value: Any) -> DispatchQueue? {
        (value as? DispatchQueue).flatMap { $0.label == workQueueLabel ? $0 : nil }
    }
}
