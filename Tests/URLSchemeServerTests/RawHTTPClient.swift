import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A client on a raw TCP socket to 127.0.0.1, for what URLSession will not
/// send: half a head, smuggling patterns, bare CRs, pipelined requests.
final class RawHTTPClient {
    /// One answer read from the socket.
    struct Answer {
        var status: Int
        var headers: [String: String]  // names lower-cased
        var body: Data
    }

    let fd: Int32
    private var pending = Data()

    init(port: UInt16, receiveTimeout: TimeInterval = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { Glibc.close(fd); throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: Int(receiveTimeout), tv_usec: Int((receiveTimeout - receiveTimeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    private var isOpen = true

    deinit { close() }

    /// Closes the socket (once).
    func close() {
        guard isOpen else { return }
        isOpen = false
        Glibc.close(fd)
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads more; false at end of stream or time-out.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        pending.append(contentsOf: chunk[0..<count])
        return true
    }

    /// The next answer (its body as long as Content-Length says, none for HEAD or 304), nil if the connection ends first.
    func readAnswer(head: Bool = false) -> Answer? {
        let separator = Data("\r\n\r\n".utf8)
        while pending.range(of: separator) == nil { guard fill() else { return nil } }
        let end = pending.range(of: separator)!
        let headText = String(decoding: pending[pending.startIndex..<end.lowerBound], as: UTF8.self)
        pending = Data(pending[end.upperBound...])
        let lines = headText.components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = (head || status == 304) ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        while pending.count < length { guard fill() else { return nil } }
        let body = Data(pending.prefix(length))
        pending = Data(pending.dropFirst(length))
        return Answer(status: status, headers: headers, body: body)
    }

    /// Whether the server closed the connection (reading gives end of stream, not a time-out), with nothing more sent.
    func isClosedByServer() -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0 && pending.isEmpty
    }
}
