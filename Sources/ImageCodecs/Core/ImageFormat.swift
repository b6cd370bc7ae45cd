/// The encoded image formats the package reads and writes. Coded (`Codable`)
/// as its raw value, `"png"` or `"jpeg"`.
public enum ImageFormat: String, CaseIterable, Codable, Sendable {
    case png
    case jpeg

    /// The media type for `Content-Type` headers.
    public var mimeType: String {
        switch self {
        case .png: return "image/png"
        case .jpeg: return "image/jpeg"
        }
    }

    /// The usual file-name extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .png: return "png"
        case .jpeg: return "jpg"
        }
    }

    /// Recognises a format from the first bytes of a file (its signature),
    /// whatever the file name says. Nil when the bytes are neither PNG nor JPEG.
    public init?<Bytes: Collection>(sniffing bytes: Bytes) where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(8))
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] {
            self = .png
        } else if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF {
            self = .jpeg
        } else {
            return nil
        }
    }
}
