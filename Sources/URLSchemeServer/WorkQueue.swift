import Synchronization

/// Runs at most `workers` jobs at once and lets at most `capacity` more
/// wait, first come first served. A job past that is refused at once (the
/// server answers 503): memory stays bounded by workers + capacity whatever
/// the load. A job calls the `done` it is handed exactly once. A waiting job
/// whose request is cancelled (its client left) is dropped from the queue
/// without running, and its place goes to the next.
final class WorkQueue: Sendable {
    typealias Job = @Sendable (_ done: @escaping @Sendable () -> Void) -> Void

    private struct State {
        var running = 0
        var waiting: [(id: Int, job: Job)] = []
        var nextID = 0
        var cancelled = 0
    }

    let workers: Int
    let capacity: Int
    private let state = Mutex(State())

    init(workers: Int, capacity: Int) {
        self.workers = max(1, workers)
        self.capacity = max(0, capacity)
    }

    /// Jobs waiting for a worker.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Jobs running.
    var runningCount: Int { state.withLock { $0.running } }

    /// Jobs dropped from the queue before they started, their requests cancelled.
    var cancelledCount: Int { state.withLock { $0.cancelled } }

    /// Starts `job` now, or queues it until a worker is free or `cancellation`
    /// fires (then it never runs); false (and nothing is kept) when the queue is full.
    func submit(cancellation: RequestCancellation? = nil, _ job: @escaping Job) -> Bool {
        let decision: Int?? = state.withLock { state in
            if state.running < workers {
                state.running += 1
                return .some(nil)
            }
            guard state.waiting.count < capacity else { return nil }
            state.nextID += 1
            state.waiting.append((state.nextID, job))
            return .some(state.nextID)
        }
        switch decision {
        case nil: return false
        case .some(nil): start(job)
        case .some(let id?): cancellation?.onCancel { [self] in withdraw(id) }
        }
        return true
    }

    /// Drops the waiting job `id`, if it has not started.
    private func withdraw(_ id: Int) {
        state.withLock { state in
            guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return }
            state.waiting.remove(at: index)
            state.cancelled += 1
        }
    }

    private func start(_ job: @escaping Job) {
        let once = Mutex(false)
        job { [self] in
            guard once.withLock({ done in defer { done = true }; return !done }) else { return }
            finished()
        }
    }

    /// A job ended: hand its worker to the next waiting job, if any.
    private func finished() {
        let next: Job? = state.withLock { state in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst().job
        }
        if let next { start(next) }
    }
}
