import Foundation
import Raster

/// Turns encoded bytes into a bitmap. Adopted by `PNGDecoder` and `JPEGDecoder`.
///
/// Decoders treat every byte as hostile: any malformed, truncated or oversized
/// input throws an `ImageCodecError` that says what is wrong; none traps or
/// allocates without bound. `ImageDecoder` picks the decoder from the bytes.
public protocol ImageDecoding: Sendable {
    /// Decodes a whole file held in memory.
    func decode(_ data: Data) throws -> Bitmap
    /// Reads dimensions, orientation and alpha from the header alone.
    func readInfo(_ data: Data) throws -> ImageInfo
}

/// The decoders' default limit on width × height, checked before any pixel
/// buffer is allocated: 64 megapixels (256 MiB of RGBA). Each decoder takes a
/// `maximumPixelCount` in its initialiser to lower or raise it.
public let defaultMaximumPixelCount = 1 << 26

/// Turns a bitmap into encoded bytes. Adopted by `PNGEncoder` and `JPEGEncoder`.
public protocol ImageEncoding: Sendable {
    /// The format this encoder writes.
    var format: ImageFormat { get }
    /// Encodes the bitmap as one complete file.
    func encode(_ bitmap: Bitmap) throws -> Data
}
