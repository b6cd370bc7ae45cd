/// Why a WebP file could not be read. Descriptions say what is wrong and where.
///
/// Public so a caller can tell the faults apart in `ImageCodecError.detail`;
/// no public method throws it bare.
public enum WebPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first twelve bytes are not `RIFF`, a size and `WEBP`.
    case notWebP
    /// The file ends inside a chunk or a bitstream; the message says where.
    case truncated(String)
    /// The RIFF container breaks the format's rules (chunk sizes, `VP8X`
    /// flags and canvas, chunk order, a frame outside the canvas).
    case invalidContainer(String)
    /// The lossless (`VP8L`) bitstream is damaged: a header field, a prefix
    /// code, a transform or a backward reference the format forbids.
    case invalidLossless(String)
    /// The `ALPH` chunk is damaged (its header, or raw data shorter than the image).
    case invalidAlpha(String)
    /// The lossy (`VP8 `) bitstream could not be decoded; the `VP8Error` says why.
    case lossy(VP8Error)
    /// width × height (of the canvas or a frame) is above the decoder's
    /// `maximumPixelCount`; checked before any allocation.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// An animation has more frames than the decoder's frame limit.
    case tooManyFrames(limit: Int)
    /// The encoder was given a bitmap WebP cannot store: empty, or wider or
    /// taller than `maximum` (16,384 pixels lossless, 16,383 lossy).
    case unencodableSize(width: Int, height: Int, maximum: Int)
    /// The lossy encoder cannot store this picture in VP8's syntax (the reason).
    case unencodableLossy(String)

    /// What is wrong with the file, for logs and `URLError` descriptions.
    public var description: String {
        switch self {
        case .notWebP:
            return "not a WebP file: the RIFF/WEBP header is missing"
        case let .truncated(where_):
            return "WebP file is truncated: \(where_)"
        case let .invalidContainer(message):
            return "invalid WebP container: \(message)"
        case let .invalidLossless(message):
            return "invalid WebP lossless bitstream: \(message)"
        case let .invalidAlpha(message):
            return "invalid WebP alpha (ALPH) data: \(message)"
        case let .lossy(error):
            return "WebP lossy image: \(error.description)"
        case let .tooManyPixels(width, height, limit):
            return "WebP image is \(width)×\(height) = \(width * height) pixels, above the limit of \(limit)"
        case let .tooManyFrames(limit):
            return "WebP animation has more than \(limit) frames"
        case let .unencodableLossy(reason):
            return "cannot encode the image as lossy WebP: \(reason)"
        case let .unencodableSize(width, height, maximum):
            return "cannot encode a \(width)×\(height) image as WebP: each side must be 1 to \(maximum) pixels"
        }
    }

    /// The `ImageCodecError.Kind` this error is reported as.
    public var kind: ImageCodecError.Kind {
        switch self {
        case .truncated: return .truncated
        case let .lossy(error): return error.kind
        case .notWebP: return .unsupported
        case .invalidContainer, .invalidLossless, .invalidAlpha: return .corrupt
        case .tooManyPixels, .tooManyFrames, .unencodableLossy: return .tooLarge
        case let .unencodableSize(width, height, _): return width < 1 || height < 1 ? .unsupported : .tooLarge
        }
    }
}
