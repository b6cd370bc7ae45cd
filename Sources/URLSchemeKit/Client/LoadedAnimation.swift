import Foundation
import ImageCodecs
import Raster

/// An animation the loader decoded (`ImageLoader.animation(for:size:priority:)`):
/// every frame, upright and at the size asked for, with how long each shows
/// and how often the whole plays. A still image is one frame.
public struct LoadedAnimation: Equatable, Sendable {
    /// One frame as shown: the whole canvas composited over the frames
    /// before it, then resized like a still image.
    public struct Frame: Equatable, Sendable {
        /// The upright pixels, at the target size when one was given.
        public var bitmap: Bitmap
        /// Seconds on screen, as browsers treat the stored value (see `AnimationFrame.delay`).
        public var delay: Double

        /// A frame as the loader (or a test) states it.
        public init(bitmap: Bitmap, delay: Double) {
            self.bitmap = bitmap
            self.delay = delay
        }
    }

    /// The URL that was loaded (for a shared load, the first requester's
    /// spelling of the same canonical URL).
    public var url: URL
    /// The frames in order; never empty.
    public var frames: [Frame]
    /// How many times the animation plays in all, 0 forever (see `AnimatedImage.loopCount`); 1 for a still image.
    public var loopCount: Int
    /// The format of the bytes the URL answered with.
    public var sourceFormat: ImageFormat
    /// The upright width of the source's canvas, in pixels.
    public var sourceWidth: Int
    /// The upright height of the source's canvas, in pixels.
    public var sourceHeight: Int

    /// An animation decoded from `url`.
    public init(url: URL, frames: [Frame], loopCount: Int, sourceFormat: ImageFormat, sourceWidth: Int, sourceHeight: Int) {
        self.url = url
        self.frames = frames
        self.loopCount = loopCount
        self.sourceFormat = sourceFormat
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
    }

    /// Bytes of pixels held in memory, every frame's: the cost a memory cache charges.
    public var cost: Int { frames.reduce(0) { $0 + $1.bitmap.pixels.count } }

    /// Seconds one play takes: the frames' delays added up.
    public var duration: Double { frames.reduce(0) { $0 + $1.delay } }
}
