import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The disk tier of `ImageURLCache`: one file per entry in one directory,
/// named by a 128-bit hash of the key, written atomically (temporary file,
/// then rename) and evicted least-recently-used beyond its capacity.
///
/// Not thread-safe by itself: the owner calls the `…Locked` methods under its
/// lock and does the slow file I/O (`readFile`, `writeTemporary`) outside it.
/// A file another process wrote is found by reading it directly, so instances
/// in several processes can share a directory.
struct DiskEntryStore {
    let directory: URL
    /// File names by recency, costed by size in bytes.
    private var index: LRUStore<String, Void>
    private var scanned = false

    static let fileExtension = "uskcache"

    init(directory: URL, capacity: Int) {
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

    /// Learns the directory's existing entries once, oldest first, so a new
    /// instance accounts for (and may evict) what earlier processes stored.
    mutating func scanIfNeededLocked() {
        guard !scanned else { return }
        scanned = true
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let files = (try? FileManager.default.contentsOfDirectory(
            at: directory, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])) ?? []
        let entries = files
            .filter { $0.pathExtension == Self.fileExtension }
            .compactMap { url -> (name: String, size: Int, date: Date)? in
                guard let values = try? url.resourceValues(forKeys: Set(keys)) else { return nil }
                return (url.lastPathComponent, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)
            }
            .sorted { $0.date < $1.date }
        for entry in entries where !index.contains(entry.name) {
            deleteFiles(index.insert((), for: entry.name, cost: entry.size))
        }
    }

    /// Notes a read of `name`: it becomes the most recently used.
    mutating func touchLocked(_ name: String, size: Int) {
        scanIfNeededLocked()
        if index.value(for: name) == nil {
            deleteFiles(index.insert((), for: name, cost: size))
        }
    }

    /// Moves a finished temporary file into place and accounts for it,
    /// evicting older entries beyond capacity. False if it was not kept.
    mutating func commitLocked(temporary: URL, as name: String, size: Int) -> Bool {
        scanIfNeededLocked()
        guard rename(temporary.path, url(forFile: name).path) == 0 else {
            unlink(temporary.path)
            return false
        }
        let evicted = index.insert((), for: name, cost: size)
        deleteFiles(evicted)
        return !evicted.contains(name)
    }

    mutating func removeLocked(_ name: String) {
        unlink(url(forFile: name).path)
        index.removeValue(for: name)
    }

    mutating func removeAllLocked() {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for file in files where file.hasSuffix("." + Self.fileExtension) {
            unlink(url(forFile: file).path)
        }
        index.removeAll()
        scanned = true
    }

    mutating func setCapacityLocked(_ capacity: Int) {
        scanIfNeededLocked()
        deleteFiles(index.setCapacity(capacity))
    }

    private func deleteFiles(_ names: [String]) {
        for name in names { unlink(url(forFile: name).path) }
    }

    /// Writes `data` to a new temporary file beside the entries (same file
    /// system, so the later rename is atomic). Call outside the lock.
    func writeTemporary(_ data: Data) -> URL? {
        let temporary = directory.appendingPathComponent(".tmp-\(UUID().uuidString)", isDirectory: false)
        do {
            try data.write(to: temporary)
            return temporary
        } catch {
            return nil
        }
    }

    /// The bytes of an entry file, or nil when there is none. Call outside the lock.
    func readFile(_ name: String) -> Data? {
        FileManager.default.contents(atPath: url(forFile: name).path)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
