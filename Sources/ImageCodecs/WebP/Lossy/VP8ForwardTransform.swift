/// The forward transforms of the lossy encoder, the inverses of
/// `VP8InverseTransform` in the integer form the VP8 reference encoder (and
/// libwebp) use: the 4×4 DCT of a residual block and the Walsh–Hadamard
/// transform that gathers a 16×16 block's sixteen DCs into the Y2 block.
enum VP8ForwardTransform {
    /// The DCT of `source − prediction` over a 4×4 block (rows `sourceStride`
    /// and `predictionStride` apart) into `output` (raster order).
    @inline(__always)
    static func dct(_ source: UnsafePointer<UInt8>, sourceStride: Int,
                    _ prediction: UnsafePointer<UInt8>, predictionStride: Int,
                    into output: UnsafeMutablePointer<Int16>) {
        var t = (Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0),
                 Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0))
        withUnsafeMutableBytes(of: &t) { raw in
            let tmp = raw.baseAddress!.assumingMemoryBound(to: Int32.self)
            for i in 0..<4 {  // rows
                let s = source + i * sourceStride, p = prediction + i * predictionStride
                let d0 = Int32(s[0]) - Int32(p[0]), d1 = Int32(s[1]) - Int32(p[1])
                let d2 = Int32(s[2]) - Int32(p[2]), d3 = Int32(s[3]) - Int32(p[3])
                let a0 = d0 + d3, a1 = d1 + d2, a2 = d1 - d2, a3 = d0 - d3
                tmp[i * 4] = (a0 + a1) * 8
                tmp[i * 4 + 1] = (a2 * 2217 + a3 * 5352 + 1812) >> 9
                tmp[i * 4 + 2] = (a0 - a1) * 8
                tmp[i * 4 + 3] = (a3 * 2217 - a2 * 5352 + 937) >> 9
            }
            for i in 0..<4 {  // columns
                let a0 = tmp[i] + tmp[12 + i], a1 = tmp[4 + i] + tmp[8 + i]
                let a2 = tmp[4 + i] - tmp[8 + i], a3 = tmp[i] - tmp[12 + i]
                output[i] = Int16(truncatingIfNeeded: (a0 + a1 + 7) >> 4)
                output[4 + i] = Int16(truncatingIfNeeded: ((a2 * 2217 + a3 * 5352 + 12000) >> 16) + (a3 != 0 ? 1 : 0))
                output[8 + i] = Int16(truncatingIfNeeded: (a0 - a1 + 7) >> 4)
                output[12 + i] = Int16(truncatingIfNeeded: (a3 * 2217 - a2 * 5352 + 51000) >> 16)
            }
        }
    }

    /// The Walsh–Hadamard transform of the DCs (index 0) of sixteen blocks
    /// (16 values apart, raster order of blocks) into `output` (raster order).
    static func walshHadamard(_ blocks: UnsafePointer<Int16>, into output: UnsafeMutablePointer<Int16>) {
        var t = (Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0),
                 Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0))
        withUnsafeMutableBytes(of: &t) { raw in
            let tmp = raw.baseAddress!.assumingMemoryBound(to: Int32.self)
            for i in 0..<4 {  // rows of blocks
                let row = blocks + i * 64
                let a0 = Int32(row[0]) + Int32(row[32]), a1 = Int32(row[16]) + Int32(row[48])
                let a2 = Int32(row[16]) - Int32(row[48]), a3 = Int32(row[0]) - Int32(row[32])
                tmp[i * 4] = a0 + a1
                tmp[i * 4 + 1] = a3 + a2
                tmp[i * 4 + 2] = a3 - a2
                tmp[i * 4 + 3] = a0 - a1
            }
            for i in 0..<4 {  // columns
                let a0 = tmp[i] + tmp[8 + i], a1 = tmp[4 + i] + tmp[12 + i]
                let a2 = tmp[4 + i] - tmp[12 + i], a3 = tmp[i] - tmp[8 + i]
                output[i] = Int16(truncatingIfNeeded: (a0 + a1) >> 1)
                output[4 + i] = Int16(truncatingIfNeeded: (a3 + a2) >> 1)
                output[8 + i] = Int16(truncatingIfNeeded: (a3 - a2) >> 1)
                output[12 + i] = Int16(truncatingIfNeeded: (a0 - a1) >> 1)
            }
        }
    }
}
