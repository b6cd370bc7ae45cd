import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What a connection asks of its server.
protocol HTTPConnectionOwner: AnyObject, Sendable {
    var configuration: ServerConfiguration { get }
    /// True once the server drains: answers close their connections.
    var isDraining: Bool { get }
    /// Answers `request` (on any thread, once); what waits on its behalf is
    /// dropped when `cancellation` fires (the client left).
    func respond(to request: HTTPRequest, cancellation: RequestCancellation, _ completion: @escaping @Sendable (HTTPResponse) -> Void)
    /// An answer was written (or a refusal, with no request): log and count it.
    func answered(_ request: HTTPRequest?, _ response: HTTPResponse, peer: String, started: DispatchTime)
}

/// One client connection served through Dispatch (the server's transport
/// off Linux; on Linux ``EventLoopConnection``): reads request heads, hands each to the owner,
/// writes the answers, one request at a time (pipelined requests wait in the
/// buffer, bounded by the head limits), and keeps time:
/// - idle (no byte of a next request): ``ServerConfiguration/idleTimeout``, then close;
/// - reading a head: ``ServerConfiguration/headerTimeout`` from its first
///   byte, whatever trickles in after (a slow client cannot hold it open), then 408;
/// - writing: ``ServerConfiguration/writeTimeout`` without progress, then close.
/// While an answer is prepared nothing is read: TCP holds the client back.
///
/// The socket is non-blocking; reads and writes are dispatch sources on
/// the connection's serial queue. The hot path of an answer known at once
/// (the answer cache, `/health`) stays on that queue from the read to the
/// write: no hop to another queue, no timer re-armed (one timer keeps the
/// deadline, see ``setDeadline(_:)``), the read source suspended only when
/// bytes arrive while an answer is under way, and head and body written
/// with one `sendmsg`.
final class HTTPConnection: @unchecked Sendable {
    // @unchecked: every mutable property below is read and written only on
    // `queue`, a serial queue (each entry point hops onto it).
    private enum Phase { case idle, readingHead, handling, writing, closed }

    let fd: Int32
    let peer: String
    private let queue: DispatchQueue
    private weak var owner: HTTPServer?
    private let configuration: ServerConfiguration
    private let parser: HTTPRequestParser
    private var phase = Phase.idle
    private var buffer: [UInt8] = []
    private var readSource: DispatchSourceRead?
    private var readSuspended = false
    private var writeSource: DispatchSourceWrite?
    private var writeSuspended = true
    private let timer: DispatchSourceTimer
    /// When the wait in progress (idle, head or write) ends; `.distantFuture`: none.
    private var deadline = DispatchTime.distantFuture
    /// When `timer` fires next (never after `deadline`); `.distantFuture`: not armed.
    private var timerFires = DispatchTime.distantFuture
    /// The farthest ahead the timer is armed: the shortest timeout, so that a
    /// new deadline (always at least that far off) never needs it re-armed.
    private let timerReach: TimeInterval
    private var outgoing = OutgoingAnswer()
    /// The request being answered, cancelled when the connection closes first.
    private var cancellation: RequestCancellation?
    private var closeAfterWrite = false
    private var draining = false
    private var liveSources = 0
    private var requestStarted = DispatchTime.now()

    /// The most bytes one `recv` takes.
    private static let readSize = 16 * 1024

    init(fd: Int32, peer: String, owner: HTTPServer) {
        self.fd = fd
        self.peer = peer
        self.owner = owner
        configuration = owner.configuration
        parser = HTTPRequestParser(limits: configuration.limits)
        queue = DispatchQueue(label: "URLSchemeServer.connection", target: .global())
        timer = DispatchSource.makeTimerSource(queue: queue)
        timerReach = max(0.001, min(configuration.idleTimeout, configuration.headerTimeout, configuration.writeTimeout))
    }

    /// Starts reading.
    func start() {
        queue.async { [self] in
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler { [self] in readable() }
            source.setCancelHandler { [self] in sourceCancelled() }
            liveSources += 1
            readSource = source
            timer.setEventHandler { [self] in timerFired() }
            timer.resume()
            setDeadline(configuration.idleTimeout)
            source.resume()
        }
    }

    /// Closes the connection once it has no request in progress.
    func drain() {
        queue.async { [self] in
            draining = true
            if phase == .idle && buffer.isEmpty { close() }
        }
    }

    /// Ends the wait in progress `seconds` from now. Only a stored time in
    /// the common case: the timer is armed at most ``timerReach`` ahead, so
    /// it already fires before any new deadline and is re-armed only when it
    /// fires early (``timerFired()``). Re-arming a dispatch timer wakes
    /// Dispatch's manager thread; three re-arms per request were a third of
    /// a cached answer's time.
    private func setDeadline(_ seconds: TimeInterval) {
        let now = DispatchTime.now()
        deadline = now + seconds
        if timerFires > deadline { armTimer(now: now) }
    }

    /// No wait in progress: the timer, when it fires, finds nothing due and is not re-armed.
    private func clearDeadline() {
        deadline = .distantFuture
    }

    private func armTimer(now: DispatchTime) {
        timerFires = min(deadline, now + timerReach)
        timer.schedule(deadline: timerFires)
    }

    private func timerFired() {
        guard phase != .closed else { return }
        let now = DispatchTime.now()
        timerFires = .distantFuture
        if now >= deadline { return timedOut() }
        if deadline != .distantFuture { armTimer(now: now) }
    }

    private func timedOut() {
        switch phase {
        case .idle, .writing: close()
        case .readingHead: send(HTTPResponse.headerTimeout(configuration.headerTimeout), for: nil, closing: true)
        case .handling, .closed: break
        }
    }

    private func readable() {
        guard phase == .idle || phase == .readingHead else {
            // Bytes while an answer is under way: read nothing more until it is written (TCP holds the client back).
            return suspendReading()
        }
        let count = withUnsafeTemporaryAllocation(byteCount: Self.readSize, alignment: 16) { chunk -> Int in
            let count = recv(fd, chunk.baseAddress, chunk.count, 0)
            if count > 0 { buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count])) }
            return count
        }
        if count == 0 { return close() }
        if count < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
            return close()
        }
        process()
    }

    /// Parses what the buffer holds: a request is handed to the owner, a
    /// refusal answered (and the connection closed), a partial head waited for.
    private func process() {
        guard phase == .idle || phase == .readingHead else { return }
        guard !buffer.isEmpty else { return }
        if phase == .idle {
            phase = .readingHead
            requestStarted = .now()
            setDeadline(configuration.headerTimeout)
        }
        switch parser.parse(buffer) {
        case .incomplete:
            return
        case .refused(let error):
            send(HTTPResponse.refusal(error), for: nil, closing: true)
        case .request(let request, let consumed):
            buffer.removeFirst(consumed)
            phase = .handling
            clearDeadline()
            guard let owner else { return close() }
            // An answer given before `respond` returns (a cached one) is written
            // here, on this queue; a later one (a render's) hops onto it. (Writing
            // a render's answer through `sync` on the thread that finished it was
            // tried: a miss added 0.4–5.5 ms to its render instead of 0.3–1.1 ms, Benchmarks/serve-wrk.sh's miss table.)
            let handoff = Handoff()
            let cancellation = RequestCancellation()
            self.cancellation = cancellation
            owner.respond(to: request, cancellation: cancellation) { [self] response in
                guard !handoff.keep(response) else { return }
                queue.async { [self] in answer(response, to: request) }
            }
            if let response = handoff.take() { answer(response, to: request) }
        }
    }

    private func answer(_ response: HTTPResponse, to request: HTTPRequest) {
        guard phase == .handling else { return }
        cancellation = nil
        send(response, for: request, closing: !request.keepsAlive || draining || (owner?.isDraining ?? true))
    }

    private func send(_ response: HTTPResponse, for request: HTTPRequest?, closing: Bool) {
        outgoing = OutgoingAnswer(response, for: request, closing: closing)
        closeAfterWrite = closing
        phase = .writing
        owner?.answered(request, response, peer: peer, started: requestStarted)
        setDeadline(configuration.writeTimeout)
        flush()
    }

    private func flush() {
        guard phase == .writing else { return }
        while !outgoing.isComplete {
            let count = outgoing.write(to: fd)
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return waitWritable() }
                return close()
            }
            if !outgoing.isComplete { setDeadline(configuration.writeTimeout) }
        }
        if let writeSource, !writeSuspended {
            writeSource.suspend()
            writeSuspended = true
        }
        outgoing = OutgoingAnswer()
        if closeAfterWrite { return close() }
        phase = .idle
        setDeadline(configuration.idleTimeout)
        resumeReading()
        process()  // a pipelined request may be waiting in the buffer
    }

    private func waitWritable() {
        if writeSource == nil {
            let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler { [self] in flush() }
            source.setCancelHandler { [self] in sourceCancelled() }
            liveSources += 1
            writeSource = source
        }
        if writeSuspended {
            writeSuspended = false
            writeSource?.resume()
        }
    }

    private func suspendReading() {
        guard !readSuspended, let readSource else { return }
        readSource.suspend()
        readSuspended = true
    }

    private func resumeReading() {
        guard readSuspended, let readSource else { return }
        readSuspended = false
        readSource.resume()
    }

    private func close() {
        guard phase != .closed else { return }
        if phase == .handling { cancellation?.cancel() }
        cancellation = nil
        phase = .closed
        timer.cancel()
        // The socket is closed when every source on it has been cancelled (the cancel handlers run last).
        readSource?.cancel()
        resumeReading()
        writeSource?.cancel()
        if writeSuspended { writeSuspended = false; writeSource?.resume() }
        if liveSources == 0 { finishClose() }
    }

    private func sourceCancelled() {
        liveSources -= 1
        if liveSources == 0 && phase == .closed { finishClose() }
    }

    private func finishClose() {
        Glibc.close(fd)
        buffer = []
        outgoing = OutgoingAnswer()
        owner?.closed(self)
    }

    /// Where an answer meets the connection: kept when it comes while
    /// `respond` is still running (then written by the code that called it),
    /// else the answer hops onto the connection's queue.
    private final class Handoff: Sendable {
        private enum State { case waiting, kept(HTTPResponse), late }
        private let state = Mutex(State.waiting)

        /// Keeps `response` when `respond` has not returned yet; false: the caller hops.
        func keep(_ response: HTTPResponse) -> Bool {
            state.withLock { state in
                guard case .waiting = state else { return false }
                state = .kept(response)
                return true
            }
        }

        /// The answer kept while `respond` ran, if any; after this, answers hop.
        func take() -> HTTPResponse? {
            state.withLock { state in
                if case .kept(let response) = state { return response }
                state = .late
                return nil
            }
        }
    }
}
