/// Turns decoded component planes into RGBA: smooth ("fancy") chroma
/// upsampling for 2× factors (the triangle filter libjpeg uses), replication
/// for other factors, and YCbCr / YCCK / CMYK / RGB / gray conversion.
enum JPEGColorConverter {
    /// A component's samples after the IDCT, `stride` bytes per row.
    struct Plane {
        var samples: UnsafeMutablePointer<UInt8>
        var stride: Int
        /// Valid samples (the rest of each row is block padding).
        var width: Int
        var height: Int
        var horizontalFactor: Int
        var verticalFactor: Int
    }

    /// Upsamples `plane` to `width`×`height` full-resolution samples at `output`.
    static func upsample(_ plane: Plane, width: Int, height: Int, into output: UnsafeMutablePointer<UInt8>) {
        let fx = plane.horizontalFactor, fy = plane.verticalFactor
        if fx == 1 && fy == 1 {
            for y in 0..<height {
                (output + y * width).update(from: plane.samples + y * plane.stride, count: width)
            }
            return
        }
        guard fx <= 2 && fy <= 2 else {
            for y in 0..<height {
                let source = plane.samples + min(y / fy, plane.height - 1) * plane.stride
                let o = output + y * width
                for x in 0..<width { o[x] = source[min(x / fx, plane.width - 1)] }
            }
            return
        }
        let columnSums = UnsafeMutablePointer<Int>.allocate(capacity: plane.width + 2)
        defer { columnSums.deallocate() }
        let lastColumn = plane.width - 1
        for y in 0..<height {
            // Vertical triangle filter: 3/4 nearer row + 1/4 farther row (sums scaled by 4).
            let near = min(y / fy, plane.height - 1)
            let nearRow = plane.samples + near * plane.stride
            if fy == 2 {
                let far = max(0, min(plane.height - 1, (y & 1) == 0 ? near - 1 : near + 1))
                let farRow = plane.samples + far * plane.stride
                for x in 0...lastColumn { columnSums[x] = 3 &* Int(nearRow[x]) &+ Int(farRow[x]) }
            } else {
                for x in 0...lastColumn { columnSums[x] = 4 &* Int(nearRow[x]) }
            }
            let o = output + y * width
            if fx == 2 {
                for x in 0..<width {
                    let cx = min(x >> 1, lastColumn)
                    let other = (x & 1) == 0 ? max(cx - 1, 0) : min(cx + 1, lastColumn)
                    let bias = (x & 1) == 0 ? 8 : 7
                    o[x] = UInt8(truncatingIfNeeded: (3 &* columnSums[cx] &+ columnSums[other] &+ bias) &>> 4)
                }
            } else {
                for x in 0..<width { o[x] = UInt8(truncatingIfNeeded: (columnSums[x] &+ 2) &>> 2) }
            }
        }
    }

    /// How the components map to colour.
    enum Model { case gray, ycbcr, rgb, cmyk, ycck }

    /// Writes RGBA pixels from full-resolution component planes (each `count` samples).
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
            for i in 0..<count {
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
}
