import Raster

/// The encoder's input planes: Y (and Cb, Cr) samples converted from RGBA with
/// the JFIF (BT.601 full-range) matrix, padded to whole MCUs by replicating the
/// last column and row, chroma averaged 2×2 for 4:2:0.
struct JPEGSamplePlanes {
    /// Planes of `strides[i]` × `heights[i]` samples.
    var planes: [[UInt8]]
    var strides: [Int]
    var heights: [Int]

    init(_ bitmap: Bitmap, paddedWidth: Int, paddedHeight: Int, grayscale: Bool, chromaFactor: Int) {
        let count = paddedWidth * paddedHeight
        var y = [UInt8](repeating: 0, count: count)
        var cb = [UInt8](repeating: 128, count: grayscale ? 0 : count)
        var cr = [UInt8](repeating: 128, count: grayscale ? 0 : count)
        let width = bitmap.width, height = bitmap.height
        bitmap.pixels.withUnsafeBufferPointer { source in
            y.withUnsafeMutableBufferPointer { yp in
                cb.withUnsafeMutableBufferPointer { cbp in
                    cr.withUnsafeMutableBufferPointer { crp in
                        for row in 0..<paddedHeight {
                            let sourceRow = source.baseAddress! + min(row, height - 1) * width * 4
                            let o = row * paddedWidth
                            for column in 0..<paddedWidth {
                                let s = sourceRow + min(column, width - 1) * 4
                                let r = Int32(s[0]), g = Int32(s[1]), b = Int32(s[2])
                                yp[o + column] = UInt8(truncatingIfNeeded: (19595 &* r &+ 38470 &* g &+ 7471 &* b &+ 32768) &>> 16)
                                if !grayscale {
                                    cbp[o + column] = UInt8(truncatingIfNeeded:
                                        (-11059 &* r &- 21709 &* g &+ 32768 &* b &+ (128 &<< 16) &+ 32767) &>> 16)
                                    crp[o + column] = UInt8(truncatingIfNeeded:
                                        (32768 &* r &- 27439 &* g &- 5329 &* b &+ (128 &<< 16) &+ 32767) &>> 16)
                                }
                            }
                        }
                    }
                }
            }
        }
        if grayscale {
            planes = [y]; strides = [paddedWidth]; heights = [paddedHeight]
        } else if chromaFactor == 2 {
            let w = paddedWidth / 2, h = paddedHeight / 2
            planes = [y, JPEGSamplePlanes.halve(cb, paddedWidth, w, h), JPEGSamplePlanes.halve(cr, paddedWidth, w, h)]
            strides = [paddedWidth, w, w]; heights = [paddedHeight, h, h]
        } else {
            planes = [y, cb, cr]; strides = [paddedWidth, paddedWidth, paddedWidth]; heights = [paddedHeight, paddedHeight, paddedHeight]
        }
    }

    /// 2×2 box average with libjpeg's alternating 1/2 rounding bias (avoids drift).
    private static func halve(_ plane: [UInt8], _ stride: Int, _ width: Int, _ height: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height)
        plane.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<height {
                    let a = p.baseAddress! + 2 * y * stride, b = a + stride
                    for x in 0..<width {
                        let sum = Int(a[2 * x]) + Int(a[2 * x + 1]) + Int(b[2 * x]) + Int(b[2 * x + 1])
                        o[y * width + x] = UInt8(truncatingIfNeeded: (sum + 1 + (x & 1)) >> 2)
                    }
                }
            }
        }
        return out
    }

    /// Every block's quantised coefficients (zigzag), in scan order: per MCU,
    /// `factor`² luma blocks then (in colour) one Cb and one Cr block.
    func quantizedBlocks(luma: [Int], chroma: [Int], mcusX: Int, mcusY: Int, factor: Int) -> JPEGQuantizedBlocks {
        var layout = [Int](repeating: 0, count: factor * factor)
        if planes.count == 3 { layout += [1, 2] }
        let blockCount = mcusX * mcusY * layout.count
        var coefficients = [Int16](repeating: 0, count: blockCount * 64)
        // Reciprocal divisors in natural order, × 8 for the FDCT's scale.
        var divisors = [Double](repeating: 0, count: 128)
        for k in 0..<64 {
            divisors[jpegZigzagToNatural[k]] = 1 / Double(luma[k] * 8)
            divisors[64 + jpegZigzagToNatural[k]] = 1 / Double(chroma[k] * 8)
        }
        let work = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
        defer { work.deallocate() }
        let empty: [UInt8] = []
        let (stride0, stride1) = (strides[0], strides.count > 1 ? strides[1] : 0)
        let layoutCount = layout.count
        let hasChroma = planes.count == 3
        // Plane pointers are taken once: per-block array access retained and released them.
        planes[0].withUnsafeBufferPointer { p0 in
            (hasChroma ? planes[1] : empty).withUnsafeBufferPointer { p1 in
                (hasChroma ? planes[2] : empty).withUnsafeBufferPointer { p2 in
                    coefficients.withUnsafeMutableBufferPointer { out in
                        divisors.withUnsafeBufferPointer { d in
                            jpegZigzagToNatural.withUnsafeBufferPointer { zigzag in
                                let lumaBase = p0.baseAddress!, zigzagBase = zigzag.baseAddress!
                                var block = 0
                                for my in 0..<mcusY {
                                    for mx in 0..<mcusX {
                                        for position in 0..<layoutCount {
                                            let component = position < factor * factor ? 0 : position - factor * factor + 1
                                            let source: UnsafePointer<UInt8>
                                            if component == 0 {
                                                let bx = mx * factor + position % factor, by = my * factor + position / factor
                                                source = lumaBase + by * 8 * stride0 + bx * 8
                                            } else {
                                                source = (component == 1 ? p1.baseAddress! : p2.baseAddress!) + my * 8 * stride1 + mx * 8
                                            }
                                            let stride = component == 0 ? stride0 : stride1
                                            for row in 0..<8 {
                                                let s = source + row * stride, w = work + row * 8
                                                for column in 0..<8 { w[column] = Int32(s[column]) &- 128 }
                                            }
                                            JPEGForwardDCT.transformAndQuantize(
                                                work, d.baseAddress! + (component == 0 ? 0 : 64),
                                                out.baseAddress! + block * 64, zigzagBase)
                                            block += 1
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return JPEGQuantizedBlocks(coefficients: coefficients, layout: layout, mcuCount: mcusX * mcusY)
    }
}

/// Quantised coefficients of every block in scan order, with the component of each block in an MCU.
struct JPEGQuantizedBlocks {
    var coefficients: [Int16]
    /// Component index (0 Y, 1 Cb, 2 Cr) of each block position in an MCU.
    var layout: [Int]
    var mcuCount: Int
}
