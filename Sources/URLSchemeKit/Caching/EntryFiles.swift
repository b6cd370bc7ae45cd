import Foundation

/// Reading and writing a disk store's entry files: what `QueryKeyedURLCache`
/// does outside its lock (`DiskEntryStore.files`), with the paths and the
/// capacity and none of the store's bookkeeping.
struct EntryFiles: Sendable {
    let directory: URL
    /// Where files are written before they are renamed into place.
    let temporaryDirectory: URL
    /// The store's capacity: no entry file larger than this is read.
    let capacity: Int

    func url(forFile name: String) -> URL {
        directory.appendingPathComponent(name, isDirectory: false)
    }

    /// Writes `parts`, one after the other, to a new temporary file (0600)
    /// beside the entries (same file system, so the later rename is atomic).
    func writeTemporary(_ parts: [Data]) -> URL? {
        let temporary = temporaryDirectory.appendingPathComponent(DiskEntryStore.temporaryPrefix + UUID().uuidString, isDirectory: false)
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        for data in parts {
            let written = data.withUnsafeBytes { raw in
                raw.isEmpty || Self.transferAll(raw.count) { offset in write(fd, raw.baseAddress! + offset, raw.count - offset) }
            }
            guard written else {
                unlink(temporary.path)
                return nil
            }
        }
        return temporary
    }

    /// Makes `temporary`, a file holding a body of `bodyLength` bytes after
    /// room for `prefix` (a spool file), a whole entry file: `prefix` written
    /// over the room, `tail` appended. False, and the file left for the
    /// caller to remove, when it is not that size or cannot be written.
    func finishTemporary(_ temporary: URL, bodyLength: Int, prefix: Data, tail: Data) -> Bool {
        let fd = open(temporary.path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var status = stat()
        let end = prefix.count + bodyLength
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) == end else { return false }
        return [(0, prefix), (end, tail)].allSatisfy { offset, data in
            data.withUnsafeBytes { raw in
                raw.isEmpty || Self.transferAll(raw.count) { done in pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(offset + done)) }
            }
        }
    }

    /// The bytes of an entry file, or nil when there is none, or it is not a
    /// regular file (a planted link or FIFO), or it is larger than the
    /// capacity. A file of `mappingThreshold` bytes or more is mapped, not
    /// read: a large body then costs page cache the kernel can drop, not
    /// memory of the process (entry files are replaced by rename and removed
    /// by unlink, never truncated in place, so a mapping stays whole).
    func readFile(_ name: String) -> Data? {
        let fd = open(url(forFile: name).path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
              status.st_size >= 0, status.st_size <= Int64(capacity) else { return nil }
        let size = Int(status.st_size)
        if size >= Self.mappingThreshold {
            guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
            return Data(bytesNoCopy: base, count: size, deallocator: .custom { pointer, count in munmap(pointer, count) })
        }
        var data = Data(count: size)
        let complete = data.withUnsafeMutableBytes { raw in
            Self.transferAll(raw.count) { offset in read(fd, raw.baseAddress! + offset, raw.count - offset) }
        }
        return complete ? data : nil
    }

    /// Entry files this large or larger are mapped rather than read.
    static let mappingThreshold = 1 << 20

    /// Repeats a `read` or `write` of the bytes from `offset` on until all
    /// `count` have moved (retrying on EINTR); false on an error or end of file.
    private static func transferAll(_ count: Int, _ step: (_ offset: Int) -> Int) -> Bool {
        var offset = 0
        while offset < count {
            let moved = step(offset)
            if moved < 0, errno == EINTR { continue }
            guard moved > 0 else { return false }
            offset += moved
        }
        return true
    }

}
