/// The one entry point for writing an animation in a format chosen at run
/// time (a URL's `format=`): the encoder for GIF or WebP (lossless frames).
public enum AnimationEncoder {
    /// An encoder of `format` for a `width` × `height` canvas played
    /// `loopCount` times in all (0 forever), under `limits`. Throws
    /// `ImageCodecError` of kind `.unsupported` (detail `.notEncodable`) for
    /// a format without animation (`ImageFormat.canAnimate` false), or the
    /// format's error for a canvas it cannot store.
    public static func make(_ format: ImageFormat, width: Int, height: Int, loopCount: Int,
                            limits: AnimationEncodingLimits = AnimationEncodingLimits()) throws -> any AnimationEncoding {
        switch format {
        case .gif:
            return try GIFAnimationEncoder(width: width, height: height, loopCount: loopCount, limits: limits)
        case .webp:
            return try WebPAnimationEncoder(width: width, height: height, loopCount: loopCount, limits: limits)
        case .png, .jpeg:
            throw ImageCodecError(kind: .unsupported, detail: .notEncodable(format),
                                  message: "\(format.rawValue.uppercased()) holds no animation: GIF and WebP do")
        }
    }
}
