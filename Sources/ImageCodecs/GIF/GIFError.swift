/// Why a GIF could not be read. Descriptions say what is wrong and where.
public enum GIFError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first six bytes are not `GIF87a` or `GIF89a`.
    case notGIF
    /// The file ends before its first image's pixel data (a file cut short
    /// later still shows what it holds, as in a browser).
    case truncated(String)
    /// The logical screen (the canvas) is above the decoder's
    /// `maximumPixelCount`; checked at the header, before any allocation.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// A field holds a value the format forbids; the message says which.
    case invalid(String)
    /// An LZW code names a table entry that does not exist yet (`code` above
    /// `next`), in frame `frame`: the compressed data is damaged.
    case badLZWCode(code: Int, next: Int, frame: Int)
    /// An encoder was given a canvas GIF cannot store (a side of 0 or over
    /// 65,535 pixels), or a frame of another size than its canvas.
    case unencodableSize(width: Int, height: Int, canvas: String)

    /// What is wrong with the file, for logs and `URLError` descriptions.
    public var description: String {
        switch self {
        case .notGIF:
            return "not a GIF file: the signature is not GIF87a or GIF89a"
        case let .truncated(where_):
            return "GIF file is truncated: \(where_)"
        case let .tooManyPixels(width, height, limit):
            return "GIF screen is \(width)×\(height) = \(width * height) pixels, above the limit of \(limit)"
        case let .invalid(message):
            return "invalid GIF: \(message)"
        case let .badLZWCode(code, next, frame):
            return "GIF frame \(frame)'s LZW data is damaged: code \(code) where the table's next code is \(next)"
        case let .unencodableSize(width, height, canvas):
            return "cannot encode a \(width)×\(height) image as GIF: \(canvas)"
        }
    }
}

extension GIFError {
    /// The `ImageCodecError.Kind` this error is reported as.
    public var kind: ImageCodecError.Kind {
        switch self {
        case .truncated: return .truncated
        case .notGIF, .unencodableSize: return .unsupported
        case .invalid, .badLZWCode: return .corrupt
        case .tooManyPixels: return .tooLarge
        }
    }
}
