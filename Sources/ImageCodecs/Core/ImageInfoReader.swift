import Foundation

/// Reads an image's header with the right decoder for its format (sniffed
/// from its first bytes, whatever the file is called).
public enum ImageInfoReader {
    /// What the header says. Throws for bytes that are no supported image.
    public static func readInfo(_ data: Data) throws -> ImageInfo {
        switch ImageFormat(sniffing: data.prefix(8)) {
        case .png:
            return try PNGDecoder().readInfo(data)
        case .jpeg:
            return try JPEGDecoder().readInfo(data)
        case nil:
            throw ImageFormatError.unsupported("the data is neither PNG nor JPEG (its first bytes match no known signature)")
        }
    }
}

/// An image whose format the package cannot handle.
public enum ImageFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    case unsupported(String)

    /// What went wrong, in words a log line can carry.
    public var description: String {
        switch self {
        case let .unsupported(reason): return reason
        }
    }
}
