import Raster

/// A decoded VP8 frame: its Y′CbCr 4:2:0 planes as libwebp reconstructs them.
///
/// The planes cover whole macroblocks (`lumaStride` = 16 × macroblock
/// columns); only the top-left `width` × `height` luma samples and
/// ⌈width/2⌉ × ⌈height/2⌉ chroma samples are the picture.
struct VP8Picture {
    let width: Int
    let height: Int
    /// Luma, rows `lumaStride` apart.
    let luma: [UInt8]
    let lumaStride: Int
    /// Blue- and red-difference chroma, rows `chromaStride` apart.
    let cb: [UInt8]
    let cr: [UInt8]
    let chromaStride: Int

    /// The picture's chroma size: half the luma's, rounded up.
    var chromaWidth: Int { (width + 1) / 2 }
    var chromaHeight: Int { (height + 1) / 2 }

    /// The picture in RGB with alpha 255, converted as `dwebp` converts by
    /// default: chroma upsampled with libwebp's "fancy" filter (each output
    /// pixel mixes its four nearest chroma samples 9:3:3:1), then libwebp's
    /// 14-bit fixed-point BT.601 conversion (`VP8ColorConverter`).
    func rgbaBitmap() throws -> Bitmap {
        // The converter writes every byte (alpha too), so no fill first.
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { output, initialized in
            luma.withUnsafeBufferPointer { y in
                cb.withUnsafeBufferPointer { u in
                    cr.withUnsafeBufferPointer { v in
                        VP8ColorConverter.convert(
                            width: width, height: height,
                            luma: y.baseAddress!, lumaStride: lumaStride,
                            cb: u.baseAddress!, cr: v.baseAddress!, chromaStride: chromaStride,
                            into: output.baseAddress!)
                    }
                }
            }
            initialized = width * height * 4
        }
        return try Bitmap(width: width, height: height, rgba: pixels)
    }
}
