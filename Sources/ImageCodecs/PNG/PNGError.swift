/// Why a PNG could not be written (or, later, read). Descriptions say what is wrong.
public enum PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// PNG has no way to store a 0×N or N×0 image.
    case emptyImage(width: Int, height: Int)
    /// Width or height beyond PNG's 2³¹−1 limit.
    case dimensionsTooLarge(width: Int, height: Int)

    public var description: String {
        switch self {
        case let .emptyImage(width, height):
            return "PNG cannot store an empty image (\(width)×\(height)); width and height must be at least 1"
        case let .dimensionsTooLarge(width, height):
            return "PNG dimensions \(width)×\(height) exceed 2147483647"
        }
    }
}
