/// Why an animation was stopped: it went over one of `ImageDecoder.Options`'
/// animation limits, or an encoder's `AnimationEncodingLimits`, whatever its format. Reported as `ImageCodecError` of
/// kind `.tooLarge` with detail `.animation`.
public enum AnimationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file holds more frames than `maximumFrameCount`.
    case tooManyFrames(limit: Int)
    /// The frames decoded so far, each a full canvas of `canvasPixels`, add up
    /// to more than `maximumAnimationPixelCount`.
    case tooManyPixels(frames: Int, canvasPixels: Int, limit: Int)
    /// An animated encode's file reached `bytes`, above its `AnimationEncodingLimits.maximumEncodedBytes`.
    case tooManyEncodedBytes(bytes: Int, limit: Int)

    /// What limit was passed, for logs and `URLError` descriptions.
    public var description: String {
        switch self {
        case let .tooManyFrames(limit):
            return "the animation has more than \(limit) frames, the decoder's frame limit"
        case let .tooManyPixels(frames, canvasPixels, limit):
            return "\(frames) frames of \(canvasPixels) pixels are above the animation's limit of \(limit) composited pixels"
        case let .tooManyEncodedBytes(bytes, limit):
            return "the encoded animation reached \(bytes) bytes, above the encoder's limit of \(limit) bytes"
        }
    }
}
