#if os(Linux)
import CLinuxEvents
import Dispatch
import Foundation
import Glibc

/// One client connection on an ``EventLoop`` (Linux): reads request heads,
/// hands each to the server, writes the answers, one request at a time
/// (pipelined requests wait in the buffer, bounded by the head limits), and
/// keeps time with a deadline the loop scans (see ``EventLoop``):
/// - idle (no byte of a next request): ``ServerConfiguration/idleTimeout``, then close;
/// - reading a head: ``ServerConfiguration/headerTimeout`` from its first
///   byte, whatever trickles in after, then 408;
/// - writing: ``ServerConfiguration/writeTimeout`` without progress, then close.
///
/// An answer known while the request is routed (the answer cache, a 304,
/// an error, `/health`) is written at once on the loop; one that comes
/// later (a render's, from the ``WorkQueue``) is handed back to the loop.
/// While an answer is prepared nothing is read (TCP holds the client back),
/// but a client that hangs up is noticed (`EPOLLRDHUP`): its connection
/// closes and its request is cancelled (``RequestCancellation``), so a
/// render still waiting in the queue is dropped. As nginx does, a client
/// that shuts down its sending side while it waits counts as gone.
final class EventLoopConnection: @unchecked Sendable {
    // @unchecked: every mutable property is read and written only on the
    // loop's thread; other threads reach it through `loop.execute`.
    private enum Phase { case idle, readingHead, handling, writing, closed }

    let fd: Int32
    /// The loop's token of this connection's events (its fd and a generation).
    let token: UInt64
    let peer: String
    private let loop: EventLoop
    private weak var owner: (any HTTPConnectionOwner)?
    private let configuration: ServerConfiguration
    private let parser: HTTPRequestParser
    private var phase = Phase.idle
    private var buffer: [UInt8] = []
    /// The socket may have bytes to read (an edge came and no `recv` came up short since).
    private var readable = true
    /// The socket took the last write whole (an `EAGAIN` waits for the next `EPOLLOUT` edge).
    private var writable = true
    /// The client shut down its side (`EPOLLRDHUP`).
    private var hungUp = false
    private var outgoing = OutgoingAnswer()
    private var closeAfterWrite = false
    private var draining = false
    /// The request being answered, cancelled when the client leaves first.
    private var cancellation: RequestCancellation?
    /// True while the owner routes a request: an answer given meanwhile on this thread is kept in `inlineAnswer`.
    private var routing = false
    private var inlineAnswer: HTTPResponse?
    private var requestStarted = DispatchTime.now()
    /// When the wait in progress ends, on ``EventLoop/monotonicNow()``'s clock; `.max`: no wait.
    private(set) var deadline = UInt64.max

    init(fd: Int32, token: UInt64, peer: String, loop: EventLoop, owner: any HTTPConnectionOwner) {
        self.fd = fd
        self.token = token
        self.peer = peer
        self.loop = loop
        self.owner = owner
        configuration = owner.configuration
        parser = HTTPRequestParser(limits: configuration.limits)
    }

    /// Starts waiting for the first request (closes at once when the server drains).
    func start(draining: Bool) {
        self.draining = draining
        setDeadline(configuration.idleTimeout)
        drive()
    }

    /// Closes the connection once it has no request in progress.
    func drain() {
        draining = true
        if phase == .idle && buffer.isEmpty { close() }
    }

    /// An epoll event for the socket.
    func handle(_ events: UInt32) {
        guard phase != .closed else { return }
        if events & (cle_err | cle_hup) != 0 { return close() }  // reset, or both sides shut: nobody to answer
        if events & cle_rdhup != 0 { hungUp = true }
        if events & cle_in != 0 { readable = true }
        if events & cle_out != 0 {
            writable = true
            if phase == .writing { flush() }
        }
        drive()
    }

    /// Reads and answers what it can, until it waits for the client, a render or the socket.
    private func drive() {
        while true {
            process()
            guard phase == .idle || phase == .readingHead, readable else { break }
            let count = recv(fd, loop.scratch.baseAddress, EventLoop.readSize, 0)
            if count > 0 {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: loop.scratch[0..<count]))
                // A short read emptied the socket: wait for the next edge (after a hang-up, read on to the end).
                if count < EventLoop.readSize && !hungUp { readable = false }
            } else if count == 0 {
                return close()
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                readable = false
            } else if errno != EINTR {
                return close()
            }
        }
        if phase == .handling && hungUp { return close() }  // the client left while its answer was prepared
        if draining && phase == .idle && buffer.isEmpty { close() }
    }

    /// Parses what the buffer holds: each request is routed (and answered
    /// at once when its answer is known), a refusal answered (and the
    /// connection closed), a partial head waited for.
    private func process() {
        while phase == .idle || phase == .readingHead, !buffer.isEmpty {
            if phase == .idle {
                phase = .readingHead
                requestStarted = .now()
                setDeadline(configuration.headerTimeout)
            }
            switch parser.parse(buffer) {
            case .incomplete:
                return
            case .refused(let error):
                return send(HTTPResponse.refusal(error), for: nil, closing: true)
            case .request(let request, let consumed):
                buffer.removeFirst(consumed)
                phase = .handling
                deadline = .max
                route(request)
            }
        }
    }

    private func route(_ request: HTTPRequest) {
        guard let owner else { return close() }
        let cancellation = RequestCancellation()
        self.cancellation = cancellation
        routing = true
        owner.respond(to: request, cancellation: cancellation) { [self, loop] response in
            if loop.isCurrent {
                // On the loop only while routing (renders finish on other threads); written below.
                if routing { inlineAnswer = response } else { answer(response, to: request, of: cancellation) }
            } else {
                loop.execute { [self] in
                    answer(response, to: request, of: cancellation)
                    if phase != .closed { drive() }
                }
            }
        }
        routing = false
        if let response = inlineAnswer {
            inlineAnswer = nil
            answer(response, to: request, of: cancellation)
        }
    }

    private func answer(_ response: HTTPResponse, to request: HTTPRequest, of cancellation: RequestCancellation) {
        guard phase == .handling, self.cancellation === cancellation else { return }
        self.cancellation = nil
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
        while !outgoing.isComplete {
            guard writable else { return }
            let count = outgoing.write(to: fd)
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    writable = false
                    return
                }
                return close()
            }
            if !outgoing.isComplete { setDeadline(configuration.writeTimeout) }
        }
        outgoing = OutgoingAnswer()
        if closeAfterWrite { return close() }
        phase = .idle
        setDeadline(configuration.idleTimeout)
    }

    /// The loop found the deadline passed.
    func timedOut() {
        deadline = .max
        switch phase {
        case .idle, .writing: close()
        case .readingHead: send(HTTPResponse.headerTimeout(configuration.headerTimeout), for: nil, closing: true)
        case .handling, .closed: break
        }
    }

    private func setDeadline(_ seconds: TimeInterval) {
        deadline = loop.now + UInt64(max(0, seconds) * 1e9)
        loop.noteDeadline(deadline)
    }

    private func close() {
        guard phase != .closed else { return }
        let wasHandling = phase == .handling
        phase = .closed
        deadline = .max
        Glibc.close(fd)  // also takes it out of the epoll set
        buffer = []
        outgoing = OutgoingAnswer()
        if wasHandling { cancellation?.cancel() }
        cancellation = nil
        loop.closed(self)
    }
}
#endif
