import ImageCodecs
import Raster

/// How `asset://` and `avatar://` encode a result: the format the URL names,
/// else JPEG for an opaque image and PNG when alpha matters.
enum AssetEncoding {
    /// Encodes `image`; JPEG output of a translucent image is flattened onto
    /// white. `cancellation` is polled as the encoder goes.
    static func encode(_ image: Bitmap, format: ImageFormat?, quality: Int, cancellation: RenderCancellation) throws -> RenderedImage {
        switch format ?? (image.isOpaque ? .jpeg : .png) {
        case .png:
            return RenderedImage(data: try PNGEncoder().encode(image, checkCancellation: cancellation.check), mimeType: ImageFormat.png.mimeType)
        case .jpeg:
            let opaque = image.isOpaque ? image : image.flattened(onto: .white)
            return RenderedImage(data: try JPEGEncoder(quality: quality).encode(opaque, checkCancellation: cancellation.check),
                                 mimeType: ImageFormat.jpeg.mimeType)
        }
    }
}
