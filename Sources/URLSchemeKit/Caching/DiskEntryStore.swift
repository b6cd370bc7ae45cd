import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The disk tier of `QueryKeyedURLCache`: one file per entry in one directory,
/// named by a 128-bit hash of the key, written atomically (temporary file,
/// then rename) and evicted least-recently-used beyond its capacity.
///
/// Not thread-safe by itself: its owner calls the mutating methods under its
/// lock and does the slow file I/O outside it, through `files`.
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

    /// Notes a read of `name`: it becomes the most recently used. A file
    /// the index does not know (another process wrote it) joins it, unless
    /// it is gone: removed since it was read, it must not be counted again.
    /// False then.
    mutating func touch(_ name: String, size: Int) -> Bool {
        scanIfNeeded()
        guard index.value(for: name) == nil else { return true }
        var status = stat()
        guard lstat(url(forFile: name).path, &status) == 0 else { return false }
        deleteFiles(index.insert((), for: name, cost: size))
        noteOwnChange()
        return true
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

    /// The store's files without its index, for the reads and writes done
    /// outside the lock. Copying the store itself out of the lock would keep a
    /// second reference to its index, and the next change under the lock would
    /// then copy the whole index (measured: a tenth of a stored miss's time).
    var files: EntryFiles {
        EntryFiles(directory: directory, temporaryDirectory: temporaryDirectory, capacity: capacity)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
