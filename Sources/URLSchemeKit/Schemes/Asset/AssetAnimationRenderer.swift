import Foundation
import ImageCodecs
import Raster

/// `asset://` of an animated GIF or WebP kept animated: every frame decoded
/// in turn (composited as browsers show it), edited as a still photo would
/// be, and encoded with its delay into a GIF or animated WebP with the
/// source's loop count (WebP frames lossy at `quality` unless `lossless=true`). One frame and the encoder's canvases are held at a
/// time. Before anything is decoded the frame count, the output's pixels
/// times frames and the source's composited pixels are checked against
/// `ResourceBudget`; the file's growth is checked as it is written.
struct AssetAnimationRenderer {
    let asset: AssetURL
    let geometry: AssetGeometry
    let budget: ResourceBudget

    /// The animation, or nil when the stored file holds one frame (it is
    /// then edited as a still photo). Throws `URLParameterError` naming the
    /// limit a large animation is over, `AssetDecodingError` for a file that
    /// does not decode, `CancellationError` once cancelled.
    func render(_ data: Data, id: String, format: ImageFormat, cancellation: RenderCancellation) throws -> RenderedImage? {
        let options = ImageDecoder.Options(maximumPixelCount: budget.decodedPixels, maximumScanCount: budget.jpegScans,
                                           maximumFrameCount: budget.animationFrames, maximumAnimationPixelCount: budget.decodedAnimationPixels)
        var animation = try decoding(id) { try ImageDecoder.animation(data, options: options) }
        let frames = animation.storedFrameCount
        guard frames > 1 else { return nil }
        try checkBudget(frames: frames, canvas: animation.info.width * animation.info.height)
        // Every frame is edited at full size (no reduced decode for animations).
        try geometry.checkWorkingSize(reduction: 1, maximumPixels: budget.producedPixels, rotate: asset.rotate)
        let limits = AnimationEncodingLimits(maximumFrameCount: budget.animationFrames, maximumEncodedBytes: budget.animationBytes)
        let edits = AssetEdits(asset: asset, output: geometry.output)
        var encoder: (any AnimationEncoding)?
        while let frame = try decoding(id, { try animation.nextFrame() }) {
            try cancellation.check()
            let edited = try edits.apply(to: frame.bitmap, pixelScale: 1, cancellation: cancellation)
            if encoder == nil {
                // WebP frames are lossy (asset.quality) unless lossless=true, as a still WebP is.
                let webPQuality = asset.lossless ? nil : asset.quality ?? OutputEncoding.defaultWebPQuality
                encoder = try AnimationEncoder.make(format, width: edited.width, height: edited.height, loopCount: animation.loopCount,
                                                    limits: limits, webPQuality: webPQuality)
            }
            try encoding { try encoder?.add(edited, delay: frame.delay) }
        }
        guard var encoder else { throw AssetDecodingError(id: id, underlying: AnimationFrameMissing()) }
        let file = try encoding { try encoder.finish() }
        return RenderedImage(data: file, mimeType: format.mimeType)
    }

    /// Throws `URLParameterError` when `frames` frames are over a limit: the
    /// frame count, the output's pixels times frames, or the source's
    /// `canvas` pixels times frames. Each names the `ResourceBudget` field
    /// and the way out (`frame`, a smaller `width`).
    func checkBudget(frames: Int, canvas: Int) throws {
        let way = "give 'frame' for one frame, or 'format=png' or 'jpeg'"
        guard frames <= budget.animationFrames else {
            throw URLParameterError(parameter: "frame", reason: "is not given, so the animation's \(frames) frames would all be kept; at most \(budget.animationFrames) are (ResourceBudget.animationFrames): \(way)")
        }
        let size = geometry.output ?? geometry.edited
        guard size.width * size.height <= budget.animationPixels / frames else {
            throw URLParameterError(parameter: asset.height != nil && asset.width == nil ? "height" : "width",
                                    reason: "makes \(frames) frames of \(size.width)×\(size.height); at most \(budget.animationPixels) pixels in all are allowed (ResourceBudget.animationPixels): ask for a smaller size, or \(way)")
        }
        guard canvas <= budget.decodedAnimationPixels / frames else {
            throw URLParameterError(parameter: "frame", reason: "is not given, so \(frames) frames of \(canvas) pixels would be composited; at most \(budget.decodedAnimationPixels) pixels in all are (ResourceBudget.decodedAnimationPixels): \(way)")
        }
    }

    /// Runs a decoding step, reporting the codec's errors as the stored asset's.
    private func decoding<T>(_ id: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as ImageCodecError { throw AssetDecodingError(id: id, underlying: error) }
    }

    /// Runs an encoding step, reporting the encoder's size limit as the budget's.
    private func encoding<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ImageCodecError {
            if case .animation(.tooManyEncodedBytes(_, let limit)) = error.detail {
                throw URLParameterError(parameter: "format", reason: "makes an animation over \(limit) bytes (ResourceBudget.animationBytes): ask for a smaller size, or give 'frame' for one frame")
            }
            throw error
        }
    }

    /// A file whose structure listed frames of which none decodes.
    struct AnimationFrameMissing: Error, CustomStringConvertible {
        var description: String { "the animation shows no frame" }
    }
}
