import ImageCodecs
import Raster

/// How every scheme encodes what it draws, in one place: the `format`,
/// `quality` and `lossless` query items, their ranges and defaults, and the
/// encode itself (docs/image-formats.md).
///
/// - `format`: `png`, `jpeg` (`jpg`), `webp` (lossy, alpha kept exact) or
///   `gif` (up to 256 colours exactly, more reduced by median cut); without
///   it each scheme picks what suits its pictures (`map://` and `poll://`
///   PNG, `asset://` JPEG for an opaque result and PNG when alpha matters,
///   `avatar://` PNG for a circle and JPEG for a square).
/// - `quality`: JPEG and lossy WebP quality in `qualityRange` (ignored for
///   PNG and GIF); without it `defaultQuality` (85) for JPEG and
///   `defaultWebPQuality` (75, `cwebp`'s) for WebP.
/// - `lossless=true`: lossless WebP; only with `format=webp`.
public enum OutputEncoding {
    /// The JPEG and WebP qualities a URL may ask for.
    public static let qualityRange = 1...100
    /// The JPEG quality when a URL gives none, the same for every scheme.
    public static let defaultQuality = 85
    /// The lossy WebP quality when a URL gives none: `cwebp`'s default.
    public static let defaultWebPQuality = WebPLossyEncoder.defaultQuality
    /// Names what `encode` produces for the same bitmap and settings; part of
    /// every built-in renderer's version.
    static let version = "enc-2"

    /// The `format`, `quality` and `lossless` items of `query` (`defaultFormat`:
    /// what the scheme writes without `format`). Throws `URLParameterError` naming the item.
    static func read(_ query: QueryReader, defaultFormat: ImageFormat? = nil) throws -> (format: ImageFormat?, quality: Int?, lossless: Bool) {
        let format = try query.imageFormat("format")
        let lossless = try query.bool("lossless") ?? false
        try check(lossless: lossless, format: format ?? defaultFormat)
        return (format, try query.int("quality", in: qualityRange), lossless)
    }

    /// Writes `format`, `quality` and `lossless`, leaving out what is the default
    /// (`defaultFormat`, no quality, not lossless).
    static func write(format: ImageFormat?, quality: Int?, lossless: Bool, defaultFormat: ImageFormat? = nil, to query: inout QueryWriter) {
        if format != defaultFormat { query.add("format", format?.rawValue) }
        query.add("quality", quality)
        if lossless { query.add("lossless", "true") }
    }

    /// Throws `URLParameterError` when `lossless` is asked of a format other than WebP.
    static func check(lossless: Bool, format: ImageFormat?) throws {
        guard !lossless || format == .webp else {
            throw URLParameterError(parameter: "lossless", reason: "applies to format=webp only (PNG is always lossless, JPEG never)")
        }
    }

    /// Throws `URLParameterError` unless `quality` is nil or in `qualityRange` (for values built in code).
    static func check(quality: Int?) throws {
        guard let quality else { return }
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

    /// Encodes `image` as `format` (`quality` nil: the format's default);
    /// JPEG output of a translucent image is flattened onto white.
    /// `cancellation` is polled as the encoder goes.
    static func encode(_ image: Bitmap, format: ImageFormat, quality: Int?, lossless: Bool = false,
                       cancellation: RenderCancellation) throws -> RenderedImage {
        let data = try ImageEncoder.encode(image, format: format, quality: quality, lossless: lossless, background: .white,
                                           checkCancellation: cancellation.check)
        return RenderedImage(data: data, mimeType: format.mimeType)
    }
}
