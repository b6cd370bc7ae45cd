import Foundation
import ImageCodecs

/// Where `asset://` finds the photos it serves: stored image files addressed
/// by opaque, URL-safe ids.
public protocol AssetStore: Sendable {
    /// Stores `data` (a PNG or JPEG file) and returns its new id.
    func add(_ data: Data) throws -> String
    /// The stored file's bytes. Throws `AssetStoreError.notFound` for an unknown id.
    func data(for id: String) throws -> Data
    /// What the file's header says (size, format, orientation), read without decoding pixels.
    func metadata(for id: String) throws -> AssetMetadata
    /// Removes the asset; removing an unknown id throws `.notFound`.
    func remove(_ id: String) throws
    /// Every stored id, in no particular order.
    func list() throws -> [String]
}

extension AssetStore {
    /// Stores the file at `url` and returns its new id.
    public func add(contentsOf url: URL) throws -> String {
        try add(Data(contentsOf: url))
    }
}

/// One stored asset's facts, recorded when it was added.
///
/// `FileAssetStore` keeps them as JSON, the format as its name (`"jpeg"`) and
/// the orientation as its EXIF value (`6`): the raw values of `ImageFormat` and
/// `ImageOrientation`, so files written when these fields were a string and an
/// integer read back unchanged.
public struct AssetMetadata: Codable, Equatable, Sendable {
    /// The asset's id.
    public var id: String
    /// The encoded file's size in bytes.
    public var byteCount: Int
    /// The stored file's format, sniffed from its bytes.
    public var format: ImageFormat
    /// Stored width and height in pixels (before `orientation`).
    public var width: Int
    /// Stored height in pixels (before `orientation` is applied).
    public var height: Int
    /// The EXIF orientation (`.up` when the file has none).
    public var orientation: ImageOrientation
    /// When the asset was added.
    public var added: Date
    /// The CRC-32 of the original bytes, verified on every read; nil in files
    /// written before the store kept one (those are checked by length only).
    public var checksum: UInt32?

    /// Facts as a store (or a test) records them.
    public init(id: String, byteCount: Int, format: ImageFormat, width: Int, height: Int,
                orientation: ImageOrientation = .up, added: Date, checksum: UInt32? = nil) {
        self.id = id
        self.byteCount = byteCount
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
        self.added = added
        self.checksum = checksum
    }

    /// Width and height as the photo is seen, orientation applied.
    public var uprightSize: (width: Int, height: Int) {
        orientation.swapsDimensions ? (height, width) : (width, height)
    }
}

/// Why an asset store could not do what was asked.
public enum AssetStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The id has the wrong form: ids are 26 characters of `a–z` and `2–7`.
    case invalidID(String)
    /// No asset has this id.
    case notFound(String)
    /// The bytes are not an image the store can describe (the reason says why).
    case unreadableImage(String)
    /// A stored file is damaged.
    case corrupt(String)

    /// What went wrong, naming the id or the reason.
    public var description: String {
        switch self {
        case let .invalidID(id): return "asset id '\(id)' is malformed: ids are 26 characters of a-z and 2-7"
        case let .notFound(id): return "no asset with id '\(id)'"
        case let .unreadableImage(reason): return "not a readable image: \(reason)"
        case let .corrupt(id): return "stored asset '\(id)' is damaged"
        }
    }
}
