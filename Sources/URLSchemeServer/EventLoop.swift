#if os(Linux)
import CLinuxEvents
import Dispatch
import Foundation
import Glibc
import Synchronization

/// One thread running one `epoll` instance and owning the connections
/// handed to it (``EventLoopConnection``): it reads, parses, answers what is
/// known at routing inline, writes, and keeps every connection's deadline.
/// ``HTTPServer`` runs one per core on Linux; the first also accepts, and
/// hands new connections to the loops in turn.
///
/// Why not Dispatch: a read source on Linux is re-armed through Dispatch's
/// manager thread after every event, and a timer per connection wakes it
/// too; `perf` put 38 % of a `/health` request's time there. Here a request
/// costs one `epoll_wait` wake-up (shared by every connection ready at
/// once), a `recv` and a `sendmsg`: no `epoll_ctl`, no thread hop.
///
/// **Edge-triggered** connections: each socket is added once with
/// `EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET` and never modified. Level
/// triggering would need an `epoll_ctl` to stop reading while an answer is
/// rendered (else the loop spins on the waiting bytes) and another to watch
/// `EPOLLOUT` only while a write is blocked: two system calls per request.
/// The price of edges is bookkeeping: a connection remembers that its
/// socket is readable (until a `recv` comes up short) or writable (until a
/// `sendmsg` would block), because no second event comes for the same state.
/// The **listener** is level-triggered: the loop accepts a bounded batch per
/// wake-up and is woken again for the rest, and at the connection cap it is
/// removed from the set (back-pressure: the kernel's backlog holds clients)
/// and added again when a connection closes.
///
/// **Timers**: no timer per connection. Each connection stores its deadline
/// (idle, head or write); the loop keeps the earliest one it has been told
/// of as the `epoll_wait` time-out and, when it passes, scans its
/// connections once, handling those due and finding the next earliest.
/// Deadlines only move later for a connection in use, so the scan runs
/// about once per shortest timeout, whatever the request rate.
///
/// **Other threads** (renders finishing on the ``WorkQueue``, the server
/// draining, the accepting loop handing a connection over) reach the loop
/// through ``execute(_:)``: a task list under a lock and an `eventfd` that
/// wakes `epoll_wait`, written only when the list was empty.
final class EventLoop: @unchecked Sendable {
    // @unchecked: `connections`, `nextScan`, `now`, `scratch`, `listener`,
    // `acceptPaused`, `acceptRetry`, `nextLoop` and `draining` are
    // read and written only on the loop's own thread (`run` and what it
    // calls, tasks included); `tasks` is a Mutex, `wakePending` and `thread` atomic, the rest immutable.
    private static let listenerToken = UInt64.max
    private static let wakeToken = UInt64.max - 1
    private static let batchSize: Int32 = 256
    /// The most bytes one `recv` takes: the connections' shared scratch buffer.
    static let readSize = 16 * 1024

    private let epoll: Int32
    private let wake: Int32
    private let server: HTTPServer  // strong: the server lives as long as its loops run (it did as long as its accept source before)
    let index: Int
    private let tasks = Mutex<(pending: [@Sendable () -> Void], stopped: Bool)>(([], false))
    private let wakePending = Atomic(false)
    private var connections: [Int32: EventLoopConnection] = [:]
    private var generation: UInt64 = 0
    /// The monotonic clock when `epoll_wait` last returned, in nanoseconds.
    private(set) var now: UInt64 = 0
    /// When the deadlines are scanned next; `.max`: no deadline is set.
    private var nextScan = UInt64.max
    /// Where connections `recv` into before appending what came to their buffers.
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: EventLoop.readSize, alignment: 16)
    /// The listening socket, on the loop that accepts (-1 elsewhere or once drained).
    private var listener: Int32 = -1
    private var acceptPaused = false
    /// When accepting is tried again after an error such as `EMFILE` (a
    /// level-triggered listener would otherwise wake the loop without end).
    private var acceptRetry = UInt64.max
    private var nextLoop = 0
    private var draining = false
    /// The loop's thread (`pthread_self`), 0 before it runs.
    private let thread = Atomic<UInt>(0)

    /// A loop of `server`; throws when the system gives no epoll instance or eventfd.
    init(server: HTTPServer, index: Int) throws {
        epoll = cle_create()
        guard epoll >= 0 else { throw ServerError("cannot create an epoll instance: \(String(cString: strerror(errno)))") }
        wake = cle_eventfd()
        guard wake >= 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(epoll)
            throw ServerError("cannot create an eventfd: \(reason)")
        }
        self.server = server
        self.index = index
        _ = cle_add(epoll, wake, cle_in | cle_edge, Self.wakeToken)
    }

    deinit {
        scratch.deallocate()
    }

    /// Starts the loop's thread; `listener`, when given, is accepted from on it.
    func start(listening listener: Int32?) {
        if let listener {
            self.listener = listener
            _ = cle_add(epoll, listener, cle_in, Self.listenerToken)
        }
        let thread = Thread { [self] in run() }
        thread.name = "URLSchemeServer.loop\(index)"
        thread.start()
    }

    /// Whether the caller runs on this loop's thread.
    var isCurrent: Bool { pthread_equal(pthread_self(), thread.load(ordering: .relaxed)) != 0 }

    /// Runs `task` on the loop's thread, soon; false (and not run) once the loop has stopped.
    @discardableResult
    func execute(_ task: @escaping @Sendable () -> Void) -> Bool {
        let accepted = tasks.withLock { tasks in
            guard !tasks.stopped else { return false }
            tasks.pending.append(task)
            return true
        }
        guard accepted else { return false }
        if !wakePending.exchange(true, ordering: .acquiringAndReleasing) {
            var one: UInt64 = 1
            _ = Glibc.write(wake, &one, 8)
        }
        return true
    }

    /// Takes the accepted socket `fd` of `peer` as a connection of this loop;
    /// closes it (and gives back its place under the cap) if the loop has stopped.
    func adopt(_ fd: Int32, peer: String) {
        if isCurrent { return start(fd, peer: peer) }
        guard execute({ [self] in start(fd, peer: peer) }) else {
            Glibc.close(fd)
            return server.connectionClosed()
        }
    }

    private func start(_ fd: Int32, peer: String) {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        generation &+= 1
        let token = generation << 32 | UInt64(UInt32(bitPattern: fd))
        let connection = EventLoopConnection(fd: fd, token: token, peer: peer, loop: self, owner: server)
        guard cle_add(epoll, fd, cle_in | cle_out | cle_rdhup | cle_edge, token) == 0 else {
            Glibc.close(fd)
            server.connectionClosed()
            return
        }
        connections[fd] = connection
        connection.start(draining: draining)
    }

    /// A connection closed its socket: forget it and give back its place under the cap.
    func closed(_ connection: EventLoopConnection) {
        if connections[connection.fd] === connection { connections[connection.fd] = nil }
        server.connectionClosed()
    }

    /// Notes that a connection waits until `deadline`: the scan runs by then.
    func noteDeadline(_ deadline: UInt64) {
        if deadline < nextScan { nextScan = deadline }
    }

    /// Stops accepting (closing the listener), closes idle connections and lets the others finish.
    func drain() {
        draining = true
        if listener >= 0 {
            _ = cle_remove(epoll, listener)
            Glibc.close(listener)
            listener = -1
        }
        for connection in Array(connections.values) { connection.drain() }
    }

    /// Accepts again after the cap was reached, if it was.
    func resumeAccepting() {
        guard acceptPaused, listener >= 0 else { return }
        acceptPaused = false
        acceptRetry = .max
        _ = cle_add(epoll, listener, cle_in, Self.listenerToken)
    }

    static func monotonicNow() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private func run() {
        thread.store(pthread_self(), ordering: .relaxed)
        var tokens = [UInt64](repeating: 0, count: Int(Self.batchSize))
        var events = [UInt32](repeating: 0, count: Int(Self.batchSize))
        while !(draining && connections.isEmpty) {
            let before = Self.monotonicNow()
            let timeout: Int32 = nextScan == .max ? -1
                : nextScan <= before ? 0 : Int32(clamping: (nextScan - before + 999_999) / 1_000_000)
            let count = cle_wait(epoll, &tokens, &events, Self.batchSize, timeout)
            now = Self.monotonicNow()
            if count < 0 {
                if errno == EINTR { continue }
                fatalError("epoll_wait: \(String(cString: strerror(errno)))")  // EBADF/EINVAL: the loop's own descriptors are broken
            }
            for index in 0..<Int(count) {
                switch tokens[index] {
                case Self.listenerToken: acceptWaiting()
                case Self.wakeToken: runTasks()
                case let token:
                    let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: token))
                    // The token's generation tells a closed connection's late event from its fd's next owner.
                    guard let connection = connections[fd], connection.token == token else { continue }
                    connection.handle(events[index])
                }
            }
            if now >= nextScan { scanDeadlines() }
        }
        tasks.withLock { $0.stopped = true }
        runTasks()  // connections handed over meanwhile: started draining, they close at once
        Glibc.close(epoll)
        Glibc.close(wake)
    }

    private func runTasks() {
        // The eventfd is read before the flag is cleared: cleared first, a task
        // handed over in between would write the eventfd, have that write read
        // here, and leave the flag set with nothing to wake the loop again, so
        // every later task (a connection handed over, a render's answer) waited.
        var count: UInt64 = 0
        _ = Glibc.read(wake, &count, 8)
        wakePending.store(false, ordering: .sequentiallyConsistent)
        let pending = tasks.withLock { tasks in
            defer { tasks.pending = [] }
            return tasks.pending
        }
        for task in pending { task() }
    }

    private func scanDeadlines() {
        nextScan = .max
        if acceptRetry <= now { resumeAccepting() }
        noteDeadline(acceptRetry)
        var due: [EventLoopConnection] = []
        for connection in connections.values {
            if connection.deadline <= now { due.append(connection) } else { noteDeadline(connection.deadline) }
        }
        for connection in due { connection.timedOut() }
    }

    /// Accepts a batch of waiting connections (up to the cap), handing them to the loops in turn.
    private func acceptWaiting() {
        for _ in 0..<64 {
            guard listener >= 0 else { return }
            guard server.reserveConnection() else { return pauseAccepting(retry: false) }
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            guard fd >= 0 else {
                let error = errno
                server.connectionClosed()
                switch error {
                case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED, EPROTO: return
                default: return pauseAccepting(retry: true)  // EMFILE, ENFILE, ENOBUFS: try again in a while
                }
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // a child process (a test's, a tool's) never inherits a client
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            let loops = server.loops
            let loop = loops[nextLoop % loops.count]
            nextLoop = (nextLoop + 1) % loops.count
            loop.adopt(fd, peer: HTTPServer.describe(&address))
        }
    }

    private func pauseAccepting(retry: Bool) {
        if !acceptPaused {
            acceptPaused = true
            _ = cle_remove(epoll, listener)
            if !retry && server.acceptingPaused() { return resumeAccepting() }  // a place came free meanwhile
        }
        if retry {
            acceptRetry = now + 100_000_000
            noteDeadline(acceptRetry)
        }
    }
}
#endif
