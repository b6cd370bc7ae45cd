/// The one entry point for writing an animation in a format chosen at run
/// time (a URL's `format=`): the encoder for GIF or WebP (lossless frames,
/// or lossy ones at `webPQuality`).
public enum AnimationEncoder {
    /// An encoder of `format` for a `width` × `height` canvas played
    /// `loopCount` times in all (0 forever), under `limits`. Throws
    /// `ImageCodecError` of kind `.unsupported` (detail `.notEncodable`) for
    /// a format without animation (`ImageFormat.canAnimate` false), or the
    /// format's error for a canvas it cannot store. `webPQuality`: WebP frames
    /// coded lossy (`VP8 ` and `ALPH`) at that quality; nil (the default):
    /// lossless at `WebPAnimationEncoder.defaultFrameEffort`.
    public static func make(_ format: ImageFormat, width: Int, height: Int, loopCount: Int,
                            limits: AnimationEncodingLimits = AnimationEncodingLimits(), webPQuality: Int? = nil) throws -> any AnimationEncoding {
        switch format {
        case .gif:
            return try GIFAnimationEncoder(width: width, height: height, loopCount: loopCount, limits: limits)
        case .webp:
            let frameEncoder: any ImageEncoding = webPQuality.map { WebPLossyEncoder(quality: $0) }
                ?? WebPLosslessEncoder(effort: WebPAnimationEncoder.defaultFrameEffort)
            return try WebPAnimationEncoder(width: width, height: height, loopCount: loopCount, frameEncoder: frameEncoder, limits: limits)
        case .png, .jpeg:
            throw ImageCodecError(kind: .unsupported, detail: .notEncodable(format),
                                  message: "\(format.rawValue.uppercased()) holds no animation: GIF and WebP do")
        }
    }
}
