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
/// go to `SpoolFolder.temporary`, a folder of this user's under the system's
/// temporary directory, and are unlinked as soon as they are made: nothing is
/// left behind, even by a process killed mid-download. Either way the file
/// is made new (`O_EXCL`, never through a link), 0600 like the cache's entries
/// (a body can be a user's page), and the body is read back through the
/// descriptor it was written to, never by opening the path again (which
/// another user could have swapped).
final class SpooledBody: @unchecked Sendable {
    // @unchecked Sendable: a body is appended to only by the inner session's
    // delegate callbacks, which its serial delegate queue runs one at a time,
    // then finished or discarded once, by the task's completion.

    let memoryLimit: Int
    /// The disk store's temporary folder, where a finished file is kept for
    /// the cache; nil: the file goes to `SpoolFolder.temporary`, unlinked at once.
    private let folder: URL?
    private var memory = Data()
    /// The spool file: its descriptor, and its path while it has one (kept for the cache).
    private var file: (descriptor: Int32, path: String?)?
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
    /// become an entry), or, when nil, in `SpoolFolder.temporary`.
    init(memoryLimit: Int, storeFolder: URL?) {
        self.memoryLimit = memoryLimit
        folder = storeFolder
    }

    deinit { discard() }

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
        file = try Self.create(in: folder)
        let held = memory
        memory = Data()
        checksum.add(held)
        checksum.add(data)
        // Room for the entry's prefix, written over when the file becomes one.
        try write(CacheEntryFile.prefix(bodyLength: 0))
        try write(held)
        try write(data)
    }

    /// Makes a spool file: in `folder`, named, or in `SpoolFolder.temporary`, unlinked at once.
    private static func create(in folder: URL?) throws -> (descriptor: Int32, path: String?) {
        let flags = O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        if let folder {
            let path = folder.appendingPathComponent(SpoolFolder.newName()).path
            let descriptor = open(path, flags, 0o600)
            guard descriptor >= 0 else { throw failure("cannot create a spool file in \(folder.path) (\(String(cString: strerror(errno))))") }
            return (descriptor, path)
        }
        let temporary = try SpoolFolder.temporary.get()
        let name = SpoolFolder.newName()
        let descriptor = openat(temporary.descriptor, name, flags, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create a spool file in \(temporary.path) (\(String(cString: strerror(errno))))") }
        unlinkat(temporary.descriptor, name, 0)
        return (descriptor, nil)
    }

    /// The whole body: the bytes held, or the spool file mapped (through the
    /// descriptor it was written to), with the file itself when it is kept
    /// for the cache.
    func finish() throws -> (body: Data, file: SpoolFile?) {
        guard let file else { return (memory, nil) }
        defer { discard() }
        try write(unwritten)
        unwritten = Data()
        let spool = file.path.map { SpoolFile(path: $0, bodyLength: count, bodyChecksum: checksum.finish()) }
        // The SpoolFile owns the path now: discarding the body only closes the descriptor.
        self.file?.path = nil
        let size = CacheEntryFile.prefixLength + count
        var status = stat()
        guard fstat(file.descriptor, &status) == 0, Int(status.st_size) == size,
              let base = mmap(nil, size, PROT_READ, Self.mappingFlags, file.descriptor, 0), base != MAP_FAILED else {
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
        if let path = file.path { unlink(path) }
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
