import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One load shared by every `ImageTask` that asked for the same
/// `ImageLoadKey`: one `URLSession` task, then at most one decode.
///
///     queued ──beginLoading──► loading ──beginDecoding──► decoding ──finish──► finished
///        │                        │                          │
///        └───────── last waiter removed ─────────────────────┴──► abandoned
///                   (the session task is cancelled; the protocol's stopLoading
///                    cancels the render)
///
/// The job runs at the highest priority among its waiters; the loader's
/// limiters read `priority` when they pick what runs next.
final class ImageLoadJob: Sendable {
    let key: ImageLoadKey
    /// The first requester's URL: what the session loads.
    let url: URL

    private enum Phase {
        case queued
        case loading(URLSessionTask?)
        case decoding
        case finished
        case abandoned
    }

    private struct State {
        var phase = Phase.queued
        var waiters: [ObjectIdentifier: (task: ImageTask, priority: ImagePriority)] = [:]
    }

    private let state: Mutex<State>
    /// Called once, outside the lock, when the last waiter leaves an unfinished job.
    private let onAbandon: @Sendable (ImageLoadJob) -> Void

    init(key: ImageLoadKey, url: URL, onAbandon: @escaping @Sendable (ImageLoadJob) -> Void) {
        self.key = key
        self.url = url
        self.onAbandon = onAbandon
        state = Mutex(State())
    }

    /// The highest priority among the waiters.
    var priority: ImagePriority {
        state.withLock { $0.waiters.values.map(\.priority).max() ?? .low }
    }

    /// False once finished or abandoned: nothing is left to run.
    var isLive: Bool {
        state.withLock {
            switch $0.phase {
            case .finished, .abandoned: return false
            case .queued, .loading, .decoding: return true
            }
        }
    }

    /// Adds a waiter; false when the job has finished or been abandoned.
    func add(_ task: ImageTask, priority: ImagePriority) -> Bool {
        state.withLock { state in
            switch state.phase {
            case .finished, .abandoned: return false
            case .queued, .loading, .decoding:
                state.waiters[ObjectIdentifier(task)] = (task, priority)
                return true
            }
        }
    }

    /// Records a waiter's new priority.
    func update(_ task: ImageTask, priority: ImagePriority) {
        state.withLock { state in
            state.waiters[ObjectIdentifier(task)]?.priority = priority
        }
    }

    /// Removes a waiter; the last one out of an unfinished job abandons it at
    /// once (no limiter starts it from then on) and returns what remains to do
    /// outside any lock: cancel its session task and tell the loader. Callers
    /// withdrawing many waiters abandon every job before running the follow-ups,
    /// so a slot freed by one cancelled task never starts a load about to be cancelled.
    func remove(_ task: ImageTask) -> (@Sendable () -> Void)? {
        let (abandoned, sessionTask) = state.withLock { state -> (Bool, URLSessionTask?) in
            guard state.waiters.removeValue(forKey: ObjectIdentifier(task)) != nil, state.waiters.isEmpty else { return (false, nil) }
            switch state.phase {
            case .finished, .abandoned:
                return (false, nil)
            case .loading(let sessionTask):
                state.phase = .abandoned
                return (true, sessionTask)
            case .queued, .decoding:
                state.phase = .abandoned
                return (true, nil)
            }
        }
        guard abandoned else { return nil }
        return { [self] in
            sessionTask?.cancel()
            onAbandon(self)
        }
    }

    /// queued → loading; false when the job was abandoned while it waited.
    func beginLoading() -> Bool {
        state.withLock { state in
            guard case .queued = state.phase else { return false }
            state.phase = .loading(nil)
            return true
        }
    }

    /// Records the session task so that abandoning cancels it; false when the
    /// job was abandoned meanwhile (the task must then not be resumed).
    func attach(_ sessionTask: URLSessionTask) -> Bool {
        state.withLock { state in
            guard case .loading(.none) = state.phase else { return false }
            state.phase = .loading(sessionTask)
            return true
        }
    }

    /// loading → decoding; false when the job was abandoned.
    func beginDecoding() -> Bool {
        state.withLock { state in
            guard case .loading = state.phase else { return false }
            state.phase = .decoding
            return true
        }
    }

    /// Moves to finished and returns the waiters to deliver to (none when the
    /// job was abandoned or had already finished). A session task still
    /// loading (the loader is being invalidated) is cancelled.
    func finish() -> [ImageTask] {
        let (waiters, loading) = state.withLock { state -> ([ImageTask], URLSessionTask?) in
            switch state.phase {
            case .finished, .abandoned:
                return ([], nil)
            case .queued, .loading, .decoding:
                var loading: URLSessionTask?
                if case .loading(let task) = state.phase { loading = task }
                state.phase = .finished
                defer { state.waiters.removeAll() }
                return (state.waiters.values.map(\.task), loading)
            }
        }
        loading?.cancel()
        return waiters
    }
}
