/// Why an image could not be decoded or encoded: the one error every public
/// codec entry point throws (`ImageDecoder`, `ImageEncoder`, `AnimatedImage`,
/// `JPEGDecoder`, `JPEGEncoder`, `PNGDecoder`, `PNGEncoder`, `GIFDecoder`, `WebPDecoder`,
/// `Inflater`), whatever the format.
///
/// Match on `kind`, which stays the same across formats and versions:
///
///     do { image = try ImageDecoder.decode(data) }
///     catch let error as ImageCodecError where error.kind == .truncated { … }
///
/// `detail` keeps the format's own error (`JPEGError`, `PNGError`,
/// `GIFError`, `WebPError`, `InflateError`, `AnimationError`) for logs and for callers that need to tell, say, the
/// pixel limit from the scan limit. Those enums stay public for that reason,
/// but no public method throws them bare, so a `catch` clause never has to
/// list one per format. Errors thrown by a caller's `checkCancellation`
/// closure pass through unchanged (a `CancellationError` stays one).
public struct ImageCodecError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The cases callers act on; each format's errors map onto these.
    public enum Kind: Equatable, Sendable, CaseIterable {
        /// The data ends before the image does (a download or copy cut short).
        case truncated
        /// Not a format, a coding process or an image shape the codecs handle
        /// (an unknown signature, an arithmetic-coded or 12-bit JPEG, an empty
        /// bitmap to encode, a format `ImageEncoder` cannot write).
        case unsupported
        /// The bytes claim to be the format but break its rules (a bad CRC,
        /// Huffman code, table or chunk): the file is damaged.
        case corrupt
        /// Over a limit: the decoder's pixel, scan or animation limits, or a
        /// size the format cannot store. Checked before the pixels are allocated.
        case tooLarge
    }

    /// The format's own description of the fault.
    public enum Detail: Equatable, Sendable {
        /// From the JPEG decoder or encoder.
        case jpeg(JPEGError)
        /// From the PNG decoder or encoder.
        case png(PNGError)
        /// From the GIF decoder.
        case gif(GIFError)
        /// From the WebP decoder.
        case webp(WebPError)
        /// From `Inflater` used on its own (a PNG's inflate errors arrive as `.png`).
        case deflate(InflateError)
        /// An animation over `ImageDecoder.Options`' frame limits, whatever its format.
        case animation(AnimationError)
        /// The first bytes match no format the codecs read.
        case unrecognizedFormat
        /// An encoder was asked for what the format cannot hold (an animation as PNG or JPEG).
        case notEncodable(ImageFormat)
    }

    /// What kind of fault this is.
    public let kind: Kind
    /// The format's own error.
    public let detail: Detail
    /// What is wrong, in words a log line or a `URLError` can carry.
    public let message: String

    /// The message.
    public var description: String { message }

    /// A JPEG codec error, classified.
    public init(_ error: JPEGError) {
        self.init(kind: error.kind, detail: .jpeg(error), message: error.description)
    }

    /// A PNG codec error, classified.
    public init(_ error: PNGError) {
        self.init(kind: error.kind, detail: .png(error), message: error.description)
    }

    /// A GIF decoder error, classified.
    public init(_ error: GIFError) {
        self.init(kind: error.kind, detail: .gif(error), message: error.description)
    }

    /// A WebP decoder error, classified.
    public init(_ error: WebPError) {
        self.init(kind: error.kind, detail: .webp(error), message: error.description)
    }

    /// An animation limit error, classified (always `.tooLarge`).
    public init(_ error: AnimationError) {
        self.init(kind: .tooLarge, detail: .animation(error), message: error.description)
    }

    /// A deflate error, classified.
    public init(_ error: InflateError) {
        self.init(kind: error.kind, detail: .deflate(error), message: error.description)
    }

    /// An error of any kind, for a decoder written outside the package that
    /// reports through the same type. `detail` says where it came from.
    public init(kind: Kind, detail: Detail, message: String) {
        self.kind = kind
        self.detail = detail
        self.message = message
    }

    /// Bytes whose signature matches no supported format.
    static func unrecognized<Bytes: Collection>(_ head: Bytes) -> ImageCodecError where Bytes.Element == UInt8 {
        let hex = head.prefix(ImageFormat.sniffedByteCount).map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }
        let message = hex.isEmpty ? "the data is empty: no PNG, JPEG, GIF or WebP signature"
            : "the data is not PNG, JPEG, GIF or WebP: its first bytes \(hex.joined(separator: " ")) match no known signature"
        return ImageCodecError(kind: .unsupported, detail: .unrecognizedFormat, message: message)
    }

    /// Runs `body`, turning the formats' own errors into `ImageCodecError`
    /// and letting every other error (cancellation) through unchanged.
    static func converting<T>(_ body: () throws -> T) rethrows -> T {
        do {
            return try body()
        } catch let error as JPEGError {
            throw ImageCodecError(error)
        } catch let error as PNGError {
            throw ImageCodecError(error)
        } catch let error as GIFError {
            throw ImageCodecError(error)
        } catch let error as WebPError {
            throw ImageCodecError(error)
        } catch let error as InflateError {
            throw ImageCodecError(error)
        } catch let error as AnimationError {
            throw ImageCodecError(error)
        }
    }
}
