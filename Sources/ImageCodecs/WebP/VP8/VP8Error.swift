/// Why a lossy `VP8 ` chunk could not be decoded. Each description names the problem.
public enum VP8Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// The chunk ends before the named structure is complete (the frame tag,
    /// the key-frame header, a partition, or the coefficients of a macroblock).
    case truncated(String)
    /// The chunk breaks the format's rules; the string says which and how.
    case corrupt(String)
    /// The frame is valid VP8 but not what WebP carries (an inter frame, a
    /// hidden frame, a profile above 3).
    case unsupported(String)
    /// Width × height exceeds the decoder's `maximumPixelCount`.
    case tooManyPixels(width: Int, height: Int, limit: Int)

    /// What is wrong with the chunk, for logs and `URLError` descriptions.
    public var description: String {
        switch self {
        case .truncated(let what): return "VP8 data ends inside \(what)"
        case .corrupt(let what): return "corrupt VP8 data: \(what)"
        case .unsupported(let what): return "\(what) is not supported in a WebP VP8 chunk"
        case .tooManyPixels(let width, let height, let limit):
            return "VP8 image \(width)×\(height) exceeds the limit of \(limit) pixels"
        }
    }

    /// The `ImageCodecError.Kind` this error is reported as.
    public var kind: ImageCodecError.Kind {
        switch self {
        case .truncated: return .truncated
        case .corrupt: return .corrupt
        case .unsupported: return .unsupported
        case .tooManyPixels: return .tooLarge
        }
    }
}
