import Dispatch
import Foundation
import Synchronization

/// The access log's lines written to a file descriptor in batches, as
/// nginx's `access_log … buffer=… flush=…` writes them: lines gather in a
/// buffer and go out in one `write` when it holds ``bufferBytes``, or at
/// the latest ``flushInterval`` after a line is added, and on
/// ``flush()`` (`ServeOptions.serve` flushes before the process exits).
///
/// One `write` per request was the largest system-call cost left on a cached
/// answer's path; batched, a line costs a copy into the buffer. Each line is
/// appended whole, so lines from several threads never interleave; a process
/// killed hard loses at most ``flushInterval`` of lines.
public final class AccessLogWriter: @unchecked Sendable {
    // @unchecked: the buffer is only touched under `buffer`'s lock (writes under `writing`'s); `timer` is
    // made and resumed once in `init` and cancelled in `deinit`, never replaced.
    /// The most bytes kept before they are written.
    public static let bufferBytes = 64 << 10
    /// The longest a line waits in the buffer, unless the writer is made with another.
    public static let flushInterval = DispatchTimeInterval.milliseconds(200)

    private let descriptor: Int32
    private let buffer = Mutex<[UInt8]>([])
    /// Held while a batch is taken and written.
    private let writing = Mutex<Void>(())
    private let timer: DispatchSourceTimer

    /// A writer to `descriptor` (standard output by default), which it does
    /// not close, writing what waits every `flushInterval`.
    public init(fileDescriptor descriptor: Int32 = STDOUT_FILENO, flushInterval: DispatchTimeInterval = AccessLogWriter.flushInterval) {
        self.descriptor = descriptor
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "URLSchemeServer.accessLog"))
        timer.schedule(deadline: .now() + flushInterval, repeating: flushInterval)
        timer.setEventHandler { [weak self] in self?.flush() }
        timer.resume()
    }

    deinit {
        timer.cancel()
        flush()
    }

    /// Adds `line` and a newline; writes the buffer once it holds ``bufferBytes``.
    public func write(_ line: String) {
        let full = buffer.withLock { bytes in
            bytes.append(contentsOf: line.utf8)
            bytes.append(0x0A)
            return bytes.count >= Self.bufferBytes
        }
        if full { flush() }
    }

    /// Writes whatever waits in the buffer. Batches are taken and written
    /// under one lock, so they go out whole and in order even where the
    /// descriptor (a pipe) splits a large `write`.
    public func flush() {
        writing.withLock { _ in
            let waiting = buffer.withLock { bytes -> [UInt8] in
                defer { bytes.removeAll(keepingCapacity: true) }
                return bytes
            }
            if !waiting.isEmpty { send(waiting) }
        }
    }

    /// Writes `bytes` whole, retrying short writes and interruptions; a failed
    /// write (a closed pipe, a full disk) drops the batch: the log never stops the server.
    private func send(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
