/// PNG row filters (PNG spec §9): each row is stored as differences from its
/// neighbours, chosen per row to make the bytes more compressible.
enum PNGFilter {
    /// Filters every row of `raw` (rows of `rowBytes`, `bpp` bytes per pixel)
    /// into `output`, each row prefixed by its filter type. Per row it tries all
    /// five filters and keeps the one with the smallest sum of absolute signed
    /// differences, the heuristic libpng and most encoders use.
    static func filterRows(_ raw: UnsafePointer<UInt8>, rows: Int, rowBytes: Int, bpp: Int, into output: UnsafeMutablePointer<UInt8>) {
        let candidates = UnsafeMutablePointer<UInt8>.allocate(capacity: 5 * rowBytes)
        let zero = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        zero.initialize(repeating: 0, count: rowBytes)
        defer {
            candidates.deallocate()
            zero.deallocate()
        }
        for y in 0..<rows {
            let row = raw + y * rowBytes
            let up = y > 0 ? raw + (y - 1) * rowBytes : UnsafePointer(zero)
            var bestFilter = 0
            var bestScore = Int.max
            for filter in 0..<5 {
                let out = candidates + filter * rowBytes
                var score = 0
                for i in 0..<rowBytes {
                    let a = i >= bpp ? Int(row[i - bpp]) : 0
                    let b = Int(up[i])
                    let c = i >= bpp ? Int(up[i - bpp]) : 0
                    let predictor: Int
                    switch filter {
                    case 0: predictor = 0
                    case 1: predictor = a
                    case 2: predictor = b
                    case 3: predictor = (a + b) >> 1
                    default: predictor = paeth(a, b, c)
                    }
                    let value = UInt8(truncatingIfNeeded: Int(row[i]) - predictor)
                    out[i] = value
                    score += abs(Int(Int8(bitPattern: value)))
                }
                if score < bestScore {
                    bestScore = score
                    bestFilter = filter
                }
            }
            let destination = output + y * (rowBytes + 1)
            destination[0] = UInt8(bestFilter)
            (destination + 1).update(from: candidates + bestFilter * rowBytes, count: rowBytes)
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
