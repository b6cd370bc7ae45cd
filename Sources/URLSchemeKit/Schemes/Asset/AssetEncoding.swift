import ImageCodecs
import Raster

/// How `asset://` and `avatar://` encode a result: the format the URL names,
/// else JPEG for an opaque image and PNG when alpha matters.
enum AssetEncoding {
    /// Encodes `image`; JPEG output of a translucent image is flattened onto
    /// white (`ImageEncoder`). `cancellation` is polled as the encoder goes.
    static func encode(_ image: Bitmap, format: ImageFormat?, quality: Int, cancellation: RenderCancellation) throws -> RenderedImage {
        let format = format ?? (image.isOpaque ? .jpeg : .png)
        let data = try ImageEncoder.encode(image, format: format, quality: quality, background: .white, checkCancellation: cancellation.check)
        return RenderedImage(data: data, mimeType: format.mimeType)
    }
}
