import Foundation
import Raster

/// A decoded JPEG: the stored pixels and the EXIF orientation needed to show them upright.
public struct JPEGImage: Sendable {
    /// The pixels as stored (orientation not applied).
    public var bitmap: Bitmap
    /// The EXIF orientation from APP1, `.up` when absent.
    public var orientation: ImageOrientation

    /// Stored pixels and the orientation they are to be shown in.
    public init(bitmap: Bitmap, orientation: ImageOrientation = .up) {
        self.bitmap = bitmap
        self.orientation = orientation
    }
}

/// Decodes baseline and progressive Huffman-coded JPEG files (8-bit, gray,
/// YCbCr, RGB, Adobe CMYK/YCCK; any sampling whose factors divide the largest)
/// into RGBA bitmaps, optionally at 1/2, 1/4 or 1/8 scale. Every method throws
/// `ImageCodecError`, its `detail` the `JPEGError`; most callers want
/// `ImageDecoder`, which sniffs the format and applies the orientation.
///
/// Arithmetic-coded, lossless, hierarchical and 12-bit files are refused with a
/// `JPEGError.unsupported` naming the process.
///
/// A file cut short is refused with `JPEGError.truncated` saying where its data
/// ends: inside scan N, or after a scan but before the last one. The one
/// exception is a sequential file whose every scan is whole and that lacks only
/// its EOI marker (some cameras and streaming tools write these): it decodes
/// as if the marker were there, as libjpeg-turbo decodes it with a warning.
/// A progressive file without EOI is refused at every scale, because a 1/8-scale
/// decode skips its AC scans unread and could not tell whether the last is whole.
public struct JPEGDecoder: ImageDecoding {
    /// The largest width × height accepted; checked before any pixel storage is allocated.
    public var maximumPixelCount: Int

    /// The most scans a file may have. A progressive file needs about ten;
    /// each scan walks the whole image, so a small file of many cheap scans
    /// would otherwise cost minutes (libjpeg-turbo caps scans for the same reason).
    public var maximumScanCount: Int

    /// The default `maximumScanCount`.
    public static let defaultMaximumScanCount = 100

    /// A decoder refusing images above `maximumPixelCount` pixels or `maximumScanCount` scans.
    public init(maximumPixelCount: Int = defaultMaximumPixelCount, maximumScanCount: Int = JPEGDecoder.defaultMaximumScanCount) {
        self.maximumPixelCount = maximumPixelCount
        self.maximumScanCount = maximumScanCount
    }

    /// Decodes at full size; the EXIF orientation is not applied.
    public func decode(_ data: Data) throws -> Bitmap {
        try decodeImage(data, scale: .full).bitmap
    }

    /// Decodes at a reduced scale (decoding fewer samples per block, not resizing afterwards).
    public func decode(_ data: Data, scale: JPEGScale) throws -> Bitmap {
        try decodeImage(data, scale: scale).bitmap
    }

    /// Decodes and returns the pixels with their EXIF orientation.
    /// `checkCancellation` is called before each scan and after each row of
    /// MCUs; whatever it throws ends the decode, so a cancelled load stops
    /// within one row instead of finishing a large image.
    public func decodeImage(_ data: Data, scale: JPEGScale = .full, checkCancellation: () throws -> Void = {}) throws -> JPEGImage {
        let bytes = [UInt8](data)
        return try ImageCodecError.converting { try withoutActuallyEscaping(checkCancellation) { checkCancellation in
            try bytes.withUnsafeBufferPointer { buffer in
                let parser = JPEGParser(bytes: buffer, maximumPixelCount: maximumPixelCount, maximumScanCount: maximumScanCount)
                parser.renderScale = scale
                parser.checkCancellation = checkCancellation
                try parser.parse(headerOnly: false)
                guard let renderer = parser.renderer else { throw JPEGError.invalidSegment("no scan data") }
                if !renderer.streamed { try renderer.renderDecodedImage(parser) }
                let bitmap = try renderer.finish()
                return JPEGImage(bitmap: bitmap, orientation: parser.orientation)
            }
        } }
    }

    /// Reads the size and EXIF orientation from the segments before the first scan.
    public func readInfo(_ data: Data) throws -> ImageInfo {
        // The header is read in place: `ImageDecoder` reads it before every scaled decode.
        try ImageCodecError.converting { try data.withUnsafeBytes { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            let parser = JPEGParser(bytes: buffer, maximumPixelCount: maximumPixelCount, maximumScanCount: maximumScanCount)
            try parser.parse(headerOnly: true)
            return ImageInfo(format: .jpeg, width: parser.width, height: parser.height,
                             orientation: parser.orientation, hasAlpha: false)
        } }
    }
}
