import Raster

/// A format's frame-by-frame decoder, behind `AnimatedImage`: it parses the
/// header when made, then composites one frame per call, holding only the
/// canvas (and what its disposal rules must restore), so memory stays the same
/// whatever the frame count. `AnimatedImage` counts the frames, applies
/// `ImageDecoder.Options`' animation limits and the browsers' delay rule; a
/// new format adds one conformance and one `case` in `ImageDecoder.animation`.
protocol AnimationFrameDecoding: Sendable {
    /// The canvas size, format and alpha, from the header.
    var info: ImageInfo { get }
    /// How many times the animation plays in all, 0 forever (see `AnimatedImage.loopCount`).
    var loopCount: Int { get }
    /// The frames the file holds, counted from its structure without decoding
    /// a pixel (1 for a still image); a damaged or cut file may show fewer.
    var storedFrameCount: Int { get }
    /// The next frame, composited: the whole canvas (stored size) and its
    /// delay in milliseconds as stored (nil when the file gives none); nil
    /// after the last frame. Throws the format's error or `ImageCodecError`.
    mutating func nextFrame() throws -> (canvas: Bitmap, milliseconds: Int?)?
}
