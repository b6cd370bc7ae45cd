import ImageCodecs
import Raster

/// How every scheme encodes what it draws, in one place: the `format` and
/// `quality` query items, their range and default, and the encode itself.
///
/// - `format`: `png`, `jpeg` (`jpg`), `webp` (lossless WebP: the lossy
///   encoder is not written yet) or `gif` (up to 256 colours exactly, more
///   reduced by median cut); without it each scheme picks what
///   suits its pictures (`map://` and `poll://` PNG, `asset://` JPEG for an
///   opaque result and PNG when alpha matters, `avatar://` PNG for a circle
///   and JPEG for a square).
/// - `quality`: JPEG quality in `qualityRange` (ignored for PNG), by default
///   `defaultQuality` for every scheme.
public enum OutputEncoding {
    /// The JPEG qualities a URL may ask for.
    public static let qualityRange = 1...100
    /// The JPEG quality when a URL gives none, the same for every scheme.
    public static let defaultQuality = 85
    /// Names what `encode` produces for the same bitmap and settings; part of
    /// every built-in renderer's version.
    static let version = "enc-1"

    /// The `format` and `quality` items of `query`. Throws `URLParameterError` naming the item.
    static func read(_ query: QueryReader) throws -> (format: ImageFormat?, quality: Int) {
        (try query.imageFormat("format"), try query.int("quality", in: qualityRange) ?? defaultQuality)
    }

    /// Writes `format` and `quality`, leaving out what is the default (`defaultFormat`, `defaultQuality`).
    static func write(format: ImageFormat?, quality: Int, defaultFormat: ImageFormat? = nil, to query: inout QueryWriter) {
        if format != defaultFormat { query.add("format", format?.rawValue) }
        if quality != defaultQuality { query.add("quality", quality) }
    }

    /// Throws `URLParameterError` unless `quality` is in `qualityRange` (for values built in code).
    static func check(quality: Int) throws {
        guard qualityRange.contains(quality) else {
            throw URLParameterError(parameter: "quality", reason: "must be a whole number from \(qualityRange.lowerBound) to \(qualityRange.upperBound), got '\(quality)'")
        }
    }

    /// Throws `URLParameterError` unless the encoders can write `format` (for values built in code).
    static func check(format: ImageFormat) throws {
        guard format.isEncodable else {
            let names = ImageFormat.encodable.map(\.rawValue).joined(separator: ", ")
            throw URLParameterError(parameter: "format", reason: "must be one of \(names), got '\(format.rawValue)'")
        }
    }

    /// JPEG for an opaque image, PNG when alpha matters: the default of photo schemes.
    static func photoFormat(for image: Bitmap) -> ImageFormat {
        image.isOpaque ? .jpeg : .png
    }

    /// Encodes `image` as `format`; JPEG output of a translucent image is
    /// flattened onto white. `cancellation` is polled as the encoder goes.
    static func encode(_ image: Bitmap, format: ImageFormat, quality: Int, cancellation: RenderCancellation) throws -> RenderedImage {
        let data = try ImageEncoder.encode(image, format: format, quality: quality, background: .white, checkCancellation: cancellation.check)
        return RenderedImage(data: data, mimeType: format.mimeType)
    }
}
