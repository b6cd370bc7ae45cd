import Foundation
import Raster

/// Reads WebP files into RGBA bitmaps: the RIFF container (simple, or
/// extended with `VP8X`), lossless `VP8L` exactly as libwebp decodes it,
/// lossy `VP8 ` with its `ALPH` plane, and the first frame of an animation
/// (`AnimatedImage`, through `ImageDecoder.animation`, gives every frame).
///
/// The orientation comes from an `EXIF` chunk, read by the same EXIF reader
/// as a JPEG's APP1; an `ICCP` chunk's profile is carried in
/// `DecodedImage.iccProfile`. The canvas and every frame are checked against
/// `maximumPixelCount` before anything is allocated. Every method throws
/// `ImageCodecError` (its `detail` the `WebPError`); `ImageDecoder` applies
/// the orientation.
public struct WebPDecoder: ImageDecoding {
    /// The largest width × height this decoder accepts (canvas, frame, alpha plane).
    public var maximumPixelCount: Int
    /// The most frames an animation may list (`ANMF` chunks), checked when the container is read.
    public var maximumFrameCount: Int

    /// A decoder that refuses images of more than `maximumPixelCount` pixels,
    /// and animations of more than `maximumFrameCount` frames, before allocating them.
    public init(maximumPixelCount: Int = defaultMaximumPixelCount,
                maximumFrameCount: Int = ImageDecoder.Options.defaultMaximumFrameCount) {
        self.maximumPixelCount = maximumPixelCount
        self.maximumFrameCount = maximumFrameCount
    }

    /// The canvas size, alpha and EXIF orientation, from the container and
    /// the bitstream headers, without decoding pixels.
    public func readInfo(_ data: Data) throws -> ImageInfo {
        try ImageCodecError.converting {
            try data.withUnsafeBytes { bytes in Self.info(try container(bytes), bytes) }
        }
    }

    /// Decodes the image (an animation's first frame) as stored: the
    /// orientation is not applied.
    public func decode(_ data: Data) throws -> Bitmap {
        try decodeImage(data, checkCancellation: {}).bitmap
    }

    /// The stored pixels, the header's facts and the ICC profile; `ImageDecoder`
    /// applies the orientation.
    func decodeImage(_ data: Data, checkCancellation: () throws -> Void) throws -> (bitmap: Bitmap, info: ImageInfo, iccProfile: Data?) {
        try ImageCodecError.converting {
            var frames = try frameDecoder(data)
            guard let first = try frames.nextFrame(checkCancellation: checkCancellation) else {
                throw WebPError.invalidContainer("an animation without frames")
            }
            return (first.canvas, frames.info, frames.iccProfile)
        }
    }

    /// The frames of the file one at a time (a still image as one frame).
    func animationDecoder(_ data: Data) throws -> WebPAnimationDecoder {
        try ImageCodecError.converting { try frameDecoder(data) }
    }

    private func frameDecoder(_ data: Data) throws -> WebPAnimationDecoder {
        let container: WebPContainer = try data.withUnsafeBytes { bytes in try self.container(bytes) }
        let info: ImageInfo = data.withUnsafeBytes { bytes in Self.info(container, bytes) }
        return WebPAnimationDecoder(data: data, container: container, info: info, maximumPixelCount: maximumPixelCount)
    }

    private func container(_ bytes: UnsafeRawBufferPointer) throws -> WebPContainer {
        try WebPContainer(parsing: bytes, maximumPixelCount: min(maximumPixelCount, Bitmap.maximumPixelCount),
                          maximumFrameCount: maximumFrameCount)
    }

    private static func info(_ container: WebPContainer, _ bytes: UnsafeRawBufferPointer) -> ImageInfo {
        let orientation = container.exif.flatMap { range in
            UnsafeRawBufferPointer(rebasing: bytes[range]).withMemoryRebound(to: UInt8.self) { ExifReader.orientation(inPNGChunk: $0) }
        }
        return ImageInfo(format: .webp, width: container.width, height: container.height, orientation: orientation ?? .up,
                         hasAlpha: container.hasAlpha)
    }
}
