import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Who a stored answer belongs to. A request that carries credentials
/// (`Authorization`, `Proxy-Authorization`, `Cookie`, user info in the URL) is
/// answered from, and stored in, a partition named by a keyed hash of them, so
/// one user's answer never reaches another; a request without any uses the
/// shared partition, where RFC 9111's rules for a shared cache hold (§3.5:
/// `private` is never stored there, and a response to an `Authorization`
/// request only when `public`, `s-maxage` or `must-revalidate` allows it).
///
/// The key of the hash is random, made once per cache directory (a file only
/// its owner may read, beside the entries) or per memory-only cache, so
/// instances and processes on one directory find each other's partitions, and
/// the directory holds no secret a reader could recover from the hash alone.
/// `Vary` values are written as the same hash.
struct CachePartitions: Sendable {
    /// Request fields that identify a user to the origin.
    static let credentialFields = ["Authorization", "Proxy-Authorization", "Cookie"]
    /// The name of the key file in a cache directory.
    static let keyFileName = "partition.key"

    let hash: KeyedHash

    /// Partitions under the key kept in `directory` (made if missing); a key of
    /// their own, for this instance alone, when there is no directory or it
    /// cannot be written.
    init(directory: URL?) {
        hash = KeyedHash(key: directory.flatMap(Self.sharedKey) ?? Self.randomKey())
    }

    /// The partition for a request with credentials, by their keyed hash; nil
    /// for one without (the shared partition).
    func partition(for request: URLRequest) -> String? {
        var parts: [String] = []
        for field in Self.credentialFields {
            if let value = request.value(forHTTPHeaderField: field), !value.isEmpty { parts.append(field + ":" + value) }
        }
        if let url = request.url, let user = url.user(percentEncoded: true) {
            parts.append("userinfo:" + user + ":" + (url.password(percentEncoded: true) ?? ""))
        }
        return parts.isEmpty ? nil : hash.hex(parts.joined(separator: "\n"))
    }

    /// Whether `request` identifies a user to the origin.
    static func hasCredentials(_ request: URLRequest) -> Bool {
        credentialFields.contains { request.value(forHTTPHeaderField: $0)?.isEmpty == false } || request.url?.user != nil
    }

    /// A request field's value as it is stored to select a `Vary` variant.
    func storedValue(_ value: String) -> String { hash.hex(value) }

    // MARK: The key

    private static func randomKey() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The key file's 32 bytes, written first by whichever process gets there
    /// first: a new key is written to a temporary file and linked into place,
    /// which fails if another process won, and then that one's key is read.
    /// A key file is trusted only when it is a regular file of this user's,
    /// readable by no one else (0600), of 32 bytes, opened without following a
    /// link: anything else at its name (planted by another user, or made
    /// readable) is removed and replaced, as whoever could read or write it
    /// could recompute the partitions' names.
    private static func sharedKey(in directory: URL) -> [UInt8]? {
        let path = directory.appendingPathComponent(keyFileName).path
        for _ in 0..<3 {
            switch readKey(path) {
            case let .trusted(key):
                return key
            case let .untrusted(device, inode):
                // Only the file judged: another process may have replaced it already.
                var status = stat()
                if lstat(path, &status) == 0, status.st_dev == device, status.st_ino == inode { unlink(path) }
            case .missing:
                break
            }
            guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                            attributes: [.posixPermissions: 0o700])) != nil else { return nil }
            let temporary = path + ".\(getpid()).\(UUID().uuidString)"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return nil }
            let key = randomKey()
            let written = key.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            defer { unlink(temporary) }
            guard written == key.count else { return nil }
            _ = link(temporary, path)
        }
        if case let .trusted(key) = readKey(path) { return key }
        return nil
    }

    /// What is at a key file's path.
    private enum KeyFile {
        case trusted([UInt8])
        /// Something not to trust (its device and inode, to remove that one alone).
        case untrusted(device: dev_t, inode: ino_t)
        case missing
    }

    private static func readKey(_ path: String) -> KeyFile {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            var status = stat()
            // ELOOP: a link. Anything else there that cannot be opened is not ours to use either.
            return lstat(path, &status) == 0 ? .untrusted(device: status.st_dev, inode: status.st_ino) : .missing
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .missing }
        let untrusted = KeyFile.untrusted(device: status.st_dev, inode: status.st_ino)
        guard status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(), status.st_mode & 0o077 == 0, status.st_size == 32 else {
            return untrusted
        }
        var key = [UInt8](repeating: 0, count: 32)
        let count = key.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 32) }
        return count == 32 ? .trusted(key) : untrusted
    }
}
