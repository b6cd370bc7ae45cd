import Synchronization

/// Runs at most `limit` steps of shared loads at once (session loads, or
/// decodes), picking the waiting step whose job has the highest priority,
/// first come first served among equals. A step whose job was abandoned while
/// it waited is dropped without running.
///
/// A step is started outside the lock and calls `release` exactly once when
/// its slot is free again (for a session load: when the task completes).
final class PriorityLimiter: Sendable {
    typealias Step = @Sendable (_ release: @escaping @Sendable () -> Void) -> Void

    let limit: Int

    private struct Entry {
        let job: ImageLoadJob
        let step: Step
    }

    private struct State {
        var running = 0
        var waiting: [Entry] = []
    }

    private let state = Mutex(State())

    /// A limiter running at most `limit` steps at once (at least 1).
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `step` for `job` now if a slot is free, else when one is and no
    /// more urgent job waits.
    func submit(_ job: ImageLoadJob, _ step: @escaping Step) {
        let entry = Entry(job: job, step: step)
        let runNow = state.withLock { state -> Bool in
            guard state.running < limit else {
                state.waiting.append(entry)
                return false
            }
            state.running += 1
            return true
        }
        if runNow { run(entry) }
    }

    private func run(_ entry: Entry) {
        let released = Atomic<Bool>(false)
        entry.step { [self] in
            // A second call would free a slot that is not ours.
            guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
            if let next = nextEntry() { run(next) }
        }
    }

    /// Hands a freed slot to the most urgent live waiting step, or frees it.
    private func nextEntry() -> Entry? {
        state.withLock { state -> Entry? in
            state.waiting.removeAll { !$0.job.isLive }
            var best: Int?
            var bestPriority = ImagePriority.low
            for (index, entry) in state.waiting.enumerated() {
                let priority = entry.job.priority
                if best == nil || priority > bestPriority { (best, bestPriority) = (index, priority) }
                if priority == .high { break }  // nothing is more urgent; earlier ones first among equals
            }
            guard let best else {
                state.running -= 1
                return nil
            }
            return state.waiting.remove(at: best)
        }
    }
}
