import Foundation
import Raster

/// Writes an animation one composited frame at a time: adopted by
/// `GIFAnimationEncoder` and `WebPAnimationEncoder`. Each frame is the whole
/// canvas as it should be shown (what `AnimatedImage.nextFrame` gives), so an
/// edit made per frame can be encoded straight back; the encoder finds what
/// changed and stores only that. It holds a few canvases and the file so
/// far, whatever the frame count; `finish` gives the file.
public protocol AnimationEncoding: Sendable {
    /// The format written.
    var format: ImageFormat { get }
    /// Adds the next frame, shown for `delay` seconds. Throws
    /// `ImageCodecError` for a frame of another size than the canvas, or past
    /// the encoder's `AnimationEncodingLimits`.
    mutating func add(_ frame: Bitmap, delay: Double) throws
    /// The finished file. Throws when no frame was added.
    mutating func finish() throws -> Data
}

/// The most an animated encode may cost, checked as frames are added: the
/// frame count and the bytes the file grows to (the encoder's memory is that
/// file plus three canvases).
public struct AnimationEncodingLimits: Sendable, Equatable {
    /// The most frames `add` accepts.
    public var maximumFrameCount: Int
    /// The most bytes the file may reach.
    public var maximumEncodedBytes: Int

    /// Limits; the defaults are the decoders' frame count and 256 MiB.
    public init(maximumFrameCount: Int = ImageDecoder.Options.defaultMaximumFrameCount, maximumEncodedBytes: Int = 256 << 20) {
        self.maximumFrameCount = maximumFrameCount
        self.maximumEncodedBytes = maximumEncodedBytes
    }

    /// Throws unless a file with `frames` frames so far, `bytes` long, is within the limits.
    func check(frames: Int, bytes: Int) throws {
        guard frames <= maximumFrameCount else { throw ImageCodecError(AnimationError.tooManyFrames(limit: maximumFrameCount)) }
        guard bytes <= maximumEncodedBytes else {
            throw ImageCodecError(AnimationError.tooManyEncodedBytes(bytes: bytes, limit: maximumEncodedBytes))
        }
    }
}
