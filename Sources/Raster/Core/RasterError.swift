/// Why a raster operation could not produce a result.
public enum RasterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Width or height negative, or width × height above the limit.
    case invalidSize(width: Int, height: Int, reason: String)
    /// A pixel buffer whose length does not match its dimensions.
    case bufferSizeMismatch(expected: Int, actual: Int)
    /// An argument outside its allowed range; the message names it.
    case invalidArgument(String)

    /// What was asked that cannot be done, for logs and error messages.
    public var description: String {
        switch self {
        case let .invalidSize(width, height, reason):
            return "invalid bitmap size \(width)×\(height): \(reason)"
        case let .bufferSizeMismatch(expected, actual):
            return "pixel buffer holds \(actual) bytes, expected \(expected) (width × height × 4)"
        case let .invalidArgument(message):
            return message
        }
    }
}
