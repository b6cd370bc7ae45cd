import Foundation
import Raster

/// Writes a still image as a GIF: one frame of `GIFAnimationEncoder`, its
/// colours kept exactly when there are at most 256 (255 with transparency)
/// and reduced by median cut otherwise. Alpha is cut at 128.
public struct GIFEncoder: ImageEncoding {
    /// Whether colours beyond the palette are dithered (Floyd–Steinberg).
    public var dithers: Bool

    /// Always `.gif`.
    public var format: ImageFormat { .gif }

    /// An encoder, dithering when `dithers` is true.
    public init(dithers: Bool = false) {
        self.dithers = dithers
    }

    /// The GIF file for `bitmap`. Throws `ImageCodecError` (detail a
    /// `GIFError`) for a side of 0 or over 65,535 pixels.
    public func encode(_ bitmap: Bitmap) throws -> Data {
        var encoder = try GIFAnimationEncoder(width: bitmap.width, height: bitmap.height, loopCount: 1, dithers: dithers)
        try encoder.add(bitmap, delay: 0)
        return try encoder.finish()
    }
}
