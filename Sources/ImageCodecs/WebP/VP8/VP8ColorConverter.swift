/// Y′CbCr 4:2:0 to RGBA as libwebp's default output path computes it, so the
/// bytes equal `dwebp`'s: the "fancy" upsampler (`UpsampleRgbaLinePair`) and
/// the integer conversion of `yuv.h`.
///
/// Upsampling: an output row between chroma rows `top` and `bottom` takes,
/// per output pixel, (9·nearest + 3·horizontal + 3·vertical + 1·diagonal) / 16
/// of the four chroma samples around it, computed in two rounding steps as
/// libwebp does; the first and last rows (and columns) mirror their edge.
enum VP8ColorConverter {
    /// Converts the whole picture into `output` (RGBA, alpha 255).
    static func convert(width: Int, height: Int,
                        luma: UnsafePointer<UInt8>, lumaStride: Int,
                        cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>, chromaStride: Int,
                        into output: UnsafeMutablePointer<UInt8>) {
        let rowBytes = width * 4
        // Row 0: chroma row 0 alone.
        convertRowPair(width: width, topLuma: luma, bottomLuma: nil,
                       topCb: cb, topCr: cr, bottomCb: cb, bottomCr: cr,
                       topOutput: output, bottomOutput: nil)
        // Rows 2k+1 and 2k+2 lie between chroma rows k and k+1.
        var y = 0
        while y + 2 < height {
            let k = y / 2
            convertRowPair(width: width, topLuma: luma + (y + 1) * lumaStride, bottomLuma: luma + (y + 2) * lumaStride,
                           topCb: cb + k * chromaStride, topCr: cr + k * chromaStride,
                           bottomCb: cb + (k + 1) * chromaStride, bottomCr: cr + (k + 1) * chromaStride,
                           topOutput: output + (y + 1) * rowBytes, bottomOutput: output + (y + 2) * rowBytes)
            y += 2
        }
        // An even height leaves the last row, with the last chroma row alone.
        if height & 1 == 0 {
            let k = (height - 1) / 2
            convertRowPair(width: width, topLuma: luma + (height - 1) * lumaStride, bottomLuma: nil,
                           topCb: cb + k * chromaStride, topCr: cr + k * chromaStride,
                           bottomCb: cb + k * chromaStride, bottomCr: cr + k * chromaStride,
                           topOutput: output + (height - 1) * rowBytes, bottomOutput: nil)
        }
    }

    /// Two output rows: `topOutput` nearer chroma row `top…`, `bottomOutput`
    /// (if any) nearer `bottom…`.
    @inline(__always)
    private static func convertRowPair(width: Int, topLuma: UnsafePointer<UInt8>, bottomLuma: UnsafePointer<UInt8>?,
                                       topCb: UnsafePointer<UInt8>, topCr: UnsafePointer<UInt8>,
                                       bottomCb: UnsafePointer<UInt8>, bottomCr: UnsafePointer<UInt8>,
                                       topOutput: UnsafeMutablePointer<UInt8>, bottomOutput: UnsafeMutablePointer<UInt8>?) {
        upsampleRow(width: width, luma: topLuma, nearCb: topCb, nearCr: topCr, farCb: bottomCb, farCr: bottomCr,
                    output: topOutput)
        if let bottomLuma, let bottomOutput {
            upsampleRow(width: width, luma: bottomLuma, nearCb: bottomCb, nearCr: bottomCr, farCb: topCb, farCr: topCr,
                        output: bottomOutput)
        }
    }

    /// One output row from the chroma row nearer to it (`near…`) and the other
    /// one (`far…`). libwebp's pair function computes the same values: the
    /// vertical mix (3·near + far) first appears as its "diagonal" sums.
    @inline(__always)
    private static func upsampleRow(width: Int, luma: UnsafePointer<UInt8>,
                                    nearCb: UnsafePointer<UInt8>, nearCr: UnsafePointer<UInt8>,
                                    farCb: UnsafePointer<UInt8>, farCr: UnsafePointer<UInt8>,
                                    output: UnsafeMutablePointer<UInt8>) {
        // Column 0 (and the last column of an even width): the vertical mix only.
        @inline(__always) func edge(_ near: Int32, _ far: Int32) -> Int32 { (3 * near + far + 2) >> 2 }
        store(luma[0], edge(Int32(nearCb[0]), Int32(farCb[0])), edge(Int32(nearCr[0]), Int32(farCr[0])), output)
        let lastPair = (width - 1) >> 1
        var leftNearU = Int32(nearCb[0]), leftFarU = Int32(farCb[0])
        var leftNearV = Int32(nearCr[0]), leftFarV = Int32(farCr[0])
        var x = 1
        while x <= lastPair {
            let nearU = Int32(nearCb[x]), farU = Int32(farCb[x])
            let nearV = Int32(nearCr[x]), farV = Int32(farCr[x])
            // (s + 2·(the two samples beside the nearest)) / 8, then averaged
            // with the nearest: 9:3:3:1 in libwebp's two rounding steps.
            let sumU = leftFarU + farU + leftNearU + nearU + 8
            let sumV = leftFarV + farV + leftNearV + nearV + 8
            let towardsLeftNearU = (sumU + 2 * (nearU + leftFarU)) >> 3
            let towardsNearU = (sumU + 2 * (leftNearU + farU)) >> 3
            let towardsLeftNearV = (sumV + 2 * (nearV + leftFarV)) >> 3
            let towardsNearV = (sumV + 2 * (leftNearV + farV)) >> 3
            store(luma[2 * x - 1], (towardsLeftNearU + leftNearU) >> 1, (towardsLeftNearV + leftNearV) >> 1,
                  output + (2 * x - 1) * 4)
            store(luma[2 * x], (towardsNearU + nearU) >> 1, (towardsNearV + nearV) >> 1, output + 2 * x * 4)
            leftNearU = nearU; leftFarU = farU; leftNearV = nearV; leftFarV = farV
            x += 1
        }
        if width & 1 == 0 {
            store(luma[width - 1], edge(leftNearU, leftFarU), edge(leftNearV, leftFarV), output + (width - 1) * 4)
        }
    }

    /// libwebp's `VP8YuvToRgb`: 14-bit fixed point, results clamped to 0...255.
    @inline(__always)
    private static func store(_ y: UInt8, _ u: Int32, _ v: Int32, _ output: UnsafeMutablePointer<UInt8>) {
        let luma = (Int32(y) &* 19077) &>> 8
        let red = clip((luma &+ ((v &* 26149) &>> 8)) &- 14234)
        let green = clip(((luma &- ((u &* 6419) &>> 8)) &- ((v &* 13320) &>> 8)) &+ 8708)
        let blue = clip((luma &+ ((u &* 33050) &>> 8)) &- 17685)
        // One 32-bit store, bytes in memory order R, G, B, A (little-endian).
        let pixel = red | green &<< 8 | blue &<< 16 | 0xFF00_0000
        UnsafeMutableRawPointer(output).storeBytes(of: pixel.littleEndian, as: UInt32.self)
    }

    /// A 6-bit fraction to 0...255, clamped.
    @inline(__always)
    private static func clip(_ v: Int32) -> UInt32 {
        v & ~16383 == 0 ? UInt32(truncatingIfNeeded: v &>> 6) : v < 0 ? 0 : 255
    }
}
