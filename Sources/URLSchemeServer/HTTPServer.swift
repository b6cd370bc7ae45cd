import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on a listening socket: accepts connections up to
/// ``ServerConfiguration/maximumConnections`` (then stops accepting until
/// one closes: the kernel's backlog holds the rest), runs each as an
/// ``HTTPConnection`` and hands requests to `handler`. No routes: see
/// ``SchemeServer``.
final class HTTPServer: HTTPConnectionOwner, @unchecked Sendable {
    // @unchecked: `listener`, `acceptSource`, `acceptSuspended`, `connections`
    // and `drainWaiters` are touched only on `queue` (serial); the rest is
    // immutable or atomic.
    typealias Handler = @Sendable (HTTPServer, HTTPRequest, @escaping @Sendable (HTTPResponse) -> Void) -> Void
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

    init(configuration: ServerConfiguration, handler: @escaping Handler, answered: @escaping AnswerHook) {
        self.configuration = configuration
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

    private static func describe(_ address: inout sockaddr_storage) -> String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let family = Int32(address.ss_family)
        let length = socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getnameinfo($0, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) }
        }
        return result == 0 ? String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
    }

    func respond(to request: HTTPRequest, _ completion: @escaping @Sendable (HTTPResponse) -> Void) {
        handler(self, request, completion)
    }

    func answered(_ request: HTTPRequest?, _ response: HTTPResponse, peer: String, started: DispatchTime) {
        answerHook(request, response, peer, started)
    }

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
                queue.asyncAfter(deadline: .now() + timeout) { [self] in finishDrain() }
            }
            if connections.isEmpty { finishDrain() }
        }
    }

    private func finishDrain() {
        let waiters = drainWaiters
        drainWaiters = []
        for waiter in waiters { waiter() }
    }
}
