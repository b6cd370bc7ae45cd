import Foundation
import Raster

/// Reads GIF files (87a and 89a) into RGBA bitmaps: the first frame as a
/// browser shows it, composited on a transparent canvas of the logical
/// screen's size. `ImageDecoder.animation` gives every frame; see
/// `GIFFrameDecoder` for how damaged, cut-short and odd files are read (as
/// Chromium reads them). The screen is checked against `maximumPixelCount`
/// at the header, before anything is allocated. Every method throws
/// `ImageCodecError` (its `detail` the `GIFError`).
public struct GIFDecoder: ImageDecoding {
    /// The largest canvas or frame (width × height) this decoder accepts.
    public var maximumPixelCount: Int

    /// A decoder that refuses canvases of more than `maximumPixelCount` pixels before allocating them.
    public init(maximumPixelCount: Int = defaultMaximumPixelCount) {
        self.maximumPixelCount = maximumPixelCount
    }

    /// The canvas size and whether the first frame can be transparent, from
    /// the blocks up to the first image's data.
    public func readInfo(_ data: Data) throws -> ImageInfo {
        try ImageCodecError.converting { try GIFFrameDecoder(data, maximumPixelCount: maximumPixelCount).info }
    }

    /// The first frame, composited as a browser first shows the file.
    public func decode(_ data: Data) throws -> Bitmap {
        try decodeImage(data).bitmap
    }

    /// The first frame and the header's facts; at a `scale` below full, the
    /// frame is composited straight at that fraction of each side (each
    /// pixel the average of those it covers), so the work and memory follow
    /// the output and the pixels stored, not the screen's size.
    func decodeImage(_ data: Data, scale: JPEGScale = .full) throws -> (bitmap: Bitmap, info: ImageInfo) {
        try ImageCodecError.converting {
            var frames = try GIFFrameDecoder(data, maximumPixelCount: maximumPixelCount)
            if scale != .full { return (try frames.firstFrame(reducedBy: scale.rawValue), frames.info) }
            guard let first = try frames.nextFrame() else { throw GIFError.invalid("the file holds no image") }
            return (first.canvas, frames.info)
        }
    }

    /// The frame-by-frame decoder behind `ImageDecoder.animation`.
    func frames(_ data: Data) throws -> GIFFrameDecoder {
        try ImageCodecError.converting { try GIFFrameDecoder(data, maximumPixelCount: maximumPixelCount) }
    }
}
