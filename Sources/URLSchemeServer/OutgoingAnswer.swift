import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An answer on its way to a socket: the serialized head and the body,
/// written with one `sendmsg` (no copy of the body into the head) and
/// resumed where a short write left off.
struct OutgoingAnswer {
    private var head: [UInt8] = []
    private var body = Data()
    private var written = 0

    /// An answer with nothing to write.
    init() {}

    /// `response` as written for `request` (nil: a refusal before any request
    /// was read); `closing` adds `Connection: close`.
    init(_ response: HTTPResponse, for request: HTTPRequest?, closing: Bool) {
        let headOnly = request?.method == "HEAD"
        head = response.serializedHead(headOnly: headOnly, closing: closing, date: HTTPDateFormat.now())
        body = response.hasBody && !headOnly ? response.body : Data()
    }

    /// Whether every byte has been written.
    var isComplete: Bool { written >= head.count + body.count }

    /// One `sendmsg` of what is left: the bytes written, or -1 with `errno` set.
    mutating func write(to fd: Int32) -> Int {
        let written = self.written
        let count = head.withUnsafeBytes { headBytes in
            body.withUnsafeBytes { bodyBytes in
                var parts = (iovec(), iovec())
                var count = 0
                if written < headBytes.count {
                    parts.0 = iovec(iov_base: UnsafeMutableRawPointer(mutating: headBytes.baseAddress! + written), iov_len: headBytes.count - written)
                    count = 1
                }
                let bodyOffset = max(0, written - headBytes.count)
                if bodyOffset < bodyBytes.count {
                    let part = iovec(iov_base: UnsafeMutableRawPointer(mutating: bodyBytes.baseAddress! + bodyOffset), iov_len: bodyBytes.count - bodyOffset)
                    if count == 0 { parts.0 = part } else { parts.1 = part }
                    count += 1
                }
                return withUnsafeMutablePointer(to: &parts) { pointer in
                    pointer.withMemoryRebound(to: iovec.self, capacity: 2) { vectors in
                        var message = msghdr()
                        message.msg_iov = vectors
                        message.msg_iovlen = count
                        return sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
                    }
                }
            }
        }
        if count > 0 { self.written += count }
        return count
    }
}
