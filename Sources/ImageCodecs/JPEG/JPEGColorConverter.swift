/// Turns decoded component planes into RGBA: smooth ("fancy") chroma
/// upsampling for 2× factors (the triangle filter libjpeg uses), replication
/// for other factors and for components at most two samples wide (as libjpeg),
/// and YCbCr / YCCK / CMYK / RGB / gray conversion.
enum JPEGColorConverter {
    /// A component's samples after the IDCT, `stride` bytes per row, held in
    /// a ring of `ringRows` rows: sample row `y` lives in slot `y % ringRows`.
    struct Plane {
        var samples: UnsafeMutablePointer<UInt8>
        var stride: Int
        var ringRows: Int
        /// Valid samples (the rest of each row is block padding).
        var width: Int
        var height: Int
        var horizontalFactor: Int
        var verticalFactor: Int

        @inline(__always)
        func row(_ y: Int) -> UnsafeMutablePointer<UInt8> {
            samples + (y % ringRows) * stride
        }

        /// The last sample row output row `y` reads (the fancy upsampler's
        /// vertical filter reads the next row for odd output rows).
        func lastRowRead(forOutputRow y: Int) -> Int {
            let fy = verticalFactor
            let lookahead = fy == 2 && isSmoothed && (y & 1) == 1 ? 1 : 0
            return min(y / fy + lookahead, height - 1)
        }

        /// Whether upsampling uses the triangle filter: for factors up to 2,
        /// and, as libjpeg decides (jdsample.c), only when the component is
        /// more than two samples wide; otherwise samples are replicated.
        var isSmoothed: Bool { horizontalFactor <= 2 && verticalFactor <= 2 && width > 2 }
    }

    /// Output row `y` of `plane` upsampled to `width` samples. `columnSums` has
    /// room for `plane.width` sums plus one on each side.
    ///
    /// The filter's sums stay below 2^12, so both passes run in 16-bit lanes
    /// (sixteen per step) and the even/odd outputs of a column pair pack into
    /// one 16-bit lane, stored whole.
    static func upsampleRow(_ plane: Plane, y: Int, width: Int, into o: UnsafeMutablePointer<UInt8>, columnSums: UnsafeMutablePointer<Int16>) {
        let fx = plane.horizontalFactor, fy = plane.verticalFactor
        guard plane.isSmoothed else {
            let source = plane.row(min(y / fy, plane.height - 1))
            for x in 0..<width { o[x] = source[min(x / fx, plane.width - 1)] }
            return
        }
        let lastColumn = plane.width - 1
        let sums = UnsafeMutableRawPointer(columnSums)
        // Vertical triangle filter: 3/4 nearer row + 1/4 farther row (sums scaled by 4).
        let near = min(y / fy, plane.height - 1)
        let nearRow = plane.row(near)
        var x = 0
        if fy == 2 {
            let far = max(0, min(plane.height - 1, (y & 1) == 0 ? near - 1 : near + 1))
            let farRow = plane.row(far)
            while x + 16 <= lastColumn + 1 {
                sums.storeBytes(of: 3 &* wide(nearRow + x) &+ wide(farRow + x), toByteOffset: 2 * x, as: Wide.self)
                x += 16
            }
            while x <= lastColumn { columnSums[x] = 3 &* Int16(nearRow[x]) &+ Int16(farRow[x]); x += 1 }
        } else {
            while x + 16 <= lastColumn + 1 {
                sums.storeBytes(of: wide(nearRow + x) &<< 2, toByteOffset: 2 * x, as: Wide.self)
                x += 16
            }
            while x <= lastColumn { columnSums[x] = 4 &* Int16(nearRow[x]); x += 1 }
        }
        // One replicated column on each side: the horizontal filter needs no edge tests.
        columnSums[-1] = columnSums[0]
        columnSums[lastColumn + 1] = columnSums[lastColumn]
        guard fx == 2 else {
            for x in 0..<width { o[x] = UInt8(truncatingIfNeeded: (columnSums[min(x, lastColumn)] &+ 2) &>> 2) }
            return
        }
        // Horizontal triangle filter, sixteen source columns (32 outputs) at a time.
        let pairs = min(width / 2, lastColumn + 1)
        var cx = 0
        while cx + 16 <= pairs {
            let centre = 3 &* sums.loadUnaligned(fromByteOffset: 2 * cx, as: Wide.self)
            let even = (centre &+ sums.loadUnaligned(fromByteOffset: 2 * cx - 2, as: Wide.self) &+ 8) &>> 4
            let odd = (centre &+ sums.loadUnaligned(fromByteOffset: 2 * cx + 2, as: Wide.self) &+ 7) &>> 4
            UnsafeMutableRawPointer(o + 2 * cx).storeBytes(of: even | (odd &<< 8), as: Wide.self)
            cx += 16
        }
        for x in (2 * cx)..<width {
            let cx = min(x >> 1, lastColumn)
            let other = (x & 1) == 0 ? max(cx - 1, 0) : min(cx + 1, lastColumn)
            let bias: Int16 = (x & 1) == 0 ? 8 : 7
            o[x] = UInt8(truncatingIfNeeded: (3 &* columnSums[cx] &+ columnSums[other] &+ bias) &>> 4)
        }
    }

    /// How the components map to colour.
    enum Model { case gray, ycbcr, rgb, cmyk, ycck }

    /// Writes `count` RGBA pixels from full-resolution component rows (each `count` samples).
    static func convert(_ model: Model, _ planes: UnsafeBufferPointer<UnsafeMutablePointer<UInt8>>, count: Int,
                        into rgba: UnsafeMutablePointer<UInt8>) {
        switch model {
        case .gray:
            let g = planes[0]
            for i in 0..<count {
                let v = g[i], o = rgba + i * 4
                o[0] = v; o[1] = v; o[2] = v; o[3] = 255
            }
        case .rgb:
            let r = planes[0], g = planes[1], b = planes[2]
            for i in 0..<count {
                let o = rgba + i * 4
                o[0] = r[i]; o[1] = g[i]; o[2] = b[i]; o[3] = 255
            }
        case .ycbcr:
            let yp = planes[0], cbp = planes[1], crp = planes[2]
            // Sixteen pixels at a time in 16-bit lanes (eight per SSE register,
            // twice what 32-bit lanes give). The constants are rounded to fit
            // 16-bit products: 1.402 = 1 + 103/256, 0.34414 ≈ 88/256,
            // 0.71414 ≈ 1 − 73/256, 1.772 = 2 − 117/512, each within 0.0007,
            // so a sample can differ by one level from the tail loop's 16-bit
            // fractions (libjpeg's constants).
            var start = 0
            while start + 16 <= count {
                let y = wide(yp + start), cb = wide(cbp + start) &- 128, cr = wide(crp + start) &- 128
                let r = clamped(y &+ cr &+ ((cr &* 103 &+ 128) &>> 8))
                let g = clamped(y &- cr &- ((cb &* 88 &- cr &* 73 &+ 128) &>> 8))
                let b = clamped(y &+ (cb &<< 1) &- ((cb &* 117 &+ 256) &>> 9))
                // Interleave (r | g << 8) and (b | 0xFF << 8) halves into RGBA words.
                let rg = unsafeBitCast(r | (g &<< 8), to: SIMD16<UInt16>.self)
                let ba = unsafeBitCast(b | Wide(repeating: -256), to: SIMD16<UInt16>.self)
                var low = SIMD8<UInt32>(), high = SIMD8<UInt32>()
                for i in 0..<8 {
                    low[i] = UInt32(rg[i]) | UInt32(ba[i]) << 16
                    high[i] = UInt32(rg[i + 8]) | UInt32(ba[i + 8]) << 16
                }
                let o = UnsafeMutableRawPointer(rgba + start * 4)
                o.storeBytes(of: low, as: SIMD8<UInt32>.self)
                o.storeBytes(of: high, toByteOffset: 32, as: SIMD8<UInt32>.self)
                start += 16
            }
            for i in start..<count {
                let y = Int(yp[i]), cb = Int(cbp[i]) - 128, cr = Int(crp[i]) - 128
                let o = rgba + i * 4
                o[0] = JPEGInverseDCT.clamp(y + ((91881 &* cr &+ 32768) &>> 16))
                o[1] = JPEGInverseDCT.clamp(y + ((-22554 &* cb &- 46802 &* cr &+ 32768) &>> 16))
                o[2] = JPEGInverseDCT.clamp(y + ((116130 &* cb &+ 32768) &>> 16))
                o[3] = 255
            }
        case .cmyk, .ycck:
            // Adobe files store CMYK inverted (255 = no ink), so RGB = stored × K / 255.
            let p0 = planes[0], p1 = planes[1], p2 = planes[2], kp = planes[3]
            for i in 0..<count {
                var c = Int(p0[i]), m = Int(p1[i]), yy = Int(p2[i])
                if model == .ycck {
                    let y = c, cb = m - 128, cr = yy - 128
                    c = 255 - Int(JPEGInverseDCT.clamp(y + ((91881 &* cr &+ 32768) &>> 16)))
                    m = 255 - Int(JPEGInverseDCT.clamp(y + ((-22554 &* cb &- 46802 &* cr &+ 32768) &>> 16)))
                    yy = 255 - Int(JPEGInverseDCT.clamp(y + ((116130 &* cb &+ 32768) &>> 16)))
                }
                let k = Int(kp[i]), o = rgba + i * 4
                o[0] = UInt8(truncatingIfNeeded: (c &* k &+ 127) / 255)
                o[1] = UInt8(truncatingIfNeeded: (m &* k &+ 127) / 255)
                o[2] = UInt8(truncatingIfNeeded: (yy &* k &+ 127) / 255)
                o[3] = 255
            }
        }
    }

    typealias Wide = SIMD16<Int16>

    /// Sixteen samples widened to 16-bit lanes.
    @inline(__always)
    private static func wide(_ p: UnsafeMutablePointer<UInt8>) -> Wide { Wide(samples: p) }

    /// Lanes clamped to 0...255 with arithmetic only (no generic SIMD min/max calls).
    @inline(__always)
    private static func clamped(_ v: Wide) -> Wide {
        let positive = v & ~(v &>> 15)                      // negative → 0
        let over = (255 &- positive) &>> 15                 // all ones where > 255
        return (positive & ~over) | (255 & over)
    }
}
