import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One caller's request to an `ImageLoader`: a waiter on a load that may be
/// shared with other callers. Cancelling it withdraws this caller only; the
/// shared load stops when its last waiter has gone.
///
///     created ──start──► waiting(on a shared load, or none yet) ──finish──► done
///        │                  │
///        └──cancel──► done  └──cancel──► done (leaves the shared load)
///
/// The handler hears exactly one outcome: whoever moves the task to `done`
/// delivers it (a result, or `URLError(.cancelled)`).
public final class ImageTask: Sendable {
    /// The URL asked for.
    public let url: URL
    /// The target size asked for (nil for the source size, or for a data load).
    public let size: ImageTargetSize?

    typealias Handler = @Sendable (Result<ImageLoadOutput, Error>) -> Void

    private enum Phase {
        case created
        case waiting(ImageLoadJob?)
        case done
    }

    private struct State {
        var phase = Phase.created
        var priority: ImagePriority
        var handler: Handler?
    }

    private let state: Mutex<State>

    init(url: URL, size: ImageTargetSize?, priority: ImagePriority) {
        self.url = url
        self.size = size
        state = Mutex(State(priority: priority))
    }

    /// How urgently this caller wants the image. Raising it raises the shared
    /// load's priority (a load runs at the highest priority among its waiters).
    public var priority: ImagePriority {
        get { state.withLock { $0.priority } }
        set {
            let job = state.withLock { state -> ImageLoadJob? in
                state.priority = newValue
                if case .waiting(let job) = state.phase { return job }
                return nil
            }
            job?.update(self, priority: newValue)
        }
    }

    /// Withdraws this request: its handler gets `URLError(.cancelled)` unless it
    /// already had its outcome; the shared load stops if no one else waits for it.
    public func cancel() {
        withdraw()?()
    }

    /// Marks the task done and leaves its shared load; returns the rest of the
    /// cancellation (stopping an abandoned load, telling the handler) to run
    /// outside any lock, after a batch of withdrawals if there is one.
    func withdraw() -> (@Sendable () -> Void)? {
        let (handler, job, wasWaiting) = state.withLock { state -> (Handler?, ImageLoadJob?, Bool) in
            switch state.phase {
            case .done:
                return (nil, nil, false)
            case .created:
                state.phase = .done
                return (nil, nil, false)  // start() reports the cancellation
            case .waiting(let job):
                state.phase = .done
                defer { state.handler = nil }
                return (state.handler, job, true)
            }
        }
        let stopLoad = job?.remove(self)
        guard wasWaiting else { return stopLoad }
        let url = self.url
        return {
            stopLoad?()
            handler?(.failure(Self.cancelledError(url)))
        }
    }

    /// Moves created → waiting with `handler`; false (and the cancellation
    /// delivered) when the task was cancelled before it started.
    func start(handler: @escaping Handler) -> Bool {
        let started = state.withLock { state -> Bool in
            guard case .created = state.phase else { return false }
            state.phase = .waiting(nil)
            state.handler = handler
            return true
        }
        if !started { handler(.failure(Self.cancelledError(url))) }
        return started
    }

    /// Records the shared load this task waits on; false when the task is
    /// already done (cancelled meanwhile), so the caller must leave the load.
    func attach(to job: ImageLoadJob) -> Bool {
        state.withLock { state in
            guard case .waiting = state.phase else { return false }
            state.phase = .waiting(job)
            return true
        }
    }

    /// Delivers `result` unless the task is already done.
    func finish(_ result: Result<ImageLoadOutput, Error>) {
        let handler = state.withLock { state -> Handler? in
            guard case .waiting = state.phase else { return nil }
            state.phase = .done
            defer { state.handler = nil }
            return state.handler
        }
        handler?(result)
    }

    static func cancelledError(_ url: URL) -> URLError {
        URLErrors.make(.cancelled, "the load of \(url.absoluteString) was cancelled", url: url)
    }
}
