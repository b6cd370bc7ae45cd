import Foundation
import ImageCodecs
import Raster

/// An image the loader decoded: upright pixels at the size asked for, and
/// what the source was.
public struct LoadedImage: Equatable, Sendable {
    /// The URL that was loaded (for a shared load, the first requester's spelling
    /// of the same canonical URL).
    public var url: URL
    /// The upright pixels (EXIF orientation applied), at the target size when one was given.
    public var bitmap: Bitmap
    /// The format of the bytes the URL answered with.
    public var sourceFormat: ImageFormat
    /// The upright width of the source image, in pixels.
    public var sourceWidth: Int
    /// The upright height of the source image, in pixels.
    public var sourceHeight: Int

    /// Bytes of pixels held in memory: the cost a memory cache charges.
    public var cost: Int { bitmap.pixels.count }

    /// An image decoded from `url`.
    public init(url: URL, bitmap: Bitmap, sourceFormat: ImageFormat, sourceWidth: Int, sourceHeight: Int) {
        self.url = url
        self.bitmap = bitmap
        self.sourceFormat = sourceFormat
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
    }
}
