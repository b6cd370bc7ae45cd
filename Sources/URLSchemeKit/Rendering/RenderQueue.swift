import Foundation
import MapRendering
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
///
/// A render waiting for input (a tile from a server, a byte range of a
/// PMTiles archive: `RenderCancellation.waitingForInput(_:)`) lends its slot
/// to the next render meanwhile, and takes a slot again, before any render
/// not yet started, when its input has come. So one slow tile server holds
/// threads, not slots, and cannot stall other users' renders. At most
/// `maximumWaitingRenders` wait so at once (each holds a thread); past that a
/// render waits in its slot.
public final class RenderQueue: Sendable {
    /// The queue all scheme protocols share: one render per active processor.
    public static let shared = RenderQueue(maximumConcurrentRenders: ProcessInfo.processInfo.activeProcessorCount)

    /// How many renders may run at once (at least 1).
    public let maximumConcurrentRenders: Int
    /// How many renders may wait for input with their slot lent at once.
    public let maximumWaitingRenders: Int

    private struct Job {
        let cancellation: RenderCancellation
        let body: @Sendable () -> Void
    }

    /// Where a freed slot goes.
    private enum Successor {
        case resume(DispatchSemaphore)
        case run(Job)
        case none
    }

    private struct State {
        /// Slots in use: by running renders and by those being handed one.
        var running = 0
        /// Renders waiting for input, their slot lent.
        var lent = 0
        var pending: [Job] = []
        var head = 0
        /// Renders whose input came, each waiting on its semaphore for a slot.
        var resuming: [DispatchSemaphore] = []
    }

    private let state = Mutex(State())
    private let workers: DispatchQueue

    /// A queue running at most `maximumConcurrentRenders` renders at once (at
    /// least 1), and letting up to `maximumWaitingRenders` (by default four
    /// per slot, at least 16) wait for input without a slot.
    public init(maximumConcurrentRenders: Int, maximumWaitingRenders: Int? = nil) {
        self.maximumConcurrentRenders = max(1, maximumConcurrentRenders)
        self.maximumWaitingRenders = max(0, maximumWaitingRenders ?? max(16, 4 * self.maximumConcurrentRenders))
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
            if !job.cancellation.isCancelled {
                job.cancellation.lendWhileWaiting(Lease(queue: self))
                job.body()
                job.cancellation.lendWhileWaiting(nil)
            }
            self.handOver()
        }
    }

    /// Gives a freed slot to the first render resuming after its input, else
    /// to the next live pending job, else frees it.
    private func handOver() {
        let successor = state.withLock { state -> Successor in
            if !state.resuming.isEmpty { return .resume(state.resuming.removeFirst()) }
            while state.head < state.pending.count {
                let job = state.pending[state.head]
                state.head += 1
                if state.head > 1024, state.head * 2 > state.pending.count {
                    state.pending.removeFirst(state.head)
                    state.head = 0
                }
                if !job.cancellation.isCancelled { return .run(job) }
            }
            state.pending.removeAll(keepingCapacity: true)
            state.head = 0
            state.running -= 1
            return .none
        }
        switch successor {
        case .resume(let semaphore): semaphore.signal()
        case .run(let job): run(job)
        case .none: break
        }
    }

    /// Lends the calling render's slot to the next one: false when
    /// `maximumWaitingRenders` already wait (the render keeps its slot).
    fileprivate func lend() -> Bool {
        let lent = state.withLock { state -> Bool in
            guard state.lent < maximumWaitingRenders else { return false }
            state.lent += 1
            return true
        }
        if lent { handOver() }
        return lent
    }

    /// Takes a slot for a render whose input came, waiting for one to free
    /// (ahead of every render not yet started).
    fileprivate func reclaim() {
        let semaphore = state.withLock { state -> DispatchSemaphore? in
            state.lent -= 1
            guard state.running >= maximumConcurrentRenders else {
                state.running += 1
                return nil
            }
            let semaphore = DispatchSemaphore(value: 0)
            state.resuming.append(semaphore)
            return semaphore
        }
        semaphore?.wait()
    }
}

/// The slot one running render holds: lent while any of its threads waits
/// for input, taken back when the last stops waiting.
private final class Lease: RenderSlot {
    private struct State {
        var waiters = 0
        var lent = false
        /// Taking the slot back: a wait starting meanwhile keeps it.
        var reclaiming = false
    }

    private let queue: RenderQueue
    private let state = Mutex(State())

    init(queue: RenderQueue) {
        self.queue = queue
    }

    func beginInputWait() {
        state.withLock { state in
            state.waiters += 1
            if state.waiters == 1, !state.lent, !state.reclaiming { state.lent = queue.lend() }
        }
    }

    func endInputWait() {
        let reclaim = state.withLock { state -> Bool in
            state.waiters -= 1
            guard state.waiters == 0, state.lent else { return false }
            state.lent = false
            state.reclaiming = true
            return true
        }
        guard reclaim else { return }
        queue.reclaim()
        state.withLock { $0.reclaiming = false }
    }
}
