import Foundation
import Raster

/// What `ImageDecoder.decode` returns: the pixels and the facts of the file they came from.
public struct DecodedImage: Sendable {
    /// The pixels: upright when `isUpright`, and reduced by `scale`.
    public var bitmap: Bitmap
    /// The file's header: format, full stored size, orientation, alpha.
    public var info: ImageInfo
    /// The JPEG scale the pixels were decoded at; `.full` for every other format.
    public var scale: JPEGScale
    /// Whether `bitmap` is as the file's orientation says it is to be shown
    /// (true when the orientation was applied, or is `.up`).
    public var isUpright: Bool
    /// The ICC colour profile the file embeds, as stored (a WebP's `ICCP`
    /// chunk); nil when it has none, and for PNG and JPEG, whose decoders do
    /// not carry theirs yet. The pixels are not converted with it.
    public var iccProfile: Data?

    /// A decoded image, as a decoder or a test states it.
    public init(bitmap: Bitmap, info: ImageInfo, scale: JPEGScale = .full, isUpright: Bool = true, iccProfile: Data? = nil) {
        self.bitmap = bitmap
        self.info = info
        self.scale = scale
        self.isUpright = isUpright
        self.iccProfile = iccProfile
    }
}
