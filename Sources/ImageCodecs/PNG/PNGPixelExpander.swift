import Raster

/// Undoes the row filters of each pass and writes every pixel, converted to
/// straight RGBA8, at its place in the image.
struct PNGPixelExpander {
    let header: PNGHeader
    let palette: [RGBA]
    let transparency: [UInt8]?

    /// Unfilters `data` (every pass's rows, each behind its filter-type byte)
    /// in place, so each row's reference is the row before it, already
    /// unfiltered, with no copies; and writes every pixel into `output`.
    func expand(_ data: UnsafeMutableBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) throws {
        let maxRow = header.rowBytes(width: header.width)
        let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: maxRow)
        zeros.initialize(repeating: 0, count: maxRow)
        // Palette lookups with transparency folded in; indices past the palette read as opaque black.
        let lookup = UnsafeMutablePointer<UInt8>.allocate(capacity: 256 * 4)
        defer {
            zeros.deallocate()
            lookup.deallocate()
        }
        for i in 0..<256 {
            let color = i < palette.count ? palette[i] : RGBA(0, 0, 0)
            let alpha = header.colorType == 3 ? (transparency.flatMap { i < $0.count ? $0[i] : nil } ?? 255) : 255
            lookup[4 * i] = color.r; lookup[4 * i + 1] = color.g; lookup[4 * i + 2] = color.b; lookup[4 * i + 3] = alpha
        }
        let key = colorKey()
        let base = data.baseAddress!
        var offset = 0
        for (number, pass) in header.passes.enumerated() where pass.width > 0 && pass.height > 0 {
            let rowBytes = header.rowBytes(width: pass.width)
            var previous = UnsafePointer(zeros)
            for row in 0..<pass.height {
                let filter = data[offset]
                guard filter <= 4 else {
                    throw PNGError.invalid("row \(row) of pass \(number + 1) uses filter type \(filter); allowed: 0–4")
                }
                let current = base + offset + 1
                offset += 1 + rowBytes
                Self.unfilter(current, previous: previous, count: rowBytes, stride: header.filterStride, type: filter)
                let y = pass.y + row * pass.dy
                writeRow(current, width: pass.width, into: output + (y * header.width + pass.x) * 4, step: pass.dx * 4,
                         palette: lookup, key: key)
                previous = UnsafePointer(current)
            }
        }
    }

    /// The colour key of a gray or RGB image's tRNS, as full-precision samples.
    private func colorKey() -> [Int]? {
        guard let t = transparency, header.colorType == 0 || header.colorType == 2 else { return nil }
        let samples = stride(from: 0, to: t.count, by: 2).map { Int(t[$0]) << 8 | Int(t[$0 + 1]) }
        return samples
    }

    private func writeRow(_ row: UnsafeMutablePointer<UInt8>, width: Int, into out: UnsafeMutablePointer<UInt8>, step: Int,
                          palette: UnsafePointer<UInt8>, key: [Int]?) {
        let depth = header.bitDepth
        var o = out
        switch (header.colorType, depth) {
        case (6, 8) where step == 4:
            o.update(from: row, count: 4 * width)
        case (6, 8):
            for x in 0..<width {
                UnsafeMutableRawPointer(o).storeBytes(of: UnsafeRawPointer(row + 4 * x).loadUnaligned(as: UInt32.self), as: UInt32.self)
                o += step
            }
        case (2, 8) where key == nil:
            // A pixel's 3 bytes and the next one's first as one word, its top
            // byte replaced by an opaque alpha; the last pixel byte by byte.
            let opaque = UInt32(0xFF00_0000).littleEndian, colour = UInt32(0x00FF_FFFF).littleEndian
            for x in 0..<width - 1 {
                let word = UnsafeRawPointer(row + 3 * x).loadUnaligned(as: UInt32.self)
                UnsafeMutableRawPointer(o).storeBytes(of: word & colour | opaque, as: UInt32.self)
                o += step
            }
            let last = row + 3 * (width - 1)
            o[0] = last[0]; o[1] = last[1]; o[2] = last[2]; o[3] = 255
        case (3, _):
            for x in 0..<width {
                let index = Int(sample(row, x, depth))
                o[0] = palette[4 * index]; o[1] = palette[4 * index + 1]; o[2] = palette[4 * index + 2]; o[3] = palette[4 * index + 3]
                o += step
            }
        case (0, _):
            let maximum = (1 << depth) - 1
            for x in 0..<width {
                let v = sample(row, x, depth)
                let gray = depth == 16 ? UInt8(v >> 8) : UInt8(v * 255 / maximum)
                o[0] = gray; o[1] = gray; o[2] = gray
                o[3] = key.map { $0[0] == v ? 0 : 255 } ?? 255
                o += step
            }
        case (2, _):
            for x in 0..<width {
                let r = channel(row, x, 0, 3), g = channel(row, x, 1, 3), b = channel(row, x, 2, 3)
                o[0] = high(r); o[1] = high(g); o[2] = high(b)
                o[3] = key.map { $0[0] == r && $0[1] == g && $0[2] == b ? 0 : 255 } ?? 255
                o += step
            }
        case (4, _):
            for x in 0..<width {
                let v = high(channel(row, x, 0, 2))
                o[0] = v; o[1] = v; o[2] = v; o[3] = high(channel(row, x, 1, 2))
                o += step
            }
        default:  // (6, 16)
            for x in 0..<width {
                o[0] = high(channel(row, x, 0, 4)); o[1] = high(channel(row, x, 1, 4))
                o[2] = high(channel(row, x, 2, 4)); o[3] = high(channel(row, x, 3, 4))
                o += step
            }
        }
    }

    /// Sample x of a one-channel row at `depth` bits (1, 2, 4, 8 or 16).
    @inline(__always)
    private func sample(_ row: UnsafeMutablePointer<UInt8>, _ x: Int, _ depth: Int) -> Int {
        switch depth {
        case 16: return Int(row[2 * x]) << 8 | Int(row[2 * x + 1])
        case 8: return Int(row[x])
        default:
            let bit = x * depth
            return Int(row[bit >> 3] >> (8 - depth - (bit & 7))) & ((1 << depth) - 1)
        }
    }

    /// Channel c of pixel x in a row of 8- or 16-bit samples, at full precision.
    @inline(__always)
    private func channel(_ row: UnsafeMutablePointer<UInt8>, _ x: Int, _ c: Int, _ channels: Int) -> Int {
        header.bitDepth == 16 ? Int(row[2 * (x * channels + c)]) << 8 | Int(row[2 * (x * channels + c) + 1]) : Int(row[x * channels + c])
    }

    /// An 8- or 16-bit sample as 8 bits (16-bit keeps its high byte).
    @inline(__always)
    private func high(_ value: Int) -> UInt8 { header.bitDepth == 16 ? UInt8(value >> 8) : UInt8(value) }

    /// Reverses one row's filter in place (PNG spec §9.2); `previous` is the
    /// row above, already unfiltered (zeros for a pass's first row).
    static func unfilter(_ row: UnsafeMutablePointer<UInt8>, previous: UnsafePointer<UInt8>, count: Int, stride bpp: Int, type: UInt8) {
        let head = min(bpp, count)
        switch type {
        case 1:
            reconstruct(row, previous, count, bpp) { a, _, _ in a }
        case 2:
            for i in 0..<count { row[i] &+= previous[i] }
        case 3:
            for i in 0..<head { row[i] &+= previous[i] >> 1 }
            reconstruct(row, previous, count, bpp) { a, b, _ in UInt8(truncatingIfNeeded: (UInt16(a) &+ UInt16(b)) >> 1) }
        case 4:
            for i in 0..<head { row[i] &+= previous[i] }  // the Paeth predictor of (0, b, 0) is b
            reconstruct(row, previous, count, bpp) { a, b, c in UInt8(truncatingIfNeeded: PNGFilter.paeth(Int(a), Int(b), Int(c))) }
        default:
            break
        }
    }

    /// `row[i] += predict(left, above, upper left)` for every byte after the
    /// first pixel (whose left neighbours are zero: the caller has done it).
    /// The left byte of each channel comes from a register rather than from the
    /// byte just stored for 3- and 4-byte pixels, which would wait on
    /// store-to-load forwarding at every step of the chain.
    @inline(__always)
    private static func reconstruct(_ row: UnsafeMutablePointer<UInt8>, _ previous: UnsafePointer<UInt8>, _ count: Int, _ bpp: Int,
                                    _ predict: (UInt8, UInt8, UInt8) -> UInt8) {
        var i = bpp
        if bpp == 3 && count >= 3 {
            var (a0, a1, a2) = (row[0], row[1], row[2]), (c0, c1, c2) = (previous[0], previous[1], previous[2])
            while i + 3 <= count {
                let (b0, b1, b2) = (previous[i], previous[i + 1], previous[i + 2])
                a0 = row[i] &+ predict(a0, b0, c0); a1 = row[i + 1] &+ predict(a1, b1, c1); a2 = row[i + 2] &+ predict(a2, b2, c2)
                row[i] = a0; row[i + 1] = a1; row[i + 2] = a2
                (c0, c1, c2) = (b0, b1, b2)
                i += 3
            }
        } else if bpp == 4 && count >= 4 {
            var (a0, a1, a2, a3) = (row[0], row[1], row[2], row[3]), (c0, c1, c2, c3) = (previous[0], previous[1], previous[2], previous[3])
            while i + 4 <= count {
                let (b0, b1, b2, b3) = (previous[i], previous[i + 1], previous[i + 2], previous[i + 3])
                a0 = row[i] &+ predict(a0, b0, c0); a1 = row[i + 1] &+ predict(a1, b1, c1)
                a2 = row[i + 2] &+ predict(a2, b2, c2); a3 = row[i + 3] &+ predict(a3, b3, c3)
                row[i] = a0; row[i + 1] = a1; row[i + 2] = a2; row[i + 3] = a3
                (c0, c1, c2, c3) = (b0, b1, b2, b3)
                i += 4
            }
        }
        while i < count {
            row[i] &+= predict(row[i - bpp], previous[i], previous[i - bpp])
            i += 1
        }
    }
}
