import Foundation
import Synchronization

/// A finished spool file the HTTP cache may make its entry file in place:
/// it holds the body after room for the entry's prefix
/// (`CacheEntryFile.prefixLength`), and the body's checksum, taken as it
/// arrived. Removed when the last reference goes, unless the cache claimed it.
final class SpoolFile: Sendable {
    /// Where the file is, in the disk store's temporary folder.
    let path: String
    let bodyLength: Int
    /// `EntryChecksum` of the body.
    let bodyChecksum: UInt64
    private let claimed = Mutex(false)

    init(path: String, bodyLength: Int, bodyChecksum: UInt64) {
        self.path = path
        self.bodyLength = bodyLength
        self.bodyChecksum = bodyChecksum
    }

    /// The file's path, once: the caller now owns the file (renames or removes it).
    func claim() -> String? {
        claimed.withLock { claimed in
            defer { claimed = true }
            return claimed ? nil : path
        }
    }

    deinit {
        if !claimed.withLock({ $0 }) { unlink(path) }
    }
}
