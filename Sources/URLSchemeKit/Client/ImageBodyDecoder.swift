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
        guard let format = ImageFormat(sniffing: data.prefix(ImageFormat.sniffedByteCount)) else {
            let declared = response?.mimeType.map { "Content-Type \($0)" } ?? "no Content-Type"
            let head = data.prefix(ImageFormat.sniffedByteCount).map { String(format: "%02X", $0) }.joined(separator: " ")
            let message = "the body of \(url.absoluteString) is not an image the loader decodes (\(declared), "
                + "\(data.count) bytes starting \(head.isEmpty ? "with nothing" : head)); PNG, JPEG, GIF and WebP are supported"
            throw URLErrors.converting(ImageBodyError(description: message, underlying: nil), url: url)
        }
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
            let message = "could not decode the \(format.rawValue.uppercased()) body of \(url.absoluteString): \(error)"
            throw URLErrors.converting(ImageBodyError(description: message, underlying: error), url: url)
        }
    }

    /// `bitmap` mapped into `size`; `.fit` never enlarges.
    static func resize(_ bitmap: Bitmap, to size: ImageTargetSize) throws -> Bitmap {
        if size.mode == .fit, bitmap.width <= size.width, bitmap.height <= size.height { return bitmap }
        if bitmap.width == size.width, bitmap.height == size.height { return bitmap }
        return try bitmap.resized(width: size.width, height: size.height, mode: size.mode)
    }
}

/// A loaded body that is not an image the loader decodes: what it is and why
/// (`URLErrors.converting` makes it `.cannotDecodeContentData`).
struct ImageBodyError: Error, CustomStringConvertible {
    let description: String
    let underlying: Error?
}
