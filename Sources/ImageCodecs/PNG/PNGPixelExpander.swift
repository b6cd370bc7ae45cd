import Raster

/// Undoes the row filters of each pass and writes every pixel, converted to
/// straight RGBA8, at its place in the image.
struct PNGPixelExpander {
    let header: PNGHeader
    let palette: [RGBA]
    let transparency: [UInt8]?

    func expand(_ data: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) throws {
        let maxRow = header.rowBytes(width: header.width)
        let current = UnsafeMutablePointer<UInt8>.allocate(capacity: maxRow)
        let previous = UnsafeMutablePointer<UInt8>.allocate(capacity: maxRow)
        // Palette lookups with transparency folded in; indices past the palette read as opaque black.
        let lookup = UnsafeMutablePointer<UInt8>.allocate(capacity: 256 * 4)
        defer {
            current.deallocate()
            previous.deallocate()
            lookup.deallocate()
        }
        for i in 0..<256 {
            let color = i < palette.count ? palette[i] : RGBA(0, 0, 0)
            let alpha = header.colorType == 3 ? (transparency.flatMap { i < $0.count ? $0[i] : nil } ?? 255) : 255
            lookup[4 * i] = color.r; lookup[4 * i + 1] = color.g; lookup[4 * i + 2] = color.b; lookup[4 * i + 3] = alpha
        }
        let key = colorKey()
        var offset = 0
        for (number, pass) in header.passes.enumerated() where pass.width > 0 && pass.height > 0 {
            let rowBytes = header.rowBytes(width: pass.width)
            previous.initialize(repeating: 0, count: rowBytes)
            for row in 0..<pass.height {
                let filter = data[offset]
                guard filter <= 4 else {
                    throw PNGError.invalid("row \(row) of pass \(number + 1) uses filter type \(filter); allowed: 0–4")
                }
                current.update(from: data.baseAddress! + offset + 1, count: rowBytes)
                offset += 1 + rowBytes
                Self.unfilter(current, previous: previous, count: rowBytes, stride: header.filterStride, type: filter)
                let y = pass.y + row * pass.dy
                writeRow(current, width: pass.width, into: output + (y * header.width + pass.x) * 4, step: pass.dx * 4,
                         palette: lookup, key: key)
                previous.update(from: current, count: rowBytes)
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
        case (6, 8):
            for x in 0..<width {
                o[0] = row[4 * x]; o[1] = row[4 * x + 1]; o[2] = row[4 * x + 2]; o[3] = row[4 * x + 3]
                o += step
            }
        case (2, 8) where key == nil:
            for x in 0..<width {
                o[0] = row[3 * x]; o[1] = row[3 * x + 1]; o[2] = row[3 * x + 2]; o[3] = 255
                o += step
            }
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

    /// Reverses one row's filter in place (PNG spec §9.2).
    static func unfilter(_ row: UnsafeMutablePointer<UInt8>, previous: UnsafeMutablePointer<UInt8>, count: Int, stride bpp: Int, type: UInt8) {
        switch type {
        case 1:
            for i in bpp..<max(bpp, count) { row[i] = row[i] &+ row[i - bpp] }
        case 2:
            for i in 0..<count { row[i] = row[i] &+ previous[i] }
        case 3:
            for i in 0..<count {
                let left = i >= bpp ? Int(row[i - bpp]) : 0
                row[i] = row[i] &+ UInt8((left + Int(previous[i])) >> 1)
            }
        case 4:
            for i in 0..<count {
                let a = i >= bpp ? Int(row[i - bpp]) : 0, b = Int(previous[i]), c = i >= bpp ? Int(previous[i - bpp]) : 0
                row[i] = row[i] &+ UInt8(PNGFilter.paeth(a, b, c))
            }
        default:
            break
        }
    }
}
