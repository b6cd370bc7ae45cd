/// Turns decoded component planes into RGBA: smooth ("fancy") chroma
/// upsampling for 2× factors (the triangle filter libjpeg uses), replication
/// for other factors, and YCbCr / YCCK / CMYK / RGB / gray conversion.
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
            let lookahead = fy == 2 && horizontalFactor <= 2 && (y & 1) == 1 ? 1 : 0
            return min(y / fy + lookahead, height - 1)
        }
    }

    /// Output row `y` of `plane` upsampled to `width` samples. `columnSums` has
    /// room for `plane.width` sums plus one on each side.
    static func upsampleRow(_ plane: Plane, y: Int, width: Int, into o: UnsafeMutablePointer<UInt8>, columnSums: UnsafeMutablePointer<Int32>) {
        let fx = plane.horizontalFactor, fy = plane.verticalFactor
        guard fx <= 2 && fy <= 2 else {
            let source = plane.row(min(y / fy, plane.height - 1))
            for x in 0..<width { o[x] = source[min(x / fx, plane.width - 1)] }
            return
        }
        let lastColumn = plane.width - 1
        // Vertical triangle filter: 3/4 nearer row + 1/4 farther row (sums scaled by 4).
        let near = min(y / fy, plane.height - 1)
        let nearRow = plane.row(near)
        if fy == 2 {
            let far = max(0, min(plane.height - 1, (y & 1) == 0 ? near - 1 : near + 1))
            let farRow = plane.row(far)
            for x in 0...lastColumn { columnSums[x] = 3 &* Int32(nearRow[x]) &+ Int32(farRow[x]) }
        } else {
            for x in 0...lastColumn { columnSums[x] = 4 &* Int32(nearRow[x]) }
        }
        // One replicated column on each side: the horizontal filter needs no edge tests.
        columnSums[-1] = columnSums[0]
        columnSums[lastColumn + 1] = columnSums[lastColumn]
        guard fx == 2 else {
            for x in 0..<width { o[x] = UInt8(truncatingIfNeeded: (columnSums[min(x, lastColumn)] &+ 2) &>> 2) }
            return
        }
        // Horizontal triangle filter, eight source columns (sixteen outputs) at a time.
        let pairs = min(width / 2, lastColumn + 1)
        var cx = 0
        while cx + 8 <= pairs {
            let load = { (p: UnsafeMutablePointer<Int32>) in UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Int32>.self) }
            let centre = 3 &* load(columnSums + cx)
            let even = (centre &+ load(columnSums + cx - 1) &+ 8) &>> 4
            let odd = (centre &+ load(columnSums + cx + 1) &+ 7) &>> 4
            let packed = even | (odd &<< 8)
            let destination = UnsafeMutableRawPointer(o + 2 * cx)
            for lane in 0..<8 {
                destination.storeBytes(of: UInt16(truncatingIfNeeded: packed[lane]), toByteOffset: 2 * lane, as: UInt16.self)
            }
            cx += 8
        }
        for x in (2 * cx)..<width {
            let cx = min(x >> 1, lastColumn)
            let other = (x & 1) == 0 ? max(cx - 1, 0) : min(cx + 1, lastColumn)
            let bias: Int32 = (x & 1) == 0 ? 8 : 7
            o[x] = UInt8(truncatingIfNeeded: (3 &* columnSums[cx] &+ columnSums[other] &+ bias) &>> 4)
        }
    }

    /// How the components map to colour.
    enum Model { case gray, ycbcr, rgb, cmyk, ycck }

    /// Writes `count` RGBA pixels from full-resolution component rows (each `count` samples).
    static func convert(_ model: Model, _ planes: [UnsafeMutablePointer<UInt8>], count: Int,
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
            // Eight pixels at a time, with the same fixed-point maths as the tail loop.
            var start = 0
            while start + 8 <= count {
                let y = lanes(yp + start), cb = lanes(cbp + start) &- 128, cr = lanes(crp + start) &- 128
                let r = clamped(y &+ ((91881 &* cr &+ 32768) &>> 16))
                let g = clamped(y &+ ((-22554 &* cb &- 46802 &* cr &+ 32768) &>> 16))
                let b = clamped(y &+ ((116130 &* cb &+ 32768) &>> 16))
                let pixels = r | (g &<< 8) | (b &<< 16) | SIMD8<Int32>(repeating: -16_777_216)  // alpha 0xFF
                UnsafeMutableRawPointer(rgba + start * 4).storeBytes(of: pixels, as: SIMD8<Int32>.self)
                start += 8
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

    /// Eight samples widened to 32-bit lanes (element by element: the generic
    /// SIMD widening initialiser is not specialised on this toolchain).
    @inline(__always)
    private static func lanes(_ p: UnsafeMutablePointer<UInt8>) -> SIMD8<Int32> {
        SIMD8<Int32>(Int32(p[0]), Int32(p[1]), Int32(p[2]), Int32(p[3]), Int32(p[4]), Int32(p[5]), Int32(p[6]), Int32(p[7]))
    }

    /// Lanes clamped to 0...255 with arithmetic only (no generic SIMD min/max calls).
    @inline(__always)
    private static func clamped(_ v: SIMD8<Int32>) -> SIMD8<Int32> {
        let positive = v & ~(v &>> 31)                      // negative → 0
        let over = (255 &- positive) &>> 31                 // all ones where > 255
        return (positive & ~over) | (255 & over)
    }
}
