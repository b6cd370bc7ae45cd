import Foundation
import Raster

/// Writes bitmaps as lossless WebP files (a `VP8L` bitstream, RFC 9649):
/// every pixel, alpha included, comes back exact from any WebP decoder.
///
/// An image of at most 256 colours is coded as palette indices (bundled
/// 2, 4 or 8 to a pixel for small palettes); any other has green subtracted
/// from red and blue and each 16×16 block predicted from its neighbours by
/// the best of VP8L's 14 predictors. The pixel stream is then coded with
/// backward references (hash chains, the neighbourhood distances first;
/// from effort 4 the cheapest path of literals and copies under the codes'
/// prices, `VP8LCostParse`, which needs 6 to 10 bytes a pixel more), a
/// colour cache of the size the entropy estimate picks, and canonical
/// Huffman codes. Transparent pixels keep their colour (libwebp's `-exact`).
public struct WebPLosslessEncoder: ImageEncoding {
    /// How hard to look for a smaller file, 0…9 as `cwebp -z` counts:
    /// longer match searches, every colour cache size tried from 3 on, the
    /// parse by cost from 4 on.
    public var effort: Int

    /// Effort 6, `cwebp -z`'s default.
    public static let defaultEffort = 6

    /// The widest or tallest image WebP stores.
    public static let maximumDimension = 16384

    /// Always `.webp`.
    public var format: ImageFormat { .webp }

    /// An encoder working at `effort` (clamped to 0…9).
    public init(effort: Int = WebPLosslessEncoder.defaultEffort) {
        self.effort = min(max(effort, 0), 9)
    }

    /// The WebP file for `bitmap`. Throws `ImageCodecError` (detail a
    /// `WebPError`) for a side over 16,384 pixels.
    public func encode(_ bitmap: Bitmap) throws -> Data {
        try encode(bitmap, checkCancellation: {})
    }

    /// Encodes `bitmap`, calling `checkCancellation` on the caller's thread
    /// between the encoder's stages (transforms, sub-images, the main image);
    /// whatever it throws ends the encode.
    public func encode(_ bitmap: Bitmap, checkCancellation: () throws -> Void) throws -> Data {
        WebPFileWriter.file([(WebPContainer.vp8l, try bitstream(bitmap, checkCancellation: checkCancellation))])
    }

    /// The `VP8L` chunk's payload for `bitmap`: a 5-byte header (signature,
    /// size, alpha hint), then the image stream (what an `ALPH` chunk holds).
    func bitstream(_ bitmap: Bitmap, checkCancellation: () throws -> Void) throws -> [UInt8] {
        let width = bitmap.width, height = bitmap.height
        guard (1...Self.maximumDimension).contains(width), (1...Self.maximumDimension).contains(height) else {
            throw ImageCodecError(WebPError.unencodableSize(width: width, height: height, maximum: Self.maximumDimension))
        }
        var argb = [UInt32](repeating: 0, count: width * height)
        var hasAlpha = false
        bitmap.pixels.withUnsafeBufferPointer { rgba in
            for index in argb.indices {
                let r = UInt32(rgba[4 * index]), g = UInt32(rgba[4 * index + 1])
                let b = UInt32(rgba[4 * index + 2]), a = UInt32(rgba[4 * index + 3])
                argb[index] = a << 24 | r << 16 | g << 8 | b
                if a != 255 { hasAlpha = true }
            }
        }
        var writer = VP8LImageWriter(references: VP8LBackwardReferences(chainLength: [1, 2, 4, 8, 12, 16, 24, 48, 96, 256][effort]),
                                     searchesCacheSizes: effort >= 3, groupBits: 4, parsesByCost: effort >= 4)
        var bits = BitWriter(capacity: width * height + 64)
        bits.write(0x2F, 8)
        bits.write(UInt32(width - 1), 14)
        bits.write(UInt32(height - 1), 14)
        bits.write(hasAlpha ? 1 : 0, 1)
        bits.write(0, 3)
        try checkCancellation()
        let main: [UInt32], mainWidth: Int
        if let palette = VP8LPalette(argb) {
            bits.write(1, 1)
            bits.write(3, 2)  // colour indexing
            bits.write(UInt32(palette.colors.count - 1), 8)
            writer.groupBits = 5  // indices vary less than colours do: larger blocks, as libwebp picks
            writer.write(palette.deltaCoded, width: palette.colors.count, isMain: false, into: &bits)
            (main, mainWidth) = palette.indexed(argb, width: width, height: height)
        } else {
            bits.write(1, 1)
            bits.write(2, 2)  // subtract green
            for index in argb.indices { argb[index] = Self.subtractingGreen(argb[index]) }
            let blockBits = 4
            let predicted = VP8LPredictorSearch.residuals(of: argb, width: width, height: height, bits: blockBits)
            try checkCancellation()
            bits.write(1, 1)
            bits.write(0, 2)  // predictor
            bits.write(UInt32(blockBits - 2), 3)
            writer.write(predicted.modes, width: (width + (1 << blockBits) - 1) >> blockBits, isMain: false, into: &bits)
            (main, mainWidth) = (predicted.residuals, width)
        }
        bits.write(0, 1)  // no more transforms
        try checkCancellation()
        writer.write(main, width: mainWidth, isMain: true, into: &bits)
        bits.alignToByte()
        return bits.bytes
    }

    @inline(__always)
    private static func subtractingGreen(_ pixel: UInt32) -> UInt32 {
        let green = (pixel >> 8) & 0xFF
        return (pixel & 0xFF00_FF00) | ((pixel & 0x00FF_00FF) &+ 0x0100_0100 &- (green << 16 | green)) & 0x00FF_00FF
    }
}
