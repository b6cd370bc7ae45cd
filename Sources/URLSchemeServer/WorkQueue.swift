import Synchronization

/// Runs at most `workers` jobs at once and lets at most `capacity` more
/// wait, first come first served. A job past that is refused at once (the
/// server answers 503): memory stays bounded by workers + capacity whatever
/// the load. A job calls the `done` it is handed exactly once.
final class WorkQueue: Sendable {
    typealias Job = @Sendable (_ done: @escaping @Sendable () -> Void) -> Void

    private struct State {
        var running = 0
        var waiting: [Job] = []
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

    /// Starts `job` now, or queues it; false (and nothing is kept) when the queue is full.
    func submit(_ job: @escaping Job) -> Bool {
        let decision: Bool? = state.withLock { state in
            if state.running < workers {
                state.running += 1
                return true
            }
            guard state.waiting.count < capacity else { return nil }
            state.waiting.append(job)
            return false
        }
        guard let startNow = decision else { return false }
        if startNow { start(job) }
        return true
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
            return state.waiting.removeFirst()
        }
        if let next { start(next) }
    }
}
