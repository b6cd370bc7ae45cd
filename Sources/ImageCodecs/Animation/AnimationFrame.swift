import Raster

/// One frame of an animation as it is shown: the whole canvas, composited
/// over the frames before it as the format's disposal and blending rules say.
public struct AnimationFrame: Sendable {
    /// The canvas after this frame is drawn: RGBA, the animation's full
    /// size (`AnimatedImage.info`), transparent where nothing was drawn.
    public var bitmap: Bitmap
    /// How long the frame stays on screen, in seconds, as browsers treat the
    /// stored value: a delay under 20 ms, or none, shows for 100 ms.
    public var delay: Double
    /// The frame's position in the animation, from 0.
    public var index: Int

    /// A frame as a decoder or a test states it.
    public init(bitmap: Bitmap, delay: Double, index: Int) {
        self.bitmap = bitmap
        self.delay = delay
        self.index = index
    }

    /// The delay browsers show a frame stored with `milliseconds` for (nil
    /// when the file gives none): under 20 ms, or none, becomes 100 ms, as
    /// Chromium, Firefox and Safari do, since so many files store 0 meaning
    /// "as fast as you like".
    static func browserDelay(milliseconds: Int?) -> Double {
        guard let milliseconds, milliseconds >= 20 else { return 0.1 }
        return Double(milliseconds) / 1000
    }
}
