import Foundation
import Raster

/// Composites a WebP animation's frames one at a time, the way libwebp's
/// `WebPAnimDecoder` (what Pillow and Chromium's decoders follow) does, to
/// the same bytes: the canvas starts transparent (the `ANIM` background
/// colour is only a hint, and browsers ignore it too), a frame replaces its
/// rectangle or is alpha-blended over what the previous frame left
/// (non-premultiplied, with libwebp's integer arithmetic), and a frame that
/// disposes to background clears its rectangle to transparent afterwards.
/// A still WebP is one frame.
///
/// It holds the file, the disposed canvas of the previous frame and the
/// frame being drawn: memory stays at a few canvases whatever the frame count.
struct WebPAnimationDecoder: AnimationFrameDecoding {
    let info: ImageInfo
    var loopCount: Int { container.isAnimated ? container.loopCount : 1 }
    /// The `ICCP` chunk's colour profile, as stored.
    var iccProfile: Data? { container.iccProfile.map { range in data.withUnsafeBytes { Data($0[range]) } } }

    private let data: Data
    private let container: WebPContainer
    private let pictures: WebPPictureDecoder
    private var next = 0
    /// The canvas after the previous frame and its disposal; nil before the first.
    private var disposed: Bitmap?
    private var previousWasKeyFrame = false

    init(data: Data, container: WebPContainer, info: ImageInfo, maximumPixelCount: Int) {
        self.data = data
        self.container = container
        self.info = info
        pictures = WebPPictureDecoder(maximumPixelCount: maximumPixelCount)
    }

    mutating func nextFrame() throws -> (canvas: Bitmap, milliseconds: Int?)? {
        try nextFrame(checkCancellation: {})
    }

    /// The next composited canvas and its stored duration (nil for a still image).
    mutating func nextFrame(checkCancellation: () throws -> Void) throws -> (canvas: Bitmap, milliseconds: Int?)? {
        guard container.isAnimated else {
            guard next == 0 else { return nil }
            next = 1
            let bitmap = try data.withUnsafeBytes { bytes in
                try pictures.decode(bytes, container.picture, width: info.width, height: info.height, checkCancellation: checkCancellation)
            }
            return (bitmap, nil)
        }
        guard next < container.frames.count else { return nil }
        let frame = container.frames[next]
        let picture = try data.withUnsafeBytes { bytes in
            try pictures.decode(bytes, frame.picture, width: frame.width, height: frame.height, checkCancellation: checkCancellation)
        }
        let hasAlpha = try data.withUnsafeBytes { bytes in try WebPContainer.pictureSize(bytes, frame.picture).hasAlpha }
        let previous = next > 0 ? container.frames[next - 1] : nil
        let isKeyFrame = isKey(frame, hasAlpha: hasAlpha, previous: previous)
        var canvas = try isKeyFrame || disposed == nil ? Bitmap(width: info.width, height: info.height) : disposed!
        let blends = previous != nil && frame.blends && !isKeyFrame
        canvas.pixels.withUnsafeMutableBytes { canvasBytes in
            picture.pixels.withUnsafeBytes { source in
                (disposed?.pixels ?? []).withUnsafeBytes { before in
                    for row in 0..<frame.height {
                        let y = frame.y + row
                        for column in 0..<frame.width {
                            let x = frame.x + column
                            var pixel = source.load(fromByteOffset: (row * frame.width + column) * 4, as: UInt32.self)
                            if blends && pixel >> 24 != 0xFF && !clearedBefore(x: x, y: y, previous: previous!) {
                                pixel = Self.blend(pixel, over: before.load(fromByteOffset: (y * info.width + x) * 4, as: UInt32.self))
                            }
                            canvasBytes.storeBytes(of: pixel, toByteOffset: (y * info.width + x) * 4, as: UInt32.self)
                        }
                    }
                }
            }
        }
        var afterDisposal = canvas
        if frame.disposesToBackground {
            afterDisposal.pixels.withUnsafeMutableBytes { bytes in
                for y in frame.y..<frame.y + frame.height {
                    let start = (y * info.width + frame.x) * 4
                    bytes[start..<start + frame.width * 4].initializeMemory(as: UInt8.self, repeating: 0)
                }
            }
        }
        disposed = afterDisposal
        previousWasKeyFrame = isKeyFrame
        next += 1
        return (canvas, frame.duration)
    }

    /// libwebp's key frame: one drawn on a transparent canvas, because it
    /// covers the canvas without blending, or everything before it was cleared.
    private func isKey(_ frame: WebPContainer.Frame, hasAlpha: Bool, previous: WebPContainer.Frame?) -> Bool {
        guard let previous else { return true }
        if (!hasAlpha || !frame.blends) && covers(frame) { return true }
        return previous.disposesToBackground && (covers(previous) || previousWasKeyFrame)
    }

    private func covers(_ frame: WebPContainer.Frame) -> Bool {
        frame.width == info.width && frame.height == info.height
    }

    /// Whether (x, y) lies in the rectangle the previous frame cleared: there
    /// the pixel is transparent before blending and libwebp keeps the new one as decoded.
    @inline(__always)
    private func clearedBefore(x: Int, y: Int, previous: WebPContainer.Frame) -> Bool {
        previous.disposesToBackground && x >= previous.x && x < previous.x + previous.width
            && y >= previous.y && y < previous.y + previous.height
    }

    /// `source` over `destination`, RGBA words with straight alpha, in
    /// libwebp's integer arithmetic (`BlendPixelNonPremult`).
    static func blend(_ source: UInt32, over destination: UInt32) -> UInt32 {
        let sourceAlpha = source >> 24
        guard sourceAlpha != 0 else { return destination }
        let destinationFactor = ((destination >> 24) * (256 - sourceAlpha)) >> 8
        let alpha = sourceAlpha + destinationFactor
        let scale = (1 << 24) / alpha
        var result = alpha << 24
        for shift: UInt32 in [0, 8, 16] {
            let channel = (((source >> shift & 0xFF) * sourceAlpha + (destination >> shift & 0xFF) * destinationFactor) * scale) >> 24
            result |= (channel & 0xFF) << shift
        }
        return result
    }
}
