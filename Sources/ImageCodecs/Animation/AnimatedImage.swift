import Foundation
import Raster

/// An image read one composited frame at a time, from
/// `ImageDecoder.animation`: an animated GIF, or a still image as one frame.
///
///     var animation = try ImageDecoder.animation(data)
///     while let frame = try animation.nextFrame() {
///         show(frame.bitmap, for: frame.delay)
///     }
///
/// It holds the file, the canvas and at most one saved copy of it (for a
/// GIF's "restore to previous" disposal), so memory stays at a few frames
/// whatever the frame count; a caller that keeps the frames it is given pays
/// for those. Frames past `ImageDecoder.Options.maximumFrameCount`, or whose
/// canvases add up to more than `maximumAnimationPixelCount`, throw
/// `ImageCodecError` of kind `.tooLarge` (detail `.animation`).
public struct AnimatedImage: Sendable {
    /// The header: format, canvas size as stored, orientation, alpha.
    public var info: ImageInfo { decoder.info }
    /// How many times the animation plays in all, as browsers play it; 0
    /// forever. A GIF without a NETSCAPE2.0 block plays once (1); one with a
    /// stored count of N repeats N times after the first play (N + 1), 0
    /// forever. A still image gives 1.
    public var loopCount: Int { decoder.loopCount }
    /// The frames returned so far.
    public private(set) var frameCount = 0
    /// The frames the file holds, counted from its structure when it was
    /// opened, without decoding a pixel (a GIF's blocks are hopped over, a
    /// WebP's `ANMF` chunks listed); 1 for a still image. A damaged or cut
    /// file may end sooner: `nextFrame` is what counts.
    public var storedFrameCount: Int { decoder.storedFrameCount }

    private var decoder: any AnimationFrameDecoding
    private let options: ImageDecoder.Options
    private var finished = false

    init(_ decoder: any AnimationFrameDecoding, options: ImageDecoder.Options) {
        self.decoder = decoder
        self.options = options
    }

    /// Throws now the error `nextFrame` would throw on reaching the file's
    /// last frame: `storedFrameCount` above `options.maximumFrameCount`, or
    /// that many canvases above `maximumAnimationPixelCount`. For a caller
    /// that decodes every frame (and would rather refuse the file before the
    /// work than after the limit's worth of it).
    public func checkLimits() throws {
        let frames = storedFrameCount, canvasPixels = info.width * info.height
        guard frames <= options.maximumFrameCount else {
            throw ImageCodecError(AnimationError.tooManyFrames(limit: options.maximumFrameCount))
        }
        guard frames == 0 || canvasPixels <= options.maximumAnimationPixelCount / frames else {
            throw ImageCodecError(AnimationError.tooManyPixels(frames: frames, canvasPixels: canvasPixels,
                                                               limit: options.maximumAnimationPixelCount))
        }
    }

    /// The next frame, composited over the ones before it and turned upright
    /// when `options.appliesOrientation` says so; nil after the last.
    /// Throws `ImageCodecError` for a damaged frame or one over the limits;
    /// a file cut short ends early instead, as in a browser (see the format's
    /// decoder for what it shows of a partial frame).
    public mutating func nextFrame() throws -> AnimationFrame? {
        guard !finished else { return nil }
        let next: (canvas: Bitmap, milliseconds: Int?)?
        do {
            next = try ImageCodecError.converting { try decoder.nextFrame() }
        } catch {
            finished = true
            throw error
        }
        guard let next else {
            finished = true
            return nil
        }
        let index = frameCount
        let canvasPixels = info.width * info.height
        guard index < options.maximumFrameCount else {
            finished = true
            throw ImageCodecError(AnimationError.tooManyFrames(limit: options.maximumFrameCount))
        }
        guard canvasPixels <= options.maximumAnimationPixelCount / (index + 1) else {
            finished = true
            throw ImageCodecError(AnimationError.tooManyPixels(frames: index + 1, canvasPixels: canvasPixels,
                                                               limit: options.maximumAnimationPixelCount))
        }
        frameCount += 1
        let bitmap = options.appliesOrientation ? try next.canvas.upright(from: info.orientation) : next.canvas
        return AnimationFrame(bitmap: bitmap, delay: AnimationFrame.browserDelay(milliseconds: next.milliseconds), index: index)
    }
}
