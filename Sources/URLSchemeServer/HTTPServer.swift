import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on a listening socket: accepts connections up to
/// ``ServerConfiguration/maximumConnections`` (then stops accepting until
/// one closes: the kernel's backlog holds the rest) and hands requests to
/// `handler`. No routes: see ``SchemeServer``.
///
/// Two transports: on Linux, ``ServerConfiguration/eventLoops`` loops of
/// our own on `epoll` (``EventLoop``, each owning its ``EventLoopConnection``s);
/// elsewhere (and on Linux when asked, for the tests) one Dispatch read
/// source per connection (``HTTPConnection``).
final class HTTPServer: HTTPConnectionOwner, @unchecked Sendable {
    // @unchecked: `listener`, `acceptSource`, `acceptSuspended`, `connections`,
    // `drainWaiters` and `loopsDraining` are touched only on `queue` (serial);
    // `loops` is set in `start` before any loop's thread starts, and only
    // read after; the rest is immutable or atomic.
    typealias Handler = @Sendable (HTTPServer, HTTPRequest, RequestCancellation, @escaping @Sendable (HTTPResponse) -> Void) -> Void

    /// How connections are served.
    enum Transport {
        /// ``EventLoop``s on `epoll` (Linux only; elsewhere this means `dispatch`).
        case eventLoops
        /// A Dispatch read source per connection, as on other systems.
        case dispatch

        /// Event loops on Linux, Dispatch elsewhere.
        static var platformDefault: Transport {
            #if os(Linux)
            .eventLoops
            #else
            .dispatch
            #endif
        }
    }
    typealias AnswerHook = @Sendable (HTTPRequest?, HTTPResponse, String, DispatchTime) -> Void

    let configuration: ServerConfiguration
    private let handler: Handler
    private let answerHook: AnswerHook
    private let queue = DispatchQueue(label: "URLSchemeServer.accept")
    private var listener: Int32 = -1
    private var acceptSource: DispatchSourceRead?
    private var acceptSuspended = false
    private var connections: [ObjectIdentifier: HTTPConnection] = [:]
    private var drainWaiters: [@Sendable () -> Void] = []
    private let drainingFlag = Atomic(false)
    private let openCount = Atomic(0)
    private let boundPort = Atomic<UInt16>(0)
    private let transport: Transport
    #if os(Linux)
    /// The event loops, the first one accepting (none with the Dispatch transport).
    private(set) var loops: [EventLoop] = []
    /// Loops that have not yet run their drain (closed the listener, closed idle connections).
    private var loopsDraining = 0
    /// Set by the accepting loop when it stopped at the cap; whoever clears it resumes accepting.
    private let acceptPaused = Atomic(false)
    #endif

    init(configuration: ServerConfiguration, transport: Transport = .platformDefault, handler: @escaping Handler, answered: @escaping AnswerHook) {
        self.configuration = configuration
        self.transport = transport
        self.handler = handler
        answerHook = answered
    }

    var isDraining: Bool { drainingFlag.load(ordering: .acquiring) }

    /// Open connections.
    var connectionCount: Int { openCount.load(ordering: .relaxed) }

    /// The port listened on (the one picked when the configuration said 0).
    var port: UInt16 { boundPort.load(ordering: .acquiring) }

    /// Binds and listens; throws ``ServerError`` naming the address and the system's reason.
    func start() throws {
        try queue.sync {
            let fd = try Self.listen(address: configuration.bindAddress, port: configuration.port)
            listener = fd
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
            let port = withUnsafeBytes(of: &address) { raw -> UInt16 in
                // sin_port and sin6_port sit at the same offset (2), in network order.
                UInt16(bigEndian: raw.load(fromByteOffset: 2, as: UInt16.self))
            }
            boundPort.store(port, ordering: .releasing)
            #if os(Linux)
            if transport == .eventLoops {
                do {
                    loops = try (0..<max(1, configuration.eventLoops)).map { try EventLoop(server: self, index: $0) }
                } catch {
                    Glibc.close(fd)
                    throw error
                }
                for loop in loops { loop.start(listening: loop.index == 0 ? fd : nil) }
                return
            }
            #endif
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler { [self] in acceptWaiting() }
            source.setCancelHandler { Glibc.close(fd) }
            acceptSource = source
            source.resume()
        }
    }

    private static func listen(address: String, port: UInt16) throws -> Int32 {
        var v4 = sockaddr_in(), v6 = sockaddr_in6()
        let isV6: Bool
        if inet_pton(AF_INET, address, &v4.sin_addr) == 1 {
            isV6 = false
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
        } else if inet_pton(AF_INET6, address, &v6.sin6_addr) == 1 {
            isV6 = true
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
        } else {
            throw ServerError("--bind \(address): not an IPv4 or IPv6 address")
        }
        let fd = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw ServerError("cannot open a socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = isV6
            ? withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
            : withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw ServerError("cannot listen on \(isV6 ? "[\(address)]" : address):\(port): \(reason)")
        }
        guard Glibc.listen(fd, 511) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw ServerError("cannot listen on \(address):\(port): \(reason)")
        }
        return fd
    }

    /// Accepts every waiting connection, up to the cap.
    private func acceptWaiting() {
        while !isDraining {
            guard connections.count < configuration.maximumConnections else {
                // At the cap: stop accepting (a readable listener would fire again and again) until one closes.
                if !acceptSuspended, let acceptSource {
                    acceptSource.suspend()
                    acceptSuspended = true
                }
                return
            }
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            guard fd >= 0 else { return }  // EAGAIN: none left (or a transient error: the source fires again)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // a child process (a test's, a tool's) never inherits a client
            let connection = HTTPConnection(fd: fd, peer: Self.describe(&address), owner: self)
            connections[ObjectIdentifier(connection)] = connection
            openCount.store(connections.count, ordering: .relaxed)
            connection.start()
        }
    }

    /// The numeric host of a peer's address.
    static func describe(_ address: inout sockaddr_storage) -> String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let family = Int32(address.ss_family)
        let length = socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getnameinfo($0, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) }
        }
        return result == 0 ? String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
    }

    func respond(to request: HTTPRequest, cancellation: RequestCancellation, _ completion: @escaping @Sendable (HTTPResponse) -> Void) {
        handler(self, request, cancellation, completion)
    }

    func answered(_ request: HTTPRequest?, _ response: HTTPResponse, peer: String, started: DispatchTime) {
        answerHook(request, response, peer, started)
    }

    #if os(Linux)
    /// Takes a place under the connection cap for a connection about to be accepted; false at the cap.
    func reserveConnection() -> Bool {
        if openCount.add(1, ordering: .acquiringAndReleasing).newValue <= configuration.maximumConnections { return true }
        openCount.subtract(1, ordering: .acquiringAndReleasing)
        return false
    }

    /// The accepting loop stopped at the cap. True: a place came free
    /// meanwhile (no close saw the pause), so it accepts again at once.
    func acceptingPaused() -> Bool {
        acceptPaused.store(true, ordering: .sequentiallyConsistent)
        return openCount.load(ordering: .sequentiallyConsistent) < configuration.maximumConnections
            && acceptPaused.exchange(false, ordering: .sequentiallyConsistent)
    }

    /// A loop's connection closed (or a reserved place went unused): accepting
    /// resumes if it stopped at the cap, and a drain ends with the last one.
    func connectionClosed() {
        let left = openCount.subtract(1, ordering: .sequentiallyConsistent).newValue
        if acceptPaused.load(ordering: .sequentiallyConsistent), acceptPaused.exchange(false, ordering: .sequentiallyConsistent), let accepting = loops.first {
            accepting.execute { accepting.resumeAccepting() }
        }
        if left == 0 && isDraining { queue.async { [self] in finishDrainIfDone() } }
    }

    /// With event loops: the drain is done once every loop has run its part and no connection is left.
    private func finishDrainIfDone() {
        if loopsDraining == 0 && openCount.load(ordering: .acquiring) == 0 { finishDrain() }
    }
    #endif

    func closed(_ connection: HTTPConnection) {
        queue.async { [self] in
            connections[ObjectIdentifier(connection)] = nil
            openCount.store(connections.count, ordering: .relaxed)
            if acceptSuspended, !isDraining, connections.count < configuration.maximumConnections, let acceptSource {
                acceptSuspended = false
                acceptSource.resume()
            }
            if isDraining && connections.isEmpty { finishDrain() }
        }
    }

    /// Stops accepting, closes idle connections, lets the others finish their
    /// request (answered with `Connection: close`), and calls `completion`
    /// when none is left or after `timeout`, whichever comes first.
    func drain(timeout: TimeInterval, completion: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            drainWaiters.append(completion)
            if !drainingFlag.exchange(true, ordering: .acquiringAndReleasing) {
                if let acceptSource {
                    acceptSource.cancel()
                    if acceptSuspended { acceptSuspended = false; acceptSource.resume() }
                }
                for connection in connections.values { connection.drain() }
                #if os(Linux)
                loopsDraining = loops.count
                for loop in loops {
                    let queued = loop.execute { [self] in
                        loop.drain()
                        queue.async { [self] in
                            loopsDraining -= 1
                            finishDrainIfDone()
                        }
                    }
                    if !queued { loopsDraining -= 1 }
                }
                #endif
                queue.asyncAfter(deadline: .now() + timeout) { [self] in finishDrain() }
            }
            #if os(Linux)
            if !loops.isEmpty { return finishDrainIfDone() }
            #endif
            if connections.isEmpty { finishDrain() }
        }
    }

    private func finishDrain() {
        let waiters = drainWaiters
        drainWaiters = []
        for waiter in waiters { waiter() }
    }
}
