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
/// read back).
///
/// A spool file starts with room for a cache entry's prefix, and the body's
/// checksum is taken as the chunks arrive, so the HTTP cache can make the
/// file its entry in place (`SpoolFile`, `CacheEntryFile`) instead of writing
/// the body a second time. Spool files are made in the cache's own temporary
/// folder for that (same file system, so the entry is a rename away), kept
/// until the cache claims or drops them; a process that dies leaves them to
/// the next instance's sweep of stale temporaries. Without a disk store they
/// go to a folder under the system's temporary directory and are unlinked
/// as soon as they are mapped: the mapping keeps the bytes alive, and
/// nothing is left behind. Either way 0600, like the cache's entries (a body
/// can be a user's page).
final class SpooledBody: @unchecked Sendable {
    // @unchecked Sendable: a body is appended to only by the inner session's
    // delegate callbacks, which its serial delegate queue runs one at a time,
    // then finished or discarded once, by the task's completion.

    let memoryLimit: Int
    /// Where the spool file is made.
    private let folder: URL
    /// Whether a finished file is kept for the cache (made in its store's folder).
    private let keepsFile: Bool
    private var memory = Data()
    private var file: (descriptor: Int32, path: String)?
    /// Chunks received for the file, written once `writeSize` bytes gather:
    /// a write per 16 KiB chunk cost more in system calls than the copy.
    private var unwritten = Data()
    private static let writeSize = 1 << 20
    /// The body's `EntryChecksum`, taken once it goes to a file.
    private var checksum = EntryChecksum()
    /// Bytes received so far.
    private(set) var count = 0

    /// A body held in memory up to `memoryLimit` bytes, then spooled to a
    /// file in `storeFolder` (the disk store's temporary folder, where it can
    /// become an entry), or, when nil, in `SpooledBody.directory`.
    init(memoryLimit: Int, storeFolder: URL?) {
        self.memoryLimit = memoryLimit
        folder = storeFolder ?? Self.directory
        keepsFile = storeFolder != nil
    }

    deinit { discard() }

    /// Where spool files are made for caches without a disk store.
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
        guard file == nil else {
            checksum.add(data)
            unwritten.append(data)
            guard unwritten.count >= Self.writeSize else { return }
            try write(unwritten)
            unwritten.removeAll(keepingCapacity: true)
            return
        }
        guard memory.count + data.count > memoryLimit else {
            memory.append(data)
            return
        }
        let path = folder.appendingPathComponent(DiskEntryStore.temporaryPrefix + "spool-" + UUID().uuidString).path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure("cannot create a spool file in \(folder.path)") }
        file = (descriptor, path)
        let held = memory
        memory = Data()
        checksum.add(held)
        checksum.add(data)
        // Room for the entry's prefix, written over when the file becomes one.
        try write(CacheEntryFile.prefix(bodyLength: 0))
        try write(held)
        try write(data)
    }

    /// The whole body: the bytes held, or the spool file mapped, with the
    /// file itself when it is kept for the cache (else it is unlinked now).
    func finish() throws -> (body: Data, file: SpoolFile?) {
        guard let file else { return (memory, nil) }
        try write(unwritten)
        unwritten = Data()
        close(file.descriptor)
        self.file = nil
        let spool = keepsFile ? SpoolFile(path: file.path, bodyLength: count, bodyChecksum: checksum.finish()) : nil
        defer { if !keepsFile { unlink(file.path) } }
        let size = CacheEntryFile.prefixLength + count
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.failure("cannot read back the spooled body (\(String(cString: strerror(errno))))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int(status.st_size) == size,
              let base = mmap(nil, size, PROT_READ, Self.mappingFlags, descriptor, 0), base != MAP_FAILED else {
            throw Self.failure("cannot map the spooled body (\(count) bytes expected)")
        }
        let body = Data(bytesNoCopy: base + CacheEntryFile.prefixLength, count: count,
                        deallocator: .custom { _, _ in munmap(base, size) })
        return (body, spool)
    }

    /// Drops what was received, file included.
    func discard() {
        memory = Data()
        unwritten = Data()
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

    /// Private and, on Linux, populated: the pages are in the page cache
    /// (just written), and the client reads every one of them, so mapping them
    /// all at once spares a page fault per 4 KiB.
    #if os(Linux)
    private static let mappingFlags = MAP_PRIVATE | MAP_POPULATE
    #else
    private static let mappingFlags = MAP_PRIVATE
    #endif

    private static func failure(_ message: String) -> URLError {
        URLErrors.make(.cannotWriteToFile, "the HTTP cache " + message, url: nil)
    }
}
