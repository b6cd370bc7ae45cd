import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a connection asks of its server.
protocol HTTPConnectionOwner: AnyObject, Sendable {
    var configuration: ServerConfiguration { get }
    /// True once the server drains: answers close their connections.
    var isDraining: Bool { get }
    /// Answers `request` (on any thread, once).
    func respond(to request: HTTPRequest, _ completion: @escaping @Sendable (HTTPResponse) -> Void)
    /// An answer was written (or a refusal, with no request): log and count it.
    func answered(_ request: HTTPRequest?, _ response: HTTPResponse, peer: String, started: DispatchTime)
    /// The connection's socket is closed.
    func closed(_ connection: HTTPConnection)
}

/// One client connection: reads request heads, hands each to the owner,
/// writes the answers, one request at a time (pipelined requests wait in the
/// buffer, bounded by the head limits), and keeps time:
/// - idle (no byte of a next request): ``ServerConfiguration/idleTimeout``, then close;
/// - reading a head: ``ServerConfiguration/headerTimeout`` from its first
///   byte, whatever trickles in after (a slow client cannot hold it open), then 408;
/// - writing: ``ServerConfiguration/writeTimeout`` without progress, then close.
/// While an answer is prepared nothing is read: TCP holds the client back.
///
/// The socket is non-blocking; reads and writes are dispatch sources on
/// the connection's serial queue.
final class HTTPConnection: @unchecked Sendable {
    // @unchecked: every mutable property below is read and written only on
    // `queue`, a serial queue (each entry point hops onto it).
    private enum Phase { case idle, readingHead, handling, writing, closed }

    let fd: Int32
    let peer: String
    private let queue: DispatchQueue
    private weak var owner: (any HTTPConnectionOwner)?
    private let configuration: ServerConfiguration
    private let parser: HTTPRequestParser
    private var phase = Phase.idle
    private var buffer: [UInt8] = []
    private var readSource: DispatchSourceRead?
    private var readSuspended = false
    private var writeSource: DispatchSourceWrite?
    private var writeSuspended = true
    private let timer: DispatchSourceTimer
    private var output = Data()
    private var written = 0
    private var closeAfterWrite = false
    private var draining = false
    private var liveSources = 0
    private var requestStarted = DispatchTime.now()

    init(fd: Int32, peer: String, owner: any HTTPConnectionOwner) {
        self.fd = fd
        self.peer = peer
        self.owner = owner
        configuration = owner.configuration
        parser = HTTPRequestParser(limits: configuration.limits)
        queue = DispatchQueue(label: "URLSchemeServer.connection", target: .global())
        timer = DispatchSource.makeTimerSource(queue: queue)
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
            timer.setEventHandler { [self] in timedOut() }
            timer.schedule(deadline: .now() + configuration.idleTimeout)
            timer.resume()
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

    private func arm(_ seconds: TimeInterval) {
        timer.schedule(deadline: .now() + seconds)
    }

    private func disarm() {
        timer.schedule(deadline: .distantFuture)
    }

    private func timedOut() {
        switch phase {
        case .idle, .writing: close()
        case .readingHead:
            send(HTTPResponse.error(408, "the request head did not arrive within \(Self.seconds(configuration.headerTimeout)) (the header timeout)"),
                 for: nil, closing: true)
        case .handling, .closed: break
        }
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    private func readable() {
        guard phase == .idle || phase == .readingHead else { return }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count == 0 { return close() }
        if count < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
            return close()
        }
        buffer.append(contentsOf: chunk[0..<count])
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
            arm(configuration.headerTimeout)
        }
        switch parser.parse(buffer) {
        case .incomplete:
            return
        case .refused(let error):
            var extra: [(name: String, value: String)] = []
            if error.status == 405 { extra.append(("Allow", "GET, HEAD")) }
            send(HTTPResponse.error(error.status, error.message, extraHeaders: extra), for: nil, closing: true)
        case .request(let request, let consumed):
            buffer.removeFirst(consumed)
            phase = .handling
            disarm()
            suspendReading()
            guard let owner else { return close() }
            owner.respond(to: request) { [self] response in
                queue.async { [self] in
                    guard phase == .handling else { return }
                    send(response, for: request, closing: !request.keepsAlive || draining || owner.isDraining)
                }
            }
        }
    }

    private func send(_ response: HTTPResponse, for request: HTTPRequest?, closing: Bool) {
        let date = HTTPDateFormat.now()
        output = response.serialized(headOnly: request?.method == "HEAD", closing: closing, date: date)
        written = 0
        closeAfterWrite = closing
        phase = .writing
        suspendReading()
        owner?.answered(request, response, peer: peer, started: requestStarted)
        arm(configuration.writeTimeout)
        flush()
    }

    private func flush() {
        guard phase == .writing else { return }
        while written < output.count {
            let count = output.withUnsafeBytes { bytes in
                Glibc.send(fd, bytes.baseAddress! + written, bytes.count - written, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return waitWritable() }
                return close()
            }
            written += count
            arm(configuration.writeTimeout)
        }
        if let writeSource, !writeSuspended {
            writeSource.suspend()
            writeSuspended = true
        }
        output = Data()
        if closeAfterWrite { return close() }
        phase = .idle
        arm(configuration.idleTimeout)
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
        output = Data()
        owner?.closed(self)
    }
}
