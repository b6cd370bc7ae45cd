import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder where caches without a disk store spool bodies: under the
/// system's temporary directory, which every local user can write, so
/// nothing found there is trusted. The folder is held open by descriptor,
/// opened without following a link, and used only when it is a directory of
/// this user's, 0700 (one of ours with a wider mode is made 0700 again);
/// when another user or a link holds its name, a fresh private folder beside
/// it (`mkdtemp`) is used instead, so a planted folder can neither see nor
/// swap a body, nor stop one from loading. Spool files are made in it with
/// `openat` (`O_EXCL`, `O_NOFOLLOW`, 0600) and unlinked at once: the body is
/// read back through the descriptor it was written to, and a process killed
/// mid-download leaves nothing behind.
///
/// When first used, the folder is swept of spool files left by processes
/// that are gone (killed between making a file and unlinking it, or by
/// versions that kept the file until the body was mapped): only regular
/// files of this user's, named as spool files, whose process (the pid in the
/// name) no longer runs, or, for names without a pid, older than
/// `DiskEntryStore.staleTemporaryAge`.
final class SpoolFolder: Sendable {
    /// The folder's path (for messages and listing; files are made and removed through `descriptor`).
    let path: String
    /// The folder, opened `O_DIRECTORY | O_NOFOLLOW` and checked through this descriptor.
    let descriptor: Int32

    /// Spool files' names: this prefix, the pid of the process that made them, `-`, a UUID.
    static let namePrefix = DiskEntryStore.temporaryPrefix + "spool-"

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The folder of this user's under the system's temporary directory
    /// (`$TMPDIR/URLSchemeKit-spool-<uid>`), checked and swept once per process.
    static let temporary: Result<SpoolFolder, URLError> = Result { () throws(URLError) -> SpoolFolder in
        let folder = try at(FileManager.default.temporaryDirectory.appendingPathComponent("URLSchemeKit-spool-\(geteuid())").path)
        folder.sweep()
        return folder
    }

    /// A new spool file's name for this process.
    static func newName() -> String { namePrefix + "\(getpid())-" + UUID().uuidString }

    /// Opens the folder at `path`, made 0700 if missing; a private folder beside it when that one is not ours.
    static func at(_ path: String) throws(URLError) -> SpoolFolder {
        _ = mkdir(path, 0o700)
        if let folder = openOwn(path) { return folder }
        // Another user's folder, a link or a file holds the name: one of our own beside it.
        var template = Array((path + ".XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        let fresh = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard made, let folder = openOwn(fresh) else {
            throw URLErrors.make(.cannotWriteToFile, "the HTTP cache cannot make a private spool folder: \(path) is not a directory "
                                 + "of this user's, and \(path).XXXXXX could not be made (\(String(cString: strerror(errno))))", url: nil)
        }
        return folder
    }

    /// The directory at `path` when it is this user's (opened without
    /// following a link, checked through the descriptor), made 0700.
    private static func openOwn(_ path: String) -> SpoolFolder? {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == geteuid(),
              status.st_mode & 0o077 == 0 || fchmod(descriptor, 0o700) == 0 else {
            close(descriptor)
            return nil
        }
        return SpoolFolder(path: path, descriptor: descriptor)
    }

    /// Removes spool files of processes that are gone (see the type's comment).
    func sweep() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        let now = Date().timeIntervalSince1970
        for name in names where name.hasPrefix(Self.namePrefix) {
            var status = stat()
            guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT == S_IFREG,
                  status.st_uid == geteuid() else { continue }
            let parts = name.dropFirst(Self.namePrefix.count).split(separator: "-")
            let stale: Bool
            if parts.count == 6, let pid = pid_t(parts[0]) {
                stale = pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
            } else {
                stale = now - TimeInterval(Self.modificationSeconds(status)) > DiskEntryStore.staleTemporaryAge
            }
            if stale { unlinkat(descriptor, name, 0) }
        }
    }

    private static func modificationSeconds(_ status: stat) -> Int {
        #if os(Linux)
        Int(status.st_mtim.tv_sec)
        #else
        Int(status.st_mtimespec.tv_sec)
        #endif
    }
}
