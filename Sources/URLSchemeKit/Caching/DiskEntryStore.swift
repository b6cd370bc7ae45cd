import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The disk tier of `QueryKeyedURLCache`: one file per entry in one directory,
/// named by a 128-bit hash of the key, written atomically (temporary file,
/// then rename) and evicted least-recently-used beyond its capacity.
///
/// Not thread-safe by itself: its owner calls the mutating methods under its
/// lock and does the slow file I/O (`readFile`, `writeTemporary`) outside it.
///
/// Several processes may share the directory. A file another process wrote is
/// found by reading it directly; and before each commit the directory's
/// modification time tells whether anyone else added or removed files since
/// this store last looked, in which case it scans again, so the capacity holds
/// for the directory as a whole, not once per process.
///
/// Private by default: the directory is 0700 and files 0600 (cached responses
/// can be a user's photos or pages). Reads take only regular files no larger
/// than the capacity and never follow a symbolic link.
struct DiskEntryStore {
    let directory: URL
    /// File names by recency, costed by size in bytes.
    private var index: LRUStore<String, Void>
    private var scanned = false
    /// The directory's modification time when this store last knew its contents.
    private var knownModification: (seconds: Int, nanoseconds: Int)?

    static let fileExtension = "uskcache"
    static let temporaryPrefix = ".tmp-"
    /// Where files are written before they are renamed into place: a folder of
    /// its own, so writing one does not change the entries' directory (whose
    /// modification time says whether another process changed the entries).
    let temporaryDirectory: URL
    /// A temporary file older than this was left by a process that died while writing.
    static let staleTemporaryAge: TimeInterval = 600

    /// A store in `directory`, which is created (0700) if missing and made 0700
    /// if it exists; nil when it cannot be created.
    init?(directory: URL, capacity: Int) {
        guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])) != nil else { return nil }
        chmod(directory.path, 0o700)
        temporaryDirectory = directory.appendingPathComponent(".tmp", isDirectory: true)
        guard (try? FileManager.default.createDirectory(at: temporaryDirectory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])) != nil else { return nil }
        self.directory = directory
        index = LRUStore(capacity: capacity)
    }

    var capacity: Int { index.capacity }
    /// Bytes held by the entry files this store knows of.
    var totalSize: Int { index.totalCost }

    /// The file name for a key: two independent 64-bit FNV-1a hashes in hex.
    static func fileName(for key: CacheKey) -> String {
        var a: UInt64 = 0xCBF2_9CE4_8422_2325, b: UInt64 = 0x8422_2325_CBF2_9CE4
        for byte in key.rawValue.utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            b = ((b ^ UInt64(byte)) &* 0x0000_0100_0000_0193) &+ 0x9E37
        }
        return hex(a) + hex(b) + "." + fileExtension
    }

    func url(forFile name: String) -> URL {
        directory.appendingPathComponent(name, isDirectory: false)
    }

    /// Learns the directory's entries once, oldest first, so a new instance
    /// accounts for (and may evict) what earlier processes stored, and removes
    /// temporary files that writers killed mid-write left behind.
    mutating func scanIfNeeded() {
        guard !scanned else { return }
        scanned = true
        rescan(removingStaleTemporaries: true)
    }

    /// Notes a read of `name`: it becomes the most recently used.
    mutating func touch(_ name: String, size: Int) {
        scanIfNeeded()
        if index.value(for: name) == nil {
            deleteFiles(index.insert((), for: name, cost: size))
            noteOwnChange()
        }
    }

    /// Moves a finished temporary file into place and accounts for it,
    /// evicting older entries beyond capacity. False if it was not kept.
    mutating func commit(temporary: URL, as name: String, size: Int) -> Bool {
        scanIfNeeded()
        if let known = knownModification, let now = directoryModification(), known == now {} else {
            rescan(removingStaleTemporaries: false)
        }
        guard rename(temporary.path, url(forFile: name).path) == 0 else {
            unlink(temporary.path)
            return false
        }
        let evicted = index.insert((), for: name, cost: size)
        deleteFiles(evicted)
        noteOwnChange()
        return !evicted.contains(name)
    }

    mutating func remove(_ name: String) {
        unlink(url(forFile: name).path)
        index.removeValue(for: name)
        noteOwnChange()
    }

    mutating func removeAll() {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for file in files where file.hasSuffix("." + Self.fileExtension) {
            unlink(url(forFile: file).path)
        }
        index.removeAll()
        scanned = true
        noteOwnChange()
    }

    mutating func setCapacity(_ capacity: Int) {
        scanIfNeeded()
        deleteFiles(index.setCapacity(capacity))
        noteOwnChange()
    }

    /// Brings the index in line with the directory: files another process
    /// added join it (oldest first, so they are evicted first), files it
    /// removed leave it, and anything beyond capacity is evicted.
    private mutating func rescan(removingStaleTemporaries: Bool) {
        knownModification = directoryModification()
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        if removingStaleTemporaries { removeStaleTemporaries() }
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        var present = Set<String>()
        var added: [(name: String, size: Int, date: Date)] = []
        for file in files where file.pathExtension == Self.fileExtension {
            guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            let name = file.lastPathComponent
            present.insert(name)
            if !index.contains(name) { added.append((name, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)) }
        }
        index.removeAll(whereKey: { !present.contains($0) })
        for entry in added.sorted(by: { $0.date < $1.date }) {
            deleteFiles(index.insert((), for: entry.name, cost: entry.size))
        }
    }

    /// Removes temporary files old enough that no writer can still be at work on them.
    private func removeStaleTemporaries() {
        let keys: [URLResourceKey] = [.contentModificationDateKey]
        let files = (try? FileManager.default.contentsOfDirectory(at: temporaryDirectory, includingPropertiesForKeys: keys)) ?? []
        let now = Date()
        for file in files {
            let date = (try? file.resourceValues(forKeys: Set(keys)))?.contentModificationDate ?? .distantPast
            if now.timeIntervalSince(date) > Self.staleTemporaryAge { unlink(file.path) }
        }
    }

    /// Takes the directory's state after a change of this store's own as known,
    /// so only other processes' changes cause a scan. (Another process's change
    /// in the instant between is noticed at its next change.)
    private mutating func noteOwnChange() {
        knownModification = directoryModification()
    }

    private func deleteFiles(_ names: [String]) {
        for name in names { unlink(url(forFile: name).path) }
    }

    private func directoryModification() -> (seconds: Int, nanoseconds: Int)? {
        var status = stat()
        guard stat(directory.path, &status) == 0 else { return nil }
        return (Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec))
    }

    /// Writes `parts`, one after the other, to a new temporary file (0600)
    /// beside the entries (same file system, so the later rename is atomic).
    /// Call outside the lock.
    func writeTemporary(_ parts: [Data]) -> URL? {
        let temporary = temporaryDirectory.appendingPathComponent(Self.temporaryPrefix + UUID().uuidString, isDirectory: false)
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
    /// caller to remove, when it is not that size or cannot be written. Call
    /// outside the lock.
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
    /// by unlink, never truncated in place, so a mapping stays whole). Call
    /// outside the lock.
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

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
