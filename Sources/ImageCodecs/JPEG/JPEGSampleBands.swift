import Raster

/// The encoder's input, one MCU row at a time: level-shifted Y (and Cb, Cr)
/// samples, converted from RGBA with the JFIF (BT.601 full-range) matrix,
/// padded to whole MCUs by replicating the last column and row.
///
/// Samples are `Int16` at twice their value (rounded to halves: a bit finer
/// than the 8-bit samples libjpeg transforms), the scale `JPEGForwardDCT`
/// expects. Each run of eight samples is stored in the order 0, 4, 1, 5, 2,
/// 6, 3, 7: that is how two 4-lane halves pack into one 8-lane vector in three
/// instructions, and the transform, lane-parallel across columns, only needs
/// to know which lane holds which column.
///
/// Only one MCU row (8 or 16 pixel rows) is held, so the samples the forward
/// DCT reads are still in cache, and no image-sized intermediate is allocated.
/// For 4:2:0 the chroma of each 2×2 pixel group is computed once from the
/// group's mean RGB (the matrix is linear, so this equals averaging the
/// converted chroma, and it converts a quarter of the pixels); for 4:2:2,
/// likewise from each horizontal pair.
struct JPEGSampleBands: ~Copyable {
    /// Samples per band row (the image width rounded up to whole MCUs).
    let lumaStride: Int
    let chromaStride: Int
    /// Pixels per chroma sample across: 1 (4:4:4) or 2 (4:2:2, 4:2:0).
    let horizontalFactor: Int
    /// Pixel rows per chroma sample row: 1 (4:4:4, 4:2:2) or 2 (4:2:0).
    let verticalFactor: Int
    let grayscale: Bool
    /// `8 × verticalFactor` rows of `lumaStride` samples.
    let luma: UnsafeMutablePointer<Int16>
    /// 8 rows of `chromaStride` samples each (unused when grayscale).
    let cb: UnsafeMutablePointer<Int16>
    let cr: UnsafeMutablePointer<Int16>
    /// Pixels per vector step: 16 when chroma is halved across (8 chroma samples from pairs), else 8.
    private var step: Int { 8 * horizontalFactor }
    /// Edge pixels copied with replication, so the last step reads whole vectors.
    private let edge: UnsafeMutablePointer<UInt32>

    /// Bands for rows `paddedWidth` pixels wide (whole MCUs); the factors are
    /// (1, 1), (2, 1) or (2, 2).
    init(paddedWidth: Int, horizontalFactor: Int, verticalFactor: Int, grayscale: Bool) {
        lumaStride = paddedWidth
        chromaStride = paddedWidth / horizontalFactor
        self.horizontalFactor = horizontalFactor
        self.verticalFactor = verticalFactor
        self.grayscale = grayscale
        luma = .allocate(capacity: lumaStride * 8 * verticalFactor)
        let chromaCount = grayscale ? 1 : chromaStride * 8
        cb = .allocate(capacity: chromaCount)
        cr = .allocate(capacity: chromaCount)
        edge = .allocate(capacity: 2 * 16)
    }

    deinit {
        luma.deallocate(); cb.deallocate(); cr.deallocate(); edge.deallocate()
    }

    /// Fills the bands with MCU row `mcuRow` of `bitmap`'s pixels (`pixels`, RGBA rows).
    func fill(mcuRow: Int, from pixels: UnsafePointer<UInt8>, width: Int, height: Int) {
        let rowsPerStep = verticalFactor        // 4:2:0 converts two pixel rows at once
        let firstRow = mcuRow * 8 * verticalFactor
        let whole = width - width % step        // columns read straight from the bitmap
        for band in stride(from: 0, to: 8 * verticalFactor, by: rowsPerStep) {
            // Rows past the bottom replicate the last one.
            let rowA = UnsafeRawPointer(pixels + min(firstRow + band, height - 1) * width * 4)
            let rowB = UnsafeRawPointer(pixels + min(firstRow + band + rowsPerStep - 1, height - 1) * width * 4)
            var x = 0
            while x < whole {
                convert(rowA + x * 4, rowB + x * 4, band: band, x: x)
                x += step
            }
            if x < lumaStride {
                // The last, partial step (and the padding up to the MCU edge): copy the
                // remaining pixels with the last one repeated, then convert the copy.
                let a = rowA.assumingMemoryBound(to: UInt32.self), b = rowB.assumingMemoryBound(to: UInt32.self)
                for i in 0..<step {
                    let column = min(x + i, width - 1)
                    edge[i] = a[column]
                    edge[16 + i] = b[column]
                }
                convert(UnsafeRawPointer(edge), UnsafeRawPointer(edge + 16), band: band, x: x)
            }
        }
    }

    /// Converts one step of pixels at column `x`: 8 pixels of one row (4:4:4 and
    /// gray; `rowB` unused), 16 pixels of one row (4:2:2; `rowB` unused), or
    /// 16 pixels of two rows (4:2:0).
    @inline(__always)
    private func convert(_ rowA: UnsafeRawPointer, _ rowB: UnsafeRawPointer, band: Int, x: Int) {
        if horizontalFactor == 1 {
            let (r, g, b) = JPEGSampleBands.channels(rowA)
            store(JPEGSampleBands.luma(r, g, b), luma + band * lumaStride + x)
            if !grayscale {
                store(JPEGSampleBands.blueDifference(r, g, b, scale: 1), cb + band * chromaStride + x)
                store(JPEGSampleBands.redDifference(r, g, b, scale: 1), cr + band * chromaStride + x)
            }
            return
        }
        let (r0, g0, b0) = JPEGSampleBands.channels(rowA)
        let (r1, g1, b1) = JPEGSampleBands.channels(rowA + 32)
        if verticalFactor == 1 {
            let row = luma + band * lumaStride + x
            store(JPEGSampleBands.luma(r0, g0, b0), row)
            store(JPEGSampleBands.luma(r1, g1, b1), row + 8)
            if !grayscale {
                // Means of horizontal pairs (even + odd lanes; the ½ is in the matrix).
                let r = JPEGSampleBands.pairSums(r0, r1)
                let g = JPEGSampleBands.pairSums(g0, g1)
                let b = JPEGSampleBands.pairSums(b0, b1)
                let chroma = band * chromaStride + x / 2
                store(JPEGSampleBands.blueDifference(r, g, b, scale: 0.5), cb + chroma)
                store(JPEGSampleBands.redDifference(r, g, b, scale: 0.5), cr + chroma)
            }
            return
        }
        let (r2, g2, b2) = JPEGSampleBands.channels(rowB)
        let (r3, g3, b3) = JPEGSampleBands.channels(rowB + 32)
        let top = luma + band * lumaStride + x, bottom = top + lumaStride
        store(JPEGSampleBands.luma(r0, g0, b0), top)
        store(JPEGSampleBands.luma(r1, g1, b1), top + 8)
        store(JPEGSampleBands.luma(r2, g2, b2), bottom)
        store(JPEGSampleBands.luma(r3, g3, b3), bottom + 8)
        // 2×2 means: vertical sums, then neighbouring columns (even + odd lanes;
        // the ¼ is in the matrix).
        let r = JPEGSampleBands.pairSums(r0 + r2, r1 + r3)
        let g = JPEGSampleBands.pairSums(g0 + g2, g1 + g3)
        let b = JPEGSampleBands.pairSums(b0 + b2, b1 + b3)
        let chroma = (band / 2) * chromaStride + x / 2
        store(JPEGSampleBands.blueDifference(r, g, b, scale: 0.25), cb + chroma)
        store(JPEGSampleBands.redDifference(r, g, b, scale: 0.25), cr + chroma)
    }

    /// 1.5·2²³: added to a sample (|v| < 2¹⁵), it rounds it to an integer
    /// held in the low mantissa bits, whose low 16 bits are then the sample in
    /// two's complement. The matrices below add it as their constant term.
    private static let rounding: Float = 12_582_912

    /// Stores eight samples (doubled, plus `rounding`) as `Int16` in the order
    /// 0, 4, 1, 5, 2, 6, 3, 7.
    @inline(__always)
    private func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Int16>) {
        let bits = unsafeBitCast(v, to: SIMD8<UInt32>.self)
        UnsafeMutableRawPointer(p).storeBytes(of: (bits.lowHalf & 0xFFFF) | (bits.highHalf &<< 16), as: SIMD4<UInt32>.self)
    }

    /// The R, G and B of eight RGBA pixels as float lanes.
    @inline(__always)
    private static func channels(_ p: UnsafeRawPointer) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        let v = SIMD8<Int32>(truncatingIfNeeded: p.loadUnaligned(as: SIMD8<UInt32>.self))
        return (SIMD8<Float>(v & 0xFF), SIMD8<Float>((v &>> 8) & 0xFF), SIMD8<Float>((v &>> 16) & 0xFF))
    }

    /// Sums of neighbouring lanes across two vectors: (a0+a1, a2+a3, …, b6+b7).
    @inline(__always)
    private static func pairSums(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        let both = SIMD16<Float>(lowHalf: a, highHalf: b)
        return both.evenHalf + both.oddHalf
    }

    /// Twice the level-shifted luma, plus `rounding`.
    @inline(__always)
    private static func luma(_ r: SIMD8<Float>, _ g: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        0.598 * r + 1.174 * g + 0.228 * b + (rounding - 256)
    }

    /// Twice Cb (level-shifted: no +128) of `scale` times the given RGB (the
    /// mean of summed pixels), plus `rounding`.
    @inline(__always)
    private static func blueDifference(_ r: SIMD8<Float>, _ g: SIMD8<Float>, _ b: SIMD8<Float>, scale: Float) -> SIMD8<Float> {
        (-0.337_472 * scale) * r + (-0.662_528 * scale) * g + scale * b + rounding
    }

    /// Twice Cr (level-shifted: no +128) of `scale` times the given RGB, plus `rounding`.
    @inline(__always)
    private static func redDifference(_ r: SIMD8<Float>, _ g: SIMD8<Float>, _ b: SIMD8<Float>, scale: Float) -> SIMD8<Float> {
        scale * r + (-0.837_376 * scale) * g + (-0.162_624 * scale) * b + rounding
    }
}
