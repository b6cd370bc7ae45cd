/// PNG row filters (PNG spec §9): each row is stored as differences from its
/// neighbours, chosen per row to make the bytes more compressible.
enum PNGFilter {
    /// Filters the rows `rows` of an image whose rows have `rowBytes` bytes
    /// (`bpp` bytes per pixel) into `output`, one after another from the
    /// first, each prefixed by its filter type; `packRow(y, buffer)` writes row y's bytes
    /// into a buffer of `rowBytes` bytes (plus 8 of slack a packer may
    /// overwrite), so only two rows, the current one and the one above, are
    /// ever held unfiltered (the row above the first is packed too, unless it
    /// is the image's first row). A range of rows is filtered exactly as
    /// filtering the whole image would, so ranges can be filtered concurrently.
    /// Per row the filter with the smallest sum of absolute signed differences
    /// wins (the heuristic libpng and most encoders use), estimated on a sample
    /// of the row. All five are scored in one vectorised pass; only the winner is written.
    static func filterRows(_ rows: Range<Int>, rowBytes: Int, bpp: Int, into output: UnsafeMutablePointer<UInt8>,
                           packRow: (_ y: Int, _ into: UnsafeMutablePointer<UInt8>) -> Void,
                           checkCancellation: () throws -> Void) rethrows {
        let stride = rowBytes + 8
        // Row buffers: one of zeros (the row above the image's first), then two used in turn.
        let buffers = UnsafeMutablePointer<UInt8>.allocate(capacity: 3 * stride)
        buffers.initialize(repeating: 0, count: 3 * stride)
        defer { buffers.deallocate() }
        var up = UnsafePointer(buffers)
        if rows.lowerBound > 0 {
            let above = buffers + (1 + (rows.lowerBound - 1) % 2) * stride
            packRow(rows.lowerBound - 1, above)
            up = UnsafePointer(above)
        }
        for y in rows {
            if y % 256 == 255 { try checkCancellation() }
            let row = buffers + (1 + y % 2) * stride
            packRow(y, row)
            let scores = score(row, up, rowBytes, bpp)
            var best = 0
            for filter in 1...4 where scores[filter] < scores[best] { best = filter }
            let destination = output + (y - rows.lowerBound) * (rowBytes + 1)
            destination[0] = UInt8(best)
            apply(row, up, rowBytes, bpp, filter: best, into: destination + 1)
            up = UnsafePointer(row)
        }
    }

    /// The five filters' scores for one row: sums of |filtered byte as Int8|
    /// over a sample of the row: its first 16 bytes, then every other 32-byte
    /// chunk, then the bytes after the last whole chunk. Half the bytes rank the
    /// filters nearly as well as all of them (measured: 3 % larger output on the
    /// map benchmark image, none on the photo) at half the cost, the biggest
    /// part of encoding a flat image.
    static func score(_ row: UnsafePointer<UInt8>, _ up: UnsafePointer<UInt8>, _ count: Int, _ bpp: Int) -> [Int] {
        var totals = [0, 0, 0, 0, 0]
        @inline(__always) func cost(_ value: UInt8) -> Int { abs(Int(Int8(bitPattern: value))) }
        // The first 16 bytes (whose left neighbours are partly outside the row)
        // and the tail are scored a byte at a time, the chunks 32 bytes at a time.
        let head = min(count, 16)
        var i = 0
        func scalar(_ i: Int) {
            let a = i >= bpp ? row[i - bpp] : 0, b = up[i], c = i >= bpp ? up[i - bpp] : 0
            totals[0] += cost(row[i])
            totals[1] += cost(row[i] &- a)
            totals[2] += cost(row[i] &- b)
            totals[3] += cost(row[i] &- UInt8((UInt16(a) + UInt16(b)) >> 1))
            totals[4] += cost(row[i] &- UInt8(paeth(Int(a), Int(b), Int(c))))
        }
        while i < head { scalar(i); i += 1 }
        typealias Lanes = SIMD16<Int16>
        var sums = (Lanes(), Lanes(), Lanes(), Lanes(), Lanes())
        var chunks = 0
        @inline(__always) func total(_ lanes: Lanes) -> Int { Int(SIMD16<Int32>(truncatingIfNeeded: lanes).wrappedSum()) }
        @inline(__always) func flush() {
            totals[0] += total(sums.0); totals[1] += total(sums.1); totals[2] += total(sums.2)
            totals[3] += total(sums.3); totals[4] += total(sums.4)
            sums = (Lanes(), Lanes(), Lanes(), Lanes(), Lanes())
            chunks = 0
        }
        @inline(__always) func accumulate(_ x: Lanes, _ a: Lanes, _ b: Lanes, _ c: Lanes) {
            sums.0 &+= magnitude(x)
            sums.1 &+= magnitude(x &- a)
            sums.2 &+= magnitude(x &- b)
            sums.3 &+= magnitude(x &- ((a &+ b) &>> 1))
            sums.4 &+= magnitude(x &- paeth(a, b, c))
        }
        var chunk = 0
        while i + 32 <= count {
            // Every other 32-byte chunk is scored (see `sampledChunks`), as 16
            // two-byte lanes: even bytes, then odd bytes.
            if chunk & 1 == 0 {
                let x = load(row + i), a = load(row + i - bpp), b = load(up + i), c = load(up + i - bpp)
                accumulate(x & 0xFF, a & 0xFF, b & 0xFF, c & 0xFF)
                accumulate((x &>> 8) & 0xFF, (a &>> 8) & 0xFF, (b &>> 8) & 0xFF, (c &>> 8) & 0xFF)
                chunks += 1
                if chunks == 100 { flush() }  // lanes hold at most 100 × 2 × 128 before Int16 overflow
            }
            i += 32
            chunk += 1
        }
        flush()
        while i < count { scalar(i); i += 1 }
        return totals
    }

    /// 32 bytes at `p` as 16 little-endian two-byte lanes; `& 0xFF` takes the
    /// even bytes, `&>> 8 & 0xFF` the odd ones. (Widening 16 bytes with the
    /// generic `init(truncatingIfNeeded:)` is not specialised here and runs a lane at a time.)
    @inline(__always)
    private static func load(_ p: UnsafePointer<UInt8>) -> SIMD16<Int16> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Int16>.self)
    }

    // The lane functions below use only arithmetic and bit operations: the
    // standard library's SIMD `replacing(with:where:)`, `pointwiseMin` and
    // mask conversions are generic calls here and run a lane at a time.

    /// |difference as a signed byte| for differences of bytes (any Int16 value, taken mod 256).
    @inline(__always)
    private static func magnitude(_ difference: SIMD16<Int16>) -> SIMD16<Int16> {
        128 &- absolute((difference & 0xFF) &- 128)
    }

    @inline(__always)
    private static func absolute(_ v: SIMD16<Int16>) -> SIMD16<Int16> {
        let sign = v &>> 15
        return (v ^ sign) &- sign
    }

    /// All ones in lanes where `x <= y`, zero elsewhere (|x − y| < 2¹⁵).
    @inline(__always)
    private static func lessOrEqual(_ x: SIMD16<Int16>, _ y: SIMD16<Int16>) -> SIMD16<Int16> {
        ~((y &- x) &>> 15)
    }

    /// The Paeth predictor lane by lane.
    @inline(__always)
    private static func paeth(_ a: SIMD16<Int16>, _ b: SIMD16<Int16>, _ c: SIMD16<Int16>) -> SIMD16<Int16> {
        let pa = absolute(b &- c), pb = absolute(a &- c), pc = absolute(a &+ b &- c &- c)
        let useA = lessOrEqual(pa, pb) & lessOrEqual(pa, pc)
        let useB = lessOrEqual(pb, pc)
        let bOrC = (b & useB) | (c & ~useB)
        return (a & useA) | (bOrC & ~useA)
    }

    /// Writes one row filtered with `filter`.
    @inline(__always)
    private static func apply(_ row: UnsafePointer<UInt8>, _ up: UnsafePointer<UInt8>, _ count: Int, _ bpp: Int, filter: Int,
                              into out: UnsafeMutablePointer<UInt8>) {
        let head = min(bpp, count)
        switch filter {
        case 0:
            out.update(from: row, count: count)
        case 1:
            for i in 0..<head { out[i] = row[i] }
            for i in head..<max(head, count) { out[i] = row[i] &- row[i - bpp] }
        case 2:
            for i in 0..<count { out[i] = row[i] &- up[i] }
        case 3:
            for i in 0..<head { out[i] = row[i] &- up[i] >> 1 }
            for i in head..<max(head, count) { out[i] = row[i] &- UInt8((UInt16(row[i - bpp]) + UInt16(up[i])) >> 1) }
        default:
            // Paeth is the costly one (and the most often chosen): 16 bytes at a time.
            for i in 0..<head { out[i] = row[i] &- up[i] }
            var i = head
            while i < min(count, 16) { out[i] = row[i] &- UInt8(paeth(Int(row[i - bpp]), Int(up[i]), Int(up[i - bpp]))); i += 1 }
            while i + 32 <= count {
                let x = load(row + i), a = load(row + i - bpp), b = load(up + i), c = load(up + i - bpp)
                let even = (x & 0xFF) &- paeth(a & 0xFF, b & 0xFF, c & 0xFF)
                let odd = ((x &>> 8) & 0xFF) &- paeth((a &>> 8) & 0xFF, (b &>> 8) & 0xFF, (c &>> 8) & 0xFF)
                UnsafeMutableRawPointer(out + i).storeBytes(of: (even & 0xFF) | (odd &<< 8), as: SIMD16<Int16>.self)
                i += 32
            }
            while i < count { out[i] = row[i] &- UInt8(paeth(Int(row[i - bpp]), Int(up[i]), Int(up[i - bpp]))); i += 1 }
        }
    }

    @inline(__always)
    static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}
