import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs renders off URLSession's shared work queue with bounded concurrency.
///
/// All sessions in a process share one serial queue on Linux, so a protocol
/// that rendered in `startLoading()` would stall every other session. Renders
/// run here instead, at most `maximumConcurrentRenders` at once, first in
/// first out; a render cancelled while waiting is dropped without running.
/// At most `pendingLimit` wait (the environment's `ResourceBudget.pendingRenders`): past that, `submit` refuses
/// the render at once, so a flood of requests costs a bounded queue and an
/// error each, not unbounded memory and latency.
public final class RenderQueue: Sendable {
    /// The queue all scheme protocols share: one render per active processor.
    public static let shared = RenderQueue(maximumConcurrentRenders: ProcessInfo.processInfo.activeProcessorCount)

    /// How many renders may run at once (at least 1).
    public let maximumConcurrentRenders: Int

    private struct Job {
        let cancellation: RenderCancellation
        let body: @Sendable () -> Void
    }

    private struct State {
        var running = 0
        var pending: [Job] = []
        var head = 0
    }

    private let state = Mutex(State())
    private let workers: DispatchQueue

    /// A queue running at most `maximumConcurrentRenders` renders at once (at least 1).
    public init(maximumConcurrentRenders: Int) {
        self.maximumConcurrentRenders = max(1, maximumConcurrentRenders)
        workers = DispatchQueue(label: "URLSchemeKit.RenderQueue", qos: .userInitiated, attributes: .concurrent)
    }

    /// Number of renders waiting for a free slot (cancelled ones included until dropped).
    var pendingCount: Int { state.withLock { $0.pending.count - $0.head } }

    /// Queues `body`; it runs when a slot is free, unless `cancellation` fired first.
    /// Throws `URLError(.resourceUnavailable)` (and never runs `body`) when
    /// `pendingLimit` renders are already waiting.
    func submit(cancellation: RenderCancellation, pendingLimit limit: Int = ResourceBudget().pendingRenders,
                       _ body: @escaping @Sendable () -> Void) throws {
        let job = Job(cancellation: cancellation, body: body)
        let startNow = try state.withLock { state -> Bool in
            guard state.running < maximumConcurrentRenders else {
                guard state.pending.count - state.head < limit else {
                    throw URLErrors.make(.resourceUnavailable, "too many renders are waiting (\(limit), ResourceBudget.pendingRenders); try again later", url: nil)
                }
                state.pending.append(job)
                return false
            }
            state.running += 1
            return true
        }
        if startNow { run(job) }
    }

    private func run(_ job: Job) {
        workers.async {
            if !job.cancellation.isCancelled { job.body() }
            if let next = self.nextJob() { self.run(next) }
        }
    }

    /// Hands the finished job's slot to the next live pending job, or frees it.
    private func nextJob() -> Job? {
        state.withLock { state -> Job? in
            while state.head < state.pending.count {
                let job = state.pending[state.head]
                state.head += 1
                if state.head > 1024, state.head * 2 > state.pending.count {
                    state.pending.removeFirst(state.head)
                    state.head = 0
                }
                if !job.cancellation.isCancelled { return job }
            }
            state.pending.removeAll(keepingCapacity: true)
            state.head = 0
            state.running -= 1
            return nil
        }
    }
}
