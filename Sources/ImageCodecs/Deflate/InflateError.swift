/// Why a deflate or zlib stream could not be decompressed.
public enum InflateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The stream ended before its final block did.
    case truncated
    /// A structural error: the message names the field and what it held.
    case corrupt(String)
    /// The output would pass the caller's limit (a decompression bomb, or a wrong size).
    case outputLimitExceeded(limit: Int)

    /// What is wrong with the stream, for logs and `URLError` descriptions.
    public var description: String {
        switch self {
        case .truncated: return "compressed data ends before its last block"
        case let .corrupt(message): return "corrupt compressed data: \(message)"
        case let .outputLimitExceeded(limit): return "decompressed data exceeds the limit of \(limit) bytes"
        }
    }
}

extension InflateError {
    /// The `ImageCodecError.Kind` this error is reported as.
    public var kind: ImageCodecError.Kind {
        switch self {
        case .truncated: return .truncated
        case .corrupt: return .corrupt
        case .outputLimitExceeded: return .tooLarge
        }
    }
}
