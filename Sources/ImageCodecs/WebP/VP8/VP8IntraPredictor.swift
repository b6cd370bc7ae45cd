/// The intra predictors of RFC 6386 section 12, written into a block whose
/// edges (the row above, the column to the left and the corner) are already
/// in place in the same buffer: `pixels` is the block's top-left pixel, rows
/// `stride` apart, so `pixels[-stride]` is above it and `pixels[-1]` left.
/// At the picture's edges the caller fills the missing edges with 127 (above)
/// and 129 (left), as the RFC specifies.
enum VP8IntraPredictor {
    // MARK: 16×16 luma and 8×8 chroma

    /// Predicts a `size`×`size` block (16 or 8) with a whole-block mode
    /// (`VP8IntraMode.checked` already applied at the edges).
    static func predictBlock(_ mode: UInt8, size: Int, _ pixels: UnsafeMutablePointer<UInt8>, stride: Int) {
        let shift = size == 16 ? 4 : 3
        switch mode {
        case VP8IntraMode.trueMotion:
            trueMotion(pixels, size: size, stride: stride)
        case VP8IntraMode.vertical:
            for y in 0..<size { (pixels + y * stride).update(from: pixels - stride, count: size) }
        case VP8IntraMode.horizontal:
            for y in 0..<size { (pixels + y * stride).update(repeating: pixels[y * stride - 1], count: size) }
        case VP8IntraMode.dcWithoutEdges:
            fill(pixels, size: size, stride: stride, value: 0x80)
        case VP8IntraMode.dcWithoutTop:
            let sum = (0..<size).reduce(0) { $0 + Int(pixels[$1 * stride - 1]) }
            fill(pixels, size: size, stride: stride, value: UInt8((sum + (size >> 1)) >> shift))
        case VP8IntraMode.dcWithoutLeft:
            let sum = (0..<size).reduce(0) { $0 + Int(pixels[$1 - stride]) }
            fill(pixels, size: size, stride: stride, value: UInt8((sum + (size >> 1)) >> shift))
        default:
            var sum = 0
            for i in 0..<size { sum += Int(pixels[i - stride]) + Int(pixels[i * stride - 1]) }
            fill(pixels, size: size, stride: stride, value: UInt8((sum + size) >> (shift + 1)))
        }
    }

    @inline(__always)
    private static func fill(_ pixels: UnsafeMutablePointer<UInt8>, size: Int, stride: Int, value: UInt8) {
        for y in 0..<size { (pixels + y * stride).update(repeating: value, count: size) }
    }

    /// above + left − corner, clamped to 0...255.
    @inline(__always)
    private static func trueMotion(_ pixels: UnsafeMutablePointer<UInt8>, size: Int, stride: Int) {
        let above = pixels - stride
        let corner = Int(above[-1])
        for y in 0..<size {
            let row = pixels + y * stride
            let left = Int(row[-1]) - corner
            for x in 0..<size {
                let value = Int(above[x]) + left
                row[x] = UInt8(truncatingIfNeeded: value < 0 ? 0 : value > 255 ? 255 : value)
            }
        }
    }

    // MARK: 4×4 luma

    @inline(__always)
    private static func average3(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (Int(a) + 2 * Int(b) + Int(c) + 2) >> 2)
    }

    @inline(__always)
    private static func average2(_ a: UInt8, _ b: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (Int(a) + Int(b) + 1) >> 1)
    }

    /// Predicts a 4×4 block. It reads the four pixels above and right of it
    /// too (`pixels[4 - stride]...`), which the caller provides.
    static func predictSubblock(_ mode: UInt8, _ pixels: UnsafeMutablePointer<UInt8>, stride: Int) {
        let top = pixels - stride
        // The edges: A...H above (E...H above-right), I...L left, X the corner.
        let x = top[-1]
        let a = top[0], b = top[1], c = top[2], d = top[3]
        let i = pixels[-1], j = pixels[stride - 1], k = pixels[2 * stride - 1], l = pixels[3 * stride - 1]
        @inline(__always) func set(_ column: Int, _ row: Int, _ value: UInt8) { pixels[row * stride + column] = value }
        switch mode {
        case VP8IntraMode.dc:
            var sum = 4
            for n in 0..<4 { sum += Int(top[n]) + Int(pixels[n * stride - 1]) }
            for n in 0..<4 { (pixels + n * stride).update(repeating: UInt8(sum >> 3), count: 4) }
        case VP8IntraMode.trueMotion:
            trueMotion(pixels, size: 4, stride: stride)
        case VP8IntraMode.vertical:
            let v0 = average3(x, a, b), v1 = average3(a, b, c), v2 = average3(b, c, d), v3 = average3(c, d, top[4])
            for n in 0..<4 { set(0, n, v0); set(1, n, v1); set(2, n, v2); set(3, n, v3) }
        case VP8IntraMode.horizontal:
            pixels.update(repeating: average3(x, i, j), count: 4)
            (pixels + stride).update(repeating: average3(i, j, k), count: 4)
            (pixels + 2 * stride).update(repeating: average3(j, k, l), count: 4)
            (pixels + 3 * stride).update(repeating: average3(k, l, l), count: 4)
        case VP8IntraMode.downRight:
            set(0, 3, average3(j, k, l))
            let ijk = average3(i, j, k); set(1, 3, ijk); set(0, 2, ijk)
            let xij = average3(x, i, j); set(2, 3, xij); set(1, 2, xij); set(0, 1, xij)
            let axi = average3(a, x, i); set(3, 3, axi); set(2, 2, axi); set(1, 1, axi); set(0, 0, axi)
            let bax = average3(b, a, x); set(3, 2, bax); set(2, 1, bax); set(1, 0, bax)
            let cba = average3(c, b, a); set(3, 1, cba); set(2, 0, cba)
            set(3, 0, average3(d, c, b))
        case VP8IntraMode.verticalRight:
            let xa = average2(x, a); set(0, 0, xa); set(1, 2, xa)
            let ab = average2(a, b); set(1, 0, ab); set(2, 2, ab)
            let bc = average2(b, c); set(2, 0, bc); set(3, 2, bc)
            set(3, 0, average2(c, d))
            set(0, 3, average3(k, j, i))
            set(0, 2, average3(j, i, x))
            let ixa = average3(i, x, a); set(0, 1, ixa); set(1, 3, ixa)
            let xab = average3(x, a, b); set(1, 1, xab); set(2, 3, xab)
            let abc = average3(a, b, c); set(2, 1, abc); set(3, 3, abc)
            set(3, 1, average3(b, c, d))
        case VP8IntraMode.downLeft:
            let e = top[4], f = top[5], g = top[6], h = top[7]
            set(0, 0, average3(a, b, c))
            let bcd = average3(b, c, d); set(1, 0, bcd); set(0, 1, bcd)
            let cde = average3(c, d, e); set(2, 0, cde); set(1, 1, cde); set(0, 2, cde)
            let def = average3(d, e, f); set(3, 0, def); set(2, 1, def); set(1, 2, def); set(0, 3, def)
            let efg = average3(e, f, g); set(3, 1, efg); set(2, 2, efg); set(1, 3, efg)
            let fgh = average3(f, g, h); set(3, 2, fgh); set(2, 3, fgh)
            set(3, 3, average3(g, h, h))
        case VP8IntraMode.verticalLeft:
            let e = top[4], f = top[5], g = top[6], h = top[7]
            set(0, 0, average2(a, b))
            let bc = average2(b, c); set(1, 0, bc); set(0, 2, bc)
            let cd = average2(c, d); set(2, 0, cd); set(1, 2, cd)
            let de = average2(d, e); set(3, 0, de); set(2, 2, de)
            set(0, 1, average3(a, b, c))
            let bcd = average3(b, c, d); set(1, 1, bcd); set(0, 3, bcd)
            let cde = average3(c, d, e); set(2, 1, cde); set(1, 3, cde)
            let def = average3(d, e, f); set(3, 1, def); set(2, 3, def)
            set(3, 2, average3(e, f, g))
            set(3, 3, average3(f, g, h))
        case VP8IntraMode.horizontalDown:
            let ix = average2(i, x); set(0, 0, ix); set(2, 1, ix)
            let ji = average2(j, i); set(0, 1, ji); set(2, 2, ji)
            let kj = average2(k, j); set(0, 2, kj); set(2, 3, kj)
            set(0, 3, average2(l, k))
            set(3, 0, average3(a, b, c))
            set(2, 0, average3(x, a, b))
            let ixa = average3(i, x, a); set(1, 0, ixa); set(3, 1, ixa)
            let jix = average3(j, i, x); set(1, 1, jix); set(3, 2, jix)
            let kji = average3(k, j, i); set(1, 2, kji); set(3, 3, kji)
            set(1, 3, average3(l, k, j))
        default:  // horizontal-up
            set(0, 0, average2(i, j))
            let jk = average2(j, k); set(2, 0, jk); set(0, 1, jk)
            let kl = average2(k, l); set(2, 1, kl); set(0, 2, kl)
            set(1, 0, average3(i, j, k))
            let jkl = average3(j, k, l); set(3, 0, jkl); set(1, 1, jkl)
            let kll = average3(k, l, l); set(3, 1, kll); set(1, 2, kll)
            set(3, 2, l); set(2, 2, l); set(0, 3, l); set(1, 3, l); set(2, 3, l); set(3, 3, l)
        }
    }
}
