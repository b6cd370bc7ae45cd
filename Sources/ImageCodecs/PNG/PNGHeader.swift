/// The IHDR chunk, validated: size, bit depth and colour type, interlacing.
struct PNGHeader {
    let width: Int
    let height: Int
    let bitDepth: Int
    /// 0 gray, 2 RGB, 3 palette, 4 gray + alpha, 6 RGBA.
    let colorType: Int
    let interlaced: Bool

    init(_ data: UnsafeBufferPointer<UInt8>) throws {
        guard data.count == 13 else { throw PNGError.invalid("IHDR is \(data.count) bytes long, expected 13") }
        width = Int(PNGChunks.bigEndian32(data, 0))
        height = Int(PNGChunks.bigEndian32(data, 4))
        bitDepth = Int(data[8])
        colorType = Int(data[9])
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw PNGError.invalid("image size \(width)×\(height); both must be 1…2147483647")
        }
        let allowed: [Int]
        switch colorType {
        case 0: allowed = [1, 2, 4, 8, 16]
        case 3: allowed = [1, 2, 4, 8]
        case 2, 4, 6: allowed = [8, 16]
        default: throw PNGError.invalid("colour type \(colorType); allowed: 0, 2, 3, 4, 6")
        }
        guard allowed.contains(bitDepth) else {
            throw PNGError.invalid("bit depth \(bitDepth) with colour type \(colorType); allowed: \(allowed.map(String.init).joined(separator: ", "))")
        }
        guard data[10] == 0 else { throw PNGError.invalid("compression method \(data[10]); only 0 (deflate) exists") }
        guard data[11] == 0 else { throw PNGError.invalid("filter method \(data[11]); only 0 exists") }
        guard data[12] <= 1 else { throw PNGError.invalid("interlace method \(data[12]); allowed: 0, 1 (Adam7)") }
        interlaced = data[12] == 1
    }

    /// Samples per pixel.
    var channels: Int {
        switch colorType {
        case 2: return 3
        case 4: return 2
        case 6: return 4
        default: return 1
        }
    }

    var bitsPerPixel: Int { channels * bitDepth }
    /// Bytes per complete pixel for filtering (at least 1).
    var filterStride: Int { max(1, bitsPerPixel / 8) }

    func rowBytes(width: Int) -> Int { (width * bitsPerPixel + 7) / 8 }

    /// Adam7 passes (or the one pass of a plain image): origin, step, and size.
    var passes: [(x: Int, y: Int, dx: Int, dy: Int, width: Int, height: Int)] {
        let layout = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        return layout.map { x, y, dx, dy in
            (x, y, dx, dy, width > x ? (width - x + dx - 1) / dx : 0, height > y ? (height - y + dy - 1) / dy : 0)
        }
    }

    /// Bytes the decompressed image data must have: every non-empty pass's rows, each with a filter byte.
    var imageDataSize: Int {
        passes.reduce(0) { total, pass in
            pass.width == 0 || pass.height == 0 ? total : total + pass.height * (1 + rowBytes(width: pass.width))
        }
    }
}
