import Foundation
import Raster

/// The one entry point for encoding a bitmap in a format chosen at run time
/// (a URL's `format=`); use `PNGEncoder`, `JPEGEncoder`, `WebPLossyEncoder`
/// or `WebPLosslessEncoder` directly for their other settings (colour type,
/// deflate level, subsampling, effort), and `GIFAnimationEncoder` or
/// `WebPAnimationEncoder` for animations.
public enum ImageEncoder {
    /// `bitmap` as one complete file. JPEG has no alpha channel: a bitmap
    /// with translucent pixels is composited onto `background` first (PNG
    /// and WebP keep them). WebP is lossy (`WebPLossyEncoder`, alpha kept
    /// exact) unless `lossless` (`WebPLosslessEncoder` at its default effort).
    /// GIF keeps up to 256 colours exactly and reduces more by median cut
    /// (`GIFEncoder`), alpha cut at 128.
    /// `quality` (1…100, clamped) applies to JPEG and lossy WebP; nil is the
    /// format's own default (`JPEGEncoder.defaultQuality`, 85, and
    /// `WebPLossyEncoder.defaultQuality`, 75, as `cwebp`). `progressive` (a
    /// progressive JPEG, see `JPEGEncoder.progressive`) applies to JPEG only.
    /// `checkCancellation` is polled as the encoder goes; whatever it throws
    /// ends the encode. Throws `ImageCodecError` for a bitmap the format
    /// cannot store (empty, or larger than its limits).
    public static func encode(_ bitmap: Bitmap, format: ImageFormat, quality: Int? = nil, lossless: Bool = false,
                              background: RGBA = .white, progressive: Bool = false, checkCancellation: () throws -> Void = {}) throws -> Data {
        switch format {
        case .png:
            return try PNGEncoder().encode(bitmap, checkCancellation: checkCancellation)
        case .jpeg:
            let opaque = bitmap.isOpaque ? bitmap : bitmap.flattened(onto: background)
            return try JPEGEncoder(quality: quality ?? JPEGEncoder.defaultQuality, progressive: progressive).encode(opaque, checkCancellation: checkCancellation)
        case .webp where lossless:
            return try WebPLosslessEncoder().encode(bitmap, checkCancellation: checkCancellation)
        case .webp:
            return try WebPLossyEncoder(quality: quality ?? WebPLossyEncoder.defaultQuality)
                .encode(bitmap, checkCancellation: checkCancellation)
        case .gif:
            try checkCancellation()
            return try GIFEncoder().encode(bitmap)
        }
    }
}
