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
    /// The `ANMF` chunks the container lists (already under the decoder's frame limit), 1 for a still image.
    var storedFrameCount: Int { container.isAnimated ? container.frames.count : 1 }
    /// The `ICCP` chunk's colour profile, as stored.
    var iccProfile: Data? { container.iccProfile.map { range in data.withUnsafeBytes { Data($0[range]) } } }

    private let data: Data
    private let container: WebPContainer
    private let pictures: WebPPictureDecoder
    private var next = 0
    /// The last frame returned, its disposal still to do (done when the next
    /// frame is drawn, by which time the caller has often let its copy go, so
    /// the canvas is changed in place rather than copied); nil before the first.
    private var canvas: Bitmap?
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
        var canvas = try self.canvas ?? Bitmap(width: info.width, height: info.height)
        self.canvas = nil  // so the only other reference is the caller's, if it kept the last frame
        if isKeyFrame {
            // Drawn on transparent; a frame covering the canvas writes every pixel anyway.
            if !covers(frame) { canvas.pixels.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        } else if let previous, previous.disposesToBackground {
            clear(previous, in: &canvas)
        }
        let blends = previous != nil && frame.blends && !isKeyFrame
        // Cleared by the previous frame's disposal: there libwebp keeps the new pixel as decoded.
        let cleared = previous.flatMap { $0.disposesToBackground ? $0 : nil }
        let canvasWidth = info.width
        canvas.pixels.withUnsafeMutableBytes { target in
            picture.pixels.withUnsafeBytes { source in
                for row in 0..<frame.height {
                    let y = frame.y + row
                    let targetRow = target.baseAddress! + (y * canvasWidth + frame.x) * 4
                    let sourceRow = source.baseAddress! + row * frame.width * 4
                    guard blends else {
                        targetRow.copyMemory(from: sourceRow, byteCount: frame.width * 4)
                        continue
                    }
                    var keep = 0..<0
                    if let cleared, y >= cleared.y && y < cleared.y + cleared.height {
                        keep = cleared.x - frame.x..<cleared.x + cleared.width - frame.x
                    }
                    for column in 0..<frame.width {
                        var pixel = sourceRow.load(fromByteOffset: column * 4, as: UInt32.self)
                        if pixel >> 24 != 0xFF && !keep.contains(column) {
                            pixel = Self.blend(pixel, over: targetRow.load(fromByteOffset: column * 4, as: UInt32.self))
                        }
                        targetRow.storeBytes(of: pixel, toByteOffset: column * 4, as: UInt32.self)
                    }
                }
            }
        }
        self.canvas = canvas
        previousWasKeyFrame = isKeyFrame
        next += 1
        return (canvas, frame.duration)
    }

    /// Clears `frame`'s rectangle to transparent (disposal to background).
    private func clear(_ frame: WebPContainer.Frame, in canvas: inout Bitmap) {
        let width = info.width
        canvas.pixels.withUnsafeMutableBytes { bytes in
            for y in frame.y..<frame.y + frame.height {
                (bytes.baseAddress! + (y * width + frame.x) * 4).initializeMemory(as: UInt8.self, repeating: 0, count: frame.width * 4)
            }
        }
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
