/// PNG row filters (PNG spec §9): each row is stored as differences from its
/// neighbours, chosen per row to make the bytes more compressible.
enum PNGFilter {
    /// Filters every row of `raw` (rows of `rowBytes`, `bpp` bytes per pixel)
    /// into `output`, each row prefixed by its filter type. Per row the filter
    /// with the smallest sum of absolute signed differences wins (the heuristic
    /// libpng and most encoders use). Each filter is scored in a loop of its
    /// own, giving up as soon as it cannot win; only the winner is written.
    static func filterRows(_ raw: UnsafePointer<UInt8>, rows: Int, rowBytes: Int, bpp: Int, into output: UnsafeMutablePointer<UInt8>) {
        let zero = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        zero.initialize(repeating: 0, count: rowBytes)
        defer { zero.deallocate() }
        for y in 0..<rows {
            let row = raw + y * rowBytes
            let up = y > 0 ? raw + (y - 1) * rowBytes : UnsafePointer(zero)
            var best = 0
            var bestScore = score(row, up, rowBytes, bpp, filter: 0, limit: .max)
            for filter in 1...4 {
                let s = score(row, up, rowBytes, bpp, filter: filter, limit: bestScore)
                if s < bestScore {
                    bestScore = s
                    best = filter
                }
            }
            let destination = output + y * (rowBytes + 1)
            destination[0] = UInt8(best)
            apply(row, up, rowBytes, bpp, filter: best, into: destination + 1)
        }
    }

    /// The sum of |filtered byte as Int8| for one filter, or a value ≥ `limit`
    /// once it is clear the filter cannot beat `limit`.
    @inline(__always)
    private static func score(_ row: UnsafePointer<UInt8>, _ up: UnsafePointer<UInt8>, _ count: Int, _ bpp: Int, filter: Int, limit: Int) -> Int {
        var total = 0
        @inline(__always) func add(_ value: UInt8) { total &+= abs(Int(Int8(bitPattern: value))) }
        switch filter {
        case 0:
            for i in 0..<count { add(row[i]) }
        case 1:
            for i in 0..<min(bpp, count) { add(row[i]) }
            var i = bpp
            while i < count {
                let end = min(count, i + 256)
                while i < end { add(row[i] &- row[i - bpp]); i += 1 }
                if total >= limit { return total }
            }
        case 2:
            var i = 0
            while i < count {
                let end = min(count, i + 256)
                while i < end { add(row[i] &- up[i]); i += 1 }
                if total >= limit { return total }
            }
        case 3:
            for i in 0..<min(bpp, count) { add(row[i] &- up[i] >> 1) }
            var i = bpp
            while i < count {
                let end = min(count, i + 256)
                while i < end {
                    add(row[i] &- UInt8((UInt16(row[i - bpp]) + UInt16(up[i])) >> 1))
                    i += 1
                }
                if total >= limit { return total }
            }
        default:
            for i in 0..<min(bpp, count) { add(row[i] &- up[i]) }
            var i = bpp
            while i < count {
                let end = min(count, i + 256)
                while i < end {
                    add(row[i] &- UInt8(paeth(Int(row[i - bpp]), Int(up[i]), Int(up[i - bpp]))))
                    i += 1
                }
                if total >= limit { return total }
            }
        }
        return total
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
            for i in 0..<head { out[i] = row[i] &- up[i] }
            for i in head..<max(head, count) { out[i] = row[i] &- UInt8(paeth(Int(row[i - bpp]), Int(up[i]), Int(up[i - bpp]))) }
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
