/// A request the loader refuses before loading anything.
public enum ImageLoaderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A target size with a side outside 1...`ImageTargetSize.maximumSide`.
    case invalidTargetSize(width: Int, height: Int)

    /// What is wrong and what would be accepted.
    public var description: String {
        switch self {
        case let .invalidTargetSize(width, height):
            return "target size \(width)×\(height) is invalid: width and height must each be 1 to \(ImageTargetSize.maximumSide) pixels"
        }
    }
}
