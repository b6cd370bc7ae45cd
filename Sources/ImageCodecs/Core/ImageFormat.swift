/// The encoded image formats the package knows: the ones `ImageDecoder` reads
/// (all of them) and the ones `ImageEncoder` writes (`isEncodable`: all of
/// them too). Coded (`Codable`) as its raw value, `"png"`, `"jpeg"`, `"gif"` or `"webp"`.
public enum ImageFormat: String, CaseIterable, Codable, Sendable {
    case png
    case jpeg
    case gif
    case webp

    /// The formats `ImageEncoder` writes, in the order error messages list them.
    public static let encodable: [ImageFormat] = [.png, .jpeg, .webp, .gif]

    /// How many leading bytes `init(sniffing:)` needs to tell every format
    /// apart (a WebP's `RIFF` size `WEBP` header is 12); pass at least these.
    public static let sniffedByteCount = 12

    /// Whether `ImageEncoder` can write this format (every one now; WebP
    /// lossless for now).
    public var isEncodable: Bool { Self.encodable.contains(self) }

    /// The media type for `Content-Type` and `Accept` headers.
    public var mimeType: String {
        switch self {
        case .png: return "image/png"
        case .jpeg: return "image/jpeg"
        case .gif: return "image/gif"
        case .webp: return "image/webp"
        }
    }

    /// Whether the format stores animations (GIF and WebP): what an
    /// animated source edited by `asset://` stays when written as.
    public var canAnimate: Bool { self == .gif || self == .webp }

    /// The usual file-name extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .png: return "png"
        case .jpeg: return "jpg"
        case .gif: return "gif"
        case .webp: return "webp"
        }
    }

    /// Recognises a format from the first bytes of a file (its signature),
    /// whatever the file name says: the PNG signature, a JPEG's SOI and first
    /// marker, `GIF87a`/`GIF89a`, or `RIFF` (any size) `WEBP`. Give it at least
    /// `sniffedByteCount` bytes; nil when they match none of these.
    public init?<Bytes: Collection>(sniffing bytes: Bytes) where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(Self.sniffedByteCount))
        func starts(_ signature: String, at offset: Int = 0) -> Bool {
            let signature = Array(signature.utf8)
            return head.count >= offset + signature.count && Array(head[offset..<offset + signature.count]) == signature
        }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF {
            self = .jpeg
        } else if starts("GIF87a") || starts("GIF89a") {
            self = .gif
        } else if starts("RIFF"), starts("WEBP", at: 8) {
            self = .webp
        } else {
            return nil
        }
    }
}
