/// Why a PNG could not be written or read. Descriptions say what is wrong and where.
public enum PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// PNG has no way to store a 0×N or N×0 image.
    case emptyImage(width: Int, height: Int)
    /// Width or height beyond PNG's 2³¹−1 limit.
    case dimensionsTooLarge(width: Int, height: Int)
    /// The first eight bytes are not the PNG signature.
    case notPNG
    /// The file ends inside a chunk (or before IEND).
    case truncated(String)
    /// A chunk's stored CRC does not match its bytes.
    case crcMismatch(chunk: String)
    /// A field of a chunk holds a value the format forbids; the message says which.
    case invalid(String)
    /// width × height is above the decoder's `maximumPixelCount` (checked before any allocation).
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The image's samples (16-bit ones take twice the room) would need more
    /// bytes than the decoded bitmap the pixel limit allows (4 per pixel).
    case tooManySampleBytes(width: Int, height: Int, bytes: Int, limit: Int)
    /// The compressed image data is damaged.
    case corruptImageData(String)

    /// What is wrong with the file, for logs and `URLError` descriptions.
    public var description: String {
        switch self {
        case let .emptyImage(width, height):
            return "PNG cannot store an empty image (\(width)×\(height)); width and height must be at least 1"
        case let .dimensionsTooLarge(width, height):
            return "PNG dimensions \(width)×\(height) exceed 2147483647"
        case .notPNG:
            return "not a PNG file: the 8-byte signature is wrong"
        case let .truncated(where_):
            return "PNG file is truncated: \(where_)"
        case let .crcMismatch(chunk):
            return "PNG chunk \(chunk) fails its CRC check (the file is damaged)"
        case let .invalid(message):
            return "invalid PNG: \(message)"
        case let .tooManyPixels(width, height, limit):
            return "PNG is \(width)×\(height) = \(width * height) pixels, above the limit of \(limit)"
        case let .tooManySampleBytes(width, height, bytes, limit):
            return "PNG is \(width)×\(height) with \(bytes) bytes of samples, above the limit of \(limit) (4 bytes per allowed pixel)"
        case let .corruptImageData(message):
            return "PNG image data (IDAT) is damaged: \(message)"
        }
    }
}

extension PNGError {
    /// The `ImageCodecError.Kind` this error is reported as.
    public var kind: ImageCodecError.Kind {
        switch self {
        case .truncated: return .truncated
        case .notPNG, .emptyImage: return .unsupported
        case .crcMismatch, .invalid, .corruptImageData: return .corrupt
        case .tooManyPixels, .tooManySampleBytes, .dimensionsTooLarge: return .tooLarge
        }
    }
}
