import Foundation
import ImageCodecs
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An `AssetStore` in one directory: one file per asset, holding a small JSON
/// header (the metadata, with a CRC-32 of the original) and then the original
/// bytes, unchanged (`AssetFileHeader`).
///
/// - Ids are 128 random bits in lower-case base32 (26 characters of a–z, 2–7):
///   opaque, URL-safe, and checked before any path is built, so nothing a URL
///   carries (`../../etc/passwd`) can name a file outside the directory.
/// - Private: the directory is made 0700 and files 0600, so other local users
///   cannot read the photos.
/// - Durable: adding writes a temporary file in the same directory, fsyncs it,
///   renames it into place and fsyncs the directory. A crash or power cut
///   mid-add leaves no half asset (only a `.tmp-` file, which `list()` ignores
///   and the next store opened on the directory removes), and another process
///   sharing the directory sees either nothing or the whole asset.
/// - Checked: reads open only regular files (no symlinks, FIFOs or devices) of
///   at most `maximumFileSize` bytes, and verify the size and checksum: a
///   damaged original is `AssetStoreError.corrupt(id)`, never served short.
/// - Metadata is read from the image header when the asset is added (and a
///   JPEG is decoded at 1/8 scale, under the store's `ResourceBudget`, so a file
///   whose scans are over budget or broken is refused then, not at each load);
///   listing and planning a resize never decode pixels.
public final class FileAssetStore: AssetStore {
    /// Where the assets are kept, one file each.
    public let directory: URL
    private let readInfo: @Sendable (Data) throws -> ImageInfo

    private static let fileExtension = "asset"
    private static let temporaryPrefix = ".tmp-"
    private static let idAlphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
    /// The largest asset file read or written: a camera's largest JPEG is a
    /// few tens of megabytes; a larger file is not a photo.
    static let maximumFileSize = 256 << 20
    /// A temporary file this old is left from a crashed add, whoever made it.
    static let staleTemporaryAge: TimeInterval = 3600

    /// A store in `directory` (created 0700 if missing). `readInfo` reads an
    /// image header and throws for bytes that are not a supported image; by
    /// default `checkImage(_:budget:)` does it with the package's own decoders,
    /// within `budget`. Temporary files left by crashed adds are removed.
    public init(directory: URL, budget: ResourceBudget = ResourceBudget(),
                readInfo: (@Sendable (Data) throws -> ImageInfo)? = nil) throws {
        if !FileManager.default.fileExists(atPath: directory.path) {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            chmod(directory.path, 0o700)  // whatever the umask made of it
        }
        self.directory = directory
        self.readInfo = readInfo ?? { try FileAssetStore.checkImage($0, budget: budget) }
        removeStaleTemporaryFiles()
    }

    /// What `add` checks by default: the header (size within
    /// `budget.decodedPixels`) and, for a JPEG, a decode at 1/8 scale,
    /// which reads every scan (within `budget.jpegScans`) but keeps
    /// only one coefficient per block.
    static func checkImage(_ data: Data, budget: ResourceBudget = ResourceBudget()) throws -> ImageInfo {
        let options = ImageDecoder.Options(appliesOrientation: false, jpegScale: .eighth,
                                           maximumPixelCount: budget.decodedPixels, maximumScanCount: budget.jpegScans)
        let info = try ImageDecoder.readInfo(data, options: options)
        if info.format == .jpeg { _ = try ImageDecoder.decode(data, options: options) }
        return info
    }

    /// Stores `data` (a PNG or JPEG) and returns its new id. Throws `AssetStoreError.unreadableImage` for anything the store cannot describe.
    public func add(_ data: Data) throws -> String {
        guard data.count <= Self.maximumFileSize - AssetFileHeader.maximumLength else {
            throw AssetStoreError.unreadableImage("the file is \(data.count) bytes; at most \(Self.maximumFileSize - AssetFileHeader.maximumLength) are stored")
        }
        let info: ImageInfo
        do {
            info = try readInfo(data)
        } catch {
            throw AssetStoreError.unreadableImage("\(error)")
        }
        let id = Self.newID()
        let metadata = AssetMetadata(id: id, byteCount: data.count, format: info.format, width: info.width,
                                     height: info.height, orientation: info.orientation, added: Date(),
                                     checksum: CRC32.checksum(data))
        let header = try AssetFileHeader.encode(metadata)
        let temporary = directory.appendingPathComponent("\(Self.temporaryPrefix)\(getpid())-\(UUID().uuidString)")
        do {
            try Self.writeDurably([header, data], to: temporary.path)
            guard rename(temporary.path, fileURL(id).path) == 0 else { throw Self.posixError(fileURL(id).path) }
            try Self.syncDirectory(directory.path)
        } catch {
            unlink(temporary.path)
            throw error
        }
        return id
    }

    /// The original bytes of asset `id`. Throws `AssetStoreError.notFound` for an unknown id, `.corrupt` for a damaged file.
    public func data(for id: String) throws -> Data {
        try Self.validate(id)
        let file = try Self.readRegularFile(fileURL(id).path, id: id)
        guard let header = AssetFileHeader(parsing: file, fileSize: file.count) else { throw AssetStoreError.corrupt(id) }
        let original = file.subdata(in: header.originalOffset..<file.count)
        if let checksum = header.metadata.checksum, CRC32.checksum(original) != checksum { throw AssetStoreError.corrupt(id) }
        return original
    }

    /// What the store knows of asset `id`, without reading its image. Throws `AssetStoreError.notFound` for an unknown id.
    public func metadata(for id: String) throws -> AssetMetadata {
        // Only the header is read: planning a render must not read a 10 MB photo.
        // Its byte count is checked against the file's size, so a truncated file is refused here already.
        try Self.validate(id)
        let descriptor = try Self.openRegularFile(fileURL(id).path, id: id)
        defer { close(descriptor.fd) }
        let prefix = try Self.readExactly(descriptor.fd, count: min(descriptor.size, 4), id: id)
        guard let length = AssetFileHeader.jsonLength(prefix), descriptor.size >= 4 + length else { throw AssetStoreError.corrupt(id) }
        let json = try Self.readExactly(descriptor.fd, count: length, id: id)
        guard let header = AssetFileHeader(parsing: prefix + json, fileSize: descriptor.size) else { throw AssetStoreError.corrupt(id) }
        return header.metadata
    }

    /// Deletes asset `id`. Throws `AssetStoreError.notFound` for an unknown id.
    public func remove(_ id: String) throws {
        try Self.validate(id)
        guard unlink(fileURL(id).path) == 0 else { throw AssetStoreError.notFound(id) }
    }

    /// The ids of every stored asset.
    public func list() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix("." + Self.fileExtension) }
            .map { String($0.dropLast(Self.fileExtension.count + 1)) }
            .filter { (try? Self.validate($0)) != nil }
    }

    /// Throws `AssetStoreError.invalidID` unless `id` has the form this store issues.
    static func validate(_ id: String) throws {
        guard id.utf8.count == 26, id.allSatisfy({ idAlphabet.contains($0) }) else {
            throw AssetStoreError.invalidID(id)
        }
    }

    private func fileURL(_ id: String) -> URL {
        directory.appendingPathComponent("\(id).\(Self.fileExtension)", isDirectory: false)
    }

    /// Removes temporary files of adds that cannot finish: made by a process
    /// that is gone (the name carries its pid), or older than an hour.
    private func removeStaleTemporaryFiles() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(Self.temporaryPrefix) {
            let path = directory.appendingPathComponent(name).path
            let pid = name.dropFirst(Self.temporaryPrefix.count).split(separator: "-").first.flatMap { pid_t($0) }
            let ownerGone = pid.map { $0 != getpid() && kill($0, 0) != 0 && errno == ESRCH } ?? true
            let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? nil
            let old = modified.map { -$0.timeIntervalSinceNow > Self.staleTemporaryAge } ?? false
            if ownerGone || old { unlink(path) }
        }
    }

    /// Writes `parts` to a new file (0600, never an existing one) and fsyncs it.
    private static func writeDurably(_ parts: [Data], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw posixError(path) }
        defer { close(fd) }
        for part in parts {
            try part.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                var offset = 0
                while offset < raw.count {
                    let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { throw posixError(path) }
                    offset += written
                }
            }
        }
        guard fsync(fd) == 0 else { throw posixError(path) }
    }

    /// Makes a rename in `directory` durable.
    private static func syncDirectory(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw posixError(path) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw posixError(path) }
    }

    /// Opens `path` for reading if it is a regular file of at most
    /// `maximumFileSize` bytes: a symlink, FIFO or device planted in the
    /// directory is refused, never followed, waited on or read without end.
    private static func openRegularFile(_ path: String, id: String) throws -> (fd: Int32, size: Int) {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw AssetStoreError.notFound(id) }
            throw AssetStoreError.corrupt(id)  // ELOOP for a symlink, or unreadable
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= maximumFileSize else {
            close(fd)
            throw AssetStoreError.corrupt(id)
        }
        return (fd, Int(info.st_size))
    }

    /// The whole of a regular file (see `openRegularFile`).
    private static func readRegularFile(_ path: String, id: String) throws -> Data {
        let descriptor = try openRegularFile(path, id: id)
        defer { close(descriptor.fd) }
        return try readExactly(descriptor.fd, count: descriptor.size, id: id)
    }

    /// Exactly `count` bytes from `fd`; a file that ends sooner is damaged.
    private static func readExactly(_ fd: Int32, count: Int, id: String) throws -> Data {
        var data = Data(count: count)
        let complete = data.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) -> Bool in
            var offset = 0
            while offset < count {
                let got = read(fd, raw.baseAddress! + offset, count - offset)
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { return false }
                offset += got
            }
            return true
        }
        guard complete else { throw AssetStoreError.corrupt(id) }
        return data
    }

    private static func posixError(_ path: String) -> Error {
        CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(errno))])
    }

    private static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        var bits = (UInt64.random(in: .min ... .max, using: &generator), UInt64.random(in: .min ... .max, using: &generator))
        var id = ""
        for _ in 0..<26 {  // 26 × 5 bits ≥ 128 bits
            id.append(idAlphabet[Int(bits.0 & 31)])
            bits.0 = (bits.0 >> 5) | (bits.1 << 59)
            bits.1 >>= 5
        }
        return id
    }
}
