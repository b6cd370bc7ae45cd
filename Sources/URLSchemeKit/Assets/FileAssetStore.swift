import Foundation
import ImageCodecs

/// An `AssetStore` in one directory: one file per asset, holding a small JSON
/// header (the metadata) and then the original bytes, unchanged.
///
/// - Ids are 128 random bits in lower-case base32 (26 characters of a–z, 2–7):
///   opaque, URL-safe, and checked before any path is built, so nothing a URL
///   carries (`../../etc/passwd`) can name a file outside the directory.
/// - Adding writes a temporary file in the same directory and renames it into
///   place: a crash mid-add leaves no half asset (only a `.tmp-` file, which
///   `list()` ignores), and another process sharing the directory sees either
///   nothing or the whole asset.
/// - Metadata is read from the image header when the asset is added, so
///   listing and planning a resize never decode pixels.
public final class FileAssetStore: AssetStore {
    /// Where the assets are kept, one file each.
    public let directory: URL
    private let readInfo: @Sendable (Data) throws -> ImageInfo

    private static let fileExtension = "asset"
    /// Headers are a few hundred bytes; a larger length means a damaged file.
    private static let maximumHeaderLength = 1 << 16
    private static let idAlphabet = Array("abcdefghijklmnopqrstuvwxyz234567")

    /// A store in `directory` (created if missing). `readInfo` reads an image
    /// header and throws for bytes that are not a supported image; by default
    /// the package's own decoders do it.
    public init(directory: URL, readInfo: @escaping @Sendable (Data) throws -> ImageInfo = ImageInfoReader.readInfo) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        self.readInfo = readInfo
    }

    /// Stores `data` (a PNG or JPEG) and returns its new id. Throws `AssetStoreError.unreadableImage` for anything the store cannot describe.
    public func add(_ data: Data) throws -> String {
        let info: ImageInfo
        do {
            info = try readInfo(data)
        } catch {
            throw AssetStoreError.unreadableImage("\(error)")
        }
        let id = Self.newID()
        let metadata = AssetMetadata(id: id, byteCount: data.count, format: info.format.rawValue, width: info.width,
                                     height: info.height, orientation: info.orientation.rawValue, added: Date())
        let header = try JSONEncoder().encode(metadata)
        var file = Data(capacity: 4 + header.count + data.count)
        withUnsafeBytes(of: UInt32(header.count).littleEndian) { file.append(contentsOf: $0) }
        file.append(header)
        file.append(data)
        let temporary = directory.appendingPathComponent(".tmp-\(UUID().uuidString)")
        try file.write(to: temporary)
        guard rename(temporary.path, fileURL(id).path) == 0 else {
            unlink(temporary.path)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: fileURL(id).path])
        }
        return id
    }

    /// The original bytes of asset `id`. Throws `AssetStoreError.notFound` for an unknown id, `.corrupt` for a damaged file.
    public func data(for id: String) throws -> Data {
        let (header, file) = try read(id)
        return file.subdata(in: (4 + header)..<file.count)
    }

    /// What the store knows of asset `id`, without reading its image. Throws `AssetStoreError.notFound` for an unknown id.
    public func metadata(for id: String) throws -> AssetMetadata {
        // Only the header is read: planning a render must not read a 10 MB photo.
        try Self.validate(id)
        guard let handle = FileHandle(forReadingAtPath: fileURL(id).path) else { throw AssetStoreError.notFound(id) }
        defer { try? handle.close() }
        do {
            guard let prefix = try handle.read(upToCount: 4), prefix.count == 4 else { throw AssetStoreError.corrupt(id) }
            let length = prefix.enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
            guard length <= Self.maximumHeaderLength, let header = try handle.read(upToCount: length), header.count == length else {
                throw AssetStoreError.corrupt(id)
            }
            return try JSONDecoder().decode(AssetMetadata.self, from: header)
        } catch {
            throw AssetStoreError.corrupt(id)
        }
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
    public static func validate(_ id: String) throws {
        guard id.utf8.count == 26, id.allSatisfy({ idAlphabet.contains($0) }) else {
            throw AssetStoreError.invalidID(id)
        }
    }

    private func fileURL(_ id: String) -> URL {
        directory.appendingPathComponent("\(id).\(Self.fileExtension)", isDirectory: false)
    }

    /// The whole file and its header length, checked.
    private func read(_ id: String) throws -> (header: Int, file: Data) {
        try Self.validate(id)
        guard let file = FileManager.default.contents(atPath: fileURL(id).path) else { throw AssetStoreError.notFound(id) }
        guard file.count >= 4 else { throw AssetStoreError.corrupt(id) }
        let header = file.prefix(4).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        guard header <= file.count - 4 else { throw AssetStoreError.corrupt(id) }
        return (header, file)
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
