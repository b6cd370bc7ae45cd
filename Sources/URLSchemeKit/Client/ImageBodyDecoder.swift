import Foundation
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns a loaded body into a `LoadedImage` with the package's codecs:
/// the format sniffed from the bytes (whatever the `Content-Type` says), EXIF
/// orientation applied, and, when a target size is given, a JPEG decoded at
/// the coarsest 1/2, 1/4 or 1/8 scale that still covers it, then resized.
enum ImageBodyDecoder {
    /// Decodes `data`, the body `url` answered with, refusing images of more
    /// than `maximumPixelCount` pixels before allocating them. Throws
    /// `URLError(.cannotDecodeContentData)` naming the URL and the format.
    static func decode(_ data: Data, response: URLResponse?, url: URL, size: ImageTargetSize?,
                       maximumPixelCount: Int = defaultMaximumPixelCount) throws -> LoadedImage {
        let format = try sniff(data, response: response, url: url)
        do {
            var options = ImageDecoder.Options(maximumPixelCount: maximumPixelCount)
            if let size {
                let info = try ImageDecoder.readInfo(data, options: options)
                options.targetSize = size.coveringSize(ofWidth: info.uprightWidth, height: info.uprightHeight)
            }
            let decoded = try ImageDecoder.decode(data, options: options)
            let bitmap = try size.map { try resize(decoded.bitmap, to: $0) } ?? decoded.bitmap
            return LoadedImage(url: url, bitmap: bitmap, sourceFormat: format,
                               sourceWidth: decoded.info.uprightWidth, sourceHeight: decoded.info.uprightHeight)
        } catch {
            throw failure(error, format: format, url: url)
        }
    }

    /// Decodes every frame of `data` (a still image as one), one at a time,
    /// each resized to `size` as `decode` resizes a still image. Before any
    /// frame is decoded, the frames the file holds are checked against
    /// `options.maximumFrameCount`, and both the canvases they composite and
    /// the frames kept at the output size against `maximumAnimationPixelCount`.
    /// `checkCancellation` is called before each frame. Throws
    /// `URLError(.cannotDecodeContentData)` naming the URL and the format, or
    /// what `checkCancellation` throws.
    static func decodeAnimation(_ data: Data, response: URLResponse?, url: URL, size: ImageTargetSize?,
                                options: ImageDecoder.Options,
                                checkCancellation: () throws -> Void = {}) throws -> LoadedAnimation {
        let format = try sniff(data, response: response, url: url)
        do {
            var animation = try ImageDecoder.animation(data, options: options)
            try animation.checkLimits()
            let info = animation.info, count = max(1, animation.storedFrameCount)
            let output: (width: Int, height: Int) = size?.outputSize(ofWidth: info.uprightWidth, height: info.uprightHeight)
                ?? (info.uprightWidth, info.uprightHeight)
            // The frames kept count too: an enlarging `.fill` must not hold more than the limit.
            guard output.width * output.height <= options.maximumAnimationPixelCount / count else {
                throw ImageCodecError(AnimationError.tooManyPixels(frames: count, canvasPixels: output.width * output.height,
                                                                   limit: options.maximumAnimationPixelCount))
            }
            var frames: [LoadedAnimation.Frame] = []
            frames.reserveCapacity(min(count, 1024))
            while true {
                try checkCancellation()
                guard let frame = try animation.nextFrame() else { break }
                let bitmap = try size.map { try resize(frame.bitmap, to: $0) } ?? frame.bitmap
                frames.append(LoadedAnimation.Frame(bitmap: bitmap, delay: frame.delay))
            }
            guard !frames.isEmpty else { throw NoFrames() }
            return LoadedAnimation(url: url, frames: frames, loopCount: animation.loopCount, sourceFormat: format,
                                   sourceWidth: info.uprightWidth, sourceHeight: info.uprightHeight)
        } catch let error as CancellationError {
            throw error
        } catch let error as ImageCodecError where error.detail.isAnimationLimit {
            throw failure(error, format: format, url: url, limit: "ImageLoader.Configuration.maximumFrameCount and maximumAnimationPixelCount; "
                          + "a server should send animations at the size they are shown")
        } catch {
            throw failure(error, format: format, url: url)
        }
    }

    /// The format `data` starts with, or the error naming what came instead.
    private static func sniff(_ data: Data, response: URLResponse?, url: URL) throws -> ImageFormat {
        guard let format = ImageFormat(sniffing: data.prefix(ImageFormat.sniffedByteCount)) else {
            let declared = response?.mimeType.map { "Content-Type \($0)" } ?? "no Content-Type"
            let head = data.prefix(ImageFormat.sniffedByteCount).map { String(format: "%02X", $0) }.joined(separator: " ")
            let message = "the body of \(url.absoluteString) is not an image the loader decodes (\(declared), "
                + "\(data.count) bytes starting \(head.isEmpty ? "with nothing" : head)); PNG, JPEG, GIF and WebP are supported"
            throw URLErrors.converting(ImageBodyError(description: message, underlying: nil), url: url)
        }
        return format
    }

    /// A decoder's error as the loader reports it, naming the `limit` passed if any.
    private static func failure(_ error: Error, format: ImageFormat, url: URL, limit: String? = nil) -> URLError {
        let message = "could not decode the \(format.rawValue.uppercased()) body of \(url.absoluteString): \(error)"
            + (limit.map { " (limits: \($0))" } ?? "")
        return URLErrors.converting(ImageBodyError(description: message, underlying: error), url: url)
    }

    /// An animation container that lists no frame (a WebP with the animation flag and no `ANMF`).
    private struct NoFrames: Error, CustomStringConvertible {
        var description: String { "the animation holds no frame" }
    }

    /// `bitmap` mapped into `size`; `.fit` never enlarges.
    static func resize(_ bitmap: Bitmap, to size: ImageTargetSize) throws -> Bitmap {
        if size.mode == .fit, bitmap.width <= size.width, bitmap.height <= size.height { return bitmap }
        if bitmap.width == size.width, bitmap.height == size.height { return bitmap }
        return try bitmap.resized(width: size.width, height: size.height, mode: size.mode)
    }
}

private extension ImageCodecError.Detail {
    /// Whether this is an animation's frame or pixel limit.
    var isAnimationLimit: Bool {
        if case .animation = self { return true }
        return false
    }
}

/// A loaded body that is not an image the loader decodes: what it is and why
/// (`URLErrors.converting` makes it `.cannotDecodeContentData`).
struct ImageBodyError: Error, CustomStringConvertible {
    let description: String
    let underlying: Error?
}
