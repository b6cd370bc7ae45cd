import Foundation
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// A forwarded response body as it arrives: in memory up to `memoryLimit`
/// bytes, then in a file, so a load of any size holds a small buffer, not
/// the body. Finished, a spooled body is handed on as the file mapped into
/// memory (its pages belong to the page cache, which the kernel can drop and
/// read back), and the file is unlinked at once: the mapping keeps it alive,
/// and nothing is left behind if the process dies.
///
/// The spool files live in a folder of their own under the system's temporary
/// directory, 0600 like the cache's entries (a body can be a user's page).
final class SpooledBody: @unchecked Sendable {
    // @unchecked Sendable: a body is appended to only by the inner session's
    // delegate callbacks, which its serial delegate queue runs one at a time,
    // then finished or discarded once, by the task's completion.

    let memoryLimit: Int
    private var memory = Data()
    private var file: (descriptor: Int32, path: String)?
    /// Bytes received so far.
    private(set) var count = 0

    init(memoryLimit: Int) {
        self.memoryLimit = memoryLimit
    }

    deinit { discard() }

    /// Where spool files are made.
    static let directory: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("URLSchemeKit-spool-\(getuid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }()

    /// Whether the body has moved to a file.
    var isSpooled: Bool { file != nil }

    /// Adds `data`; throws a `URLError` when the spool file cannot be written (a full disk).
    func append(_ data: Data) throws {
        count += data.count
        guard file == nil else { return try write(data) }
        guard memory.count + data.count > memoryLimit else {
            memory.append(data)
            return
        }
        let path = Self.directory.appendingPathComponent(UUID().uuidString).path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure("cannot create a spool file in \(Self.directory.path)") }
        file = (descriptor, path)
        let held = memory
        memory = Data()
        try write(held)
        try write(data)
    }

    /// The whole body: the bytes held, or the spool file mapped (then unlinked).
    func finish() throws -> Data {
        guard let file else { return memory }
        close(file.descriptor)
        self.file = nil
        defer { unlink(file.path) }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: file.path), options: .alwaysMapped)
        } catch {
            throw Self.failure("cannot read back the spooled body (\(error.localizedDescription))")
        }
    }

    /// Drops what was received, file included.
    func discard() {
        memory = Data()
        guard let file else { return }
        close(file.descriptor)
        unlink(file.path)
        self.file = nil
    }

    private func write(_ data: Data) throws {
        guard let descriptor = file?.descriptor, !data.isEmpty else { return }
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, base + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { throw Self.failure("cannot write the spool file (\(String(cString: strerror(errno))))") }
                offset += written
            }
        }
    }

    private static func failure(_ message: String) -> URLError {
        URLErrors.make(.cannotWriteToFile, "the HTTP cache " + message, url: nil)
    }
}
