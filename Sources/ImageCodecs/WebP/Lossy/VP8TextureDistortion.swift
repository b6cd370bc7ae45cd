/// The spectral part of the lossy encoder's distortion, as libwebp's
/// `VP8TDisto4x4` measures it at its default effort: how far a rebuilt
/// 4×4 block's texture (the magnitudes of its Walsh–Hadamard coefficients,
/// low frequencies weighted most) is from the source's. Squared error alone
/// prefers flat, blurred blocks; this term keeps some of the texture the
/// eye sees (and SSIM measures).
enum VP8TextureDistortion {
    /// The weights of the Walsh–Hadamard coefficients, by row of coefficients.
    private static let weights: (SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>) =
        ([38, 32, 20, 9], [32, 28, 17, 7], [20, 17, 10, 4], [9, 7, 4, 2])

    /// The difference of the weighted texture of the 4×4 blocks at `a` and
    /// `b` (rows `aStride` and `bStride` apart), ÷32.
    @inline(__always)
    static func distortion4x4(_ a: UnsafePointer<UInt8>, _ aStride: Int, _ b: UnsafePointer<UInt8>, _ bStride: Int) -> Int {
        distortion4x4(sourceTexture: texture(a, aStride), b, bStride)
    }

    /// `distortion4x4` against a source block whose `texture` is known: the
    /// encoder tries many predictions of one source block, so it measures
    /// the source's texture once.
    @inline(__always)
    static func distortion4x4(sourceTexture: Int, _ b: UnsafePointer<UInt8>, _ bStride: Int) -> Int {
        abs(texture(b, bStride) - sourceTexture) >> 5
    }

    /// `distortion16x16` against a source whose sixteen 4×4 blocks' textures
    /// (raster order) are known.
    static func distortion16x16(sourceTextures: UnsafePointer<Int>, _ b: UnsafePointer<UInt8>, _ bStride: Int) -> Int {
        var sum = 0
        for block in 0..<16 {
            let row = (block >> 2) * 4, column = (block & 3) * 4
            sum += distortion4x4(sourceTexture: sourceTextures[block], b + row * bStride + column, bStride)
        }
        return sum
    }

    /// The sum of `distortion4x4` over the sixteen 4×4 blocks of a 16×16 block.
    static func distortion16x16(_ a: UnsafePointer<UInt8>, _ aStride: Int, _ b: UnsafePointer<UInt8>, _ bStride: Int) -> Int {
        var sum = 0
        for block in 0..<16 {
            let row = (block >> 2) * 4, column = (block & 3) * 4
            sum += distortion4x4(a + row * aStride + column, aStride, b + row * bStride + column, bStride)
        }
        return sum
    }

    /// The weighted sum of the magnitudes of a 4×4 block's Walsh–Hadamard
    /// coefficients: each row transformed alone, then the columns four at a time.
    @inline(__always)
    static func texture(_ pixels: UnsafePointer<UInt8>, _ stride: Int) -> Int {
        @inline(__always) func row(_ p: UnsafePointer<UInt8>) -> SIMD4<Int32> {
            let a0 = Int32(p[0]) + Int32(p[2]), a1 = Int32(p[1]) + Int32(p[3])
            let a2 = Int32(p[1]) - Int32(p[3]), a3 = Int32(p[0]) - Int32(p[2])
            return SIMD4(a0 + a1, a3 + a2, a3 - a2, a0 - a1)
        }
        let r0 = row(pixels), r1 = row(pixels + stride), r2 = row(pixels + 2 * stride), r3 = row(pixels + 3 * stride)
        let a0 = r0 &+ r2, a1 = r1 &+ r3, a2 = r1 &- r3, a3 = r0 &- r2
        @inline(__always) func magnitude(_ v: SIMD4<Int32>) -> SIMD4<Int32> { v.replacing(with: 0 &- v, where: v .< 0) }
        let sum = magnitude(a0 &+ a1) &* weights.0 &+ magnitude(a3 &+ a2) &* weights.1
            &+ magnitude(a3 &- a2) &* weights.2 &+ magnitude(a0 &- a1) &* weights.3
        return Int(sum.wrappedSum())
    }
}
