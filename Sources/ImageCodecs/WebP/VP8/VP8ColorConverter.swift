/// Y′CbCr 4:2:0 to RGBA as libwebp's default output path computes it, so the
/// bytes equal `dwebp`'s: the "fancy" upsampler (`UpsampleRgbaLinePair`) and
/// the integer conversion of `yuv.h`.
///
/// Upsampling: an output row between chroma rows `top` and `bottom` takes,
/// per output pixel, (9·nearest + 3·horizontal + 3·vertical + 1·diagonal) / 16
/// of the four chroma samples around it, computed in two rounding steps as
/// libwebp does; the first and last rows (and columns) mirror their edge.
///
/// Each output row is done in two passes, sixteen samples per step in 16-bit
/// lanes: the chroma rows around it are upsampled into full-width Cb and Cr
/// rows, then those and the luma row become RGBA.
enum VP8ColorConverter {
    /// Converts the whole picture into `output` (RGBA, alpha 255).
    static func convert(width: Int, height: Int,
                        luma: UnsafePointer<UInt8>, lumaStride: Int,
                        cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>, chromaStride: Int,
                        into output: UnsafeMutablePointer<UInt8>) {
        let chromaRows = (height + 1) >> 1
        let upsampledCb = UnsafeMutablePointer<UInt8>.allocate(capacity: width)
        defer { upsampledCb.deallocate() }
        let upsampledCr = UnsafeMutablePointer<UInt8>.allocate(capacity: width)
        defer { upsampledCr.deallocate() }
        for y in 0..<height {
            // Output row y lies nearest chroma row y/2, and mixes in the chroma
            // row on its other side (odd rows: below, even rows: above); the
            // first and last rows mirror their edge.
            let near = y >> 1
            let far = min(max((y & 1) == 1 ? near + 1 : near - 1, 0), chromaRows - 1)
            upsampleRow(width: width, near: cb + near * chromaStride, far: cb + far * chromaStride, into: upsampledCb)
            upsampleRow(width: width, near: cr + near * chromaStride, far: cr + far * chromaStride, into: upsampledCr)
            convertRow(width: width, luma: luma + y * lumaStride, cb: upsampledCb, cr: upsampledCr,
                       into: output + y * width * 4)
        }
    }

    /// One full-width chroma row between chroma row `near` (the nearer one)
    /// and `far`. libwebp's pair function computes the same values: the
    /// vertical mix (3·near + far) first appears as its "diagonal" sums.
    @inline(__always)
    private static func upsampleRow(width: Int, near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>,
                                    into output: UnsafeMutablePointer<UInt8>) {
        // Column 0 (and the last column of an even width): the vertical mix only.
        @inline(__always) func edge(_ near: UInt8, _ far: UInt8) -> UInt8 {
            UInt8(truncatingIfNeeded: (3 * Int32(near) + Int32(far) + 2) >> 2)
        }
        output[0] = edge(near[0], far[0])
        let lastPair = (width - 1) >> 1
        // Chroma sample x gives output columns 2x − 1 and 2x (the pair
        // between samples x − 1 and x), eight samples per step.
        var x = 1
        while x + 8 <= lastPair + 1 {
            let leftNear = SIMD8<Int16>(samples: near + x - 1), nearHere = SIMD8<Int16>(samples: near + x)
            let leftFar = SIMD8<Int16>(samples: far + x - 1), farHere = SIMD8<Int16>(samples: far + x)
            // (s + 2·(the two samples beside the nearest)) / 8, then averaged
            // with the nearest: 9:3:3:1 in libwebp's two rounding steps.
            let sum = leftFar &+ farHere &+ leftNear &+ nearHere &+ 8
            let towardsLeftNear = (sum &+ 2 &* (nearHere &+ leftFar)) &>> 3
            let towardsNear = (sum &+ 2 &* (leftNear &+ farHere)) &>> 3
            let odd = (towardsLeftNear &+ leftNear) &>> 1, even = (towardsNear &+ nearHere) &>> 1
            // Column 2x − 1 in the low byte of each 16-bit lane, 2x in the high.
            UnsafeMutableRawPointer(output + 2 * x - 1).storeBytes(of: odd | (even &<< 8), as: SIMD8<Int16>.self)
            x += 8
        }
        while x <= lastPair {
            let leftNear = Int32(near[x - 1]), nearHere = Int32(near[x])
            let leftFar = Int32(far[x - 1]), farHere = Int32(far[x])
            let sum = leftFar + farHere + leftNear + nearHere + 8
            let towardsLeftNear = (sum + 2 * (nearHere + leftFar)) >> 3
            let towardsNear = (sum + 2 * (leftNear + farHere)) >> 3
            output[2 * x - 1] = UInt8(truncatingIfNeeded: (towardsLeftNear + leftNear) >> 1)
            output[2 * x] = UInt8(truncatingIfNeeded: (towardsNear + nearHere) >> 1)
            x += 1
        }
        if width & 1 == 0 {
            output[width - 1] = edge(near[lastPair], far[lastPair])
        }
    }

    /// A row of pixels from full-resolution luma, Cb and Cr: sixteen per step
    /// in 16-bit lanes, then one at a time.
    ///
    /// The lanes compute `store`'s arithmetic exactly, modulo 2^16: each
    /// (x · c) >> 8 is split as x · (c >> 8) + (x · (c & 255)) >> 8, whose
    /// products fit 16 bits; the sums wrap, but each channel's true value lies
    /// in −17685...34238, so its 16-bit pattern tells which it was (`clip`).
    @inline(__always)
    private static func convertRow(width: Int, luma: UnsafePointer<UInt8>, cb: UnsafePointer<UInt8>,
                                   cr: UnsafePointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) {
        var x = 0
        while x + 16 <= width {
            let y = Wide(samples: luma + x), u = Wide(samples: cb + x), v = Wide(samples: cr + x)
            let l = y &* 74 &+ (((y &* 133) &>> 8) & 0xFF)                               // (y · 19077) >> 8
            let r = clip(l &+ v &* 102 &+ ((v &* 37) &>> 8) &- 14234)                    // (v · 26149) >> 8
            let g = clip(l &- u &* 25 &- ((u &* 19) &>> 8) &- v &* 52 &- (v &>> 5) &+ 8708)  // 6419, 13320
            let b = clip(l &+ u &* 129 &+ (((u &* 26) &>> 8) & 0xFF) &- 17685)           // (u · 33050) >> 8
            // Bytes R, G, B, A in memory: (r | g << 8) and (b | 0xFF << 8) as 16-bit halves of a word.
            let rg = unsafeBitCast(r | (g &<< 8), to: SIMD16<UInt16>.self)
            let ba = unsafeBitCast(b | Wide(repeating: -256), to: SIMD16<UInt16>.self)
            var low = SIMD8<UInt32>(), high = SIMD8<UInt32>()
            for i in 0..<8 {
                low[i] = UInt32(rg[i]) | UInt32(ba[i]) << 16
                high[i] = UInt32(rg[i + 8]) | UInt32(ba[i + 8]) << 16
            }
            let o = UnsafeMutableRawPointer(output + x * 4)
            o.storeBytes(of: low, as: SIMD8<UInt32>.self)
            o.storeBytes(of: high, toByteOffset: 32, as: SIMD8<UInt32>.self)
            x += 16
        }
        while x < width {
            store(luma[x], Int32(cb[x]), Int32(cr[x]), output + x * 4)
            x += 1
        }
    }

    typealias Wide = SIMD16<Int16>

    /// A channel's 16-bit pattern (true value in −17685...34238, 6 fraction
    /// bits) to 0...255: `q` = the pattern's bits 6...15 is at most 534 for a
    /// true value ≥ 0 and at least 747 for a negative one.
    @inline(__always)
    private static func clip(_ d: Wide) -> Wide {
        let q = (d &>> 6) & 0x3FF
        let negative = (640 &- q) &>> 15, over = (255 &- q) &>> 15
        return ((q & ~over) | (255 & over)) & ~negative
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
