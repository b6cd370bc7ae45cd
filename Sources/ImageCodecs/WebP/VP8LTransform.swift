/// One of the four reversible transforms a VP8L image may apply before its
/// pixels are entropy-coded (section 4 of the lossless spec), with its data,
/// and its inverse. Pixels are ARGB words (alpha in the top byte), rows
/// contiguous at the width the transform was read at.
enum VP8LTransform {
    /// Each block of `1 << bits` pixels square predicts from its neighbours
    /// with the mode in its `modes` pixel's green byte.
    case predictor(bits: Int, width: Int, modes: [UInt32])
    /// Each block adds multiples of green to red and blue, and of red to
    /// blue, as its `elements` pixel says.
    case color(bits: Int, width: Int, elements: [UInt32])
    /// Green was subtracted from red and blue.
    case subtractGreen
    /// Pixels are palette indices in green, `1 << bits` of them bundled in
    /// one coded pixel; `width` is the width after expansion. `palette` is
    /// padded with transparent black up to every index the bundling can hold.
    case colorIndexing(bits: Int, width: Int, palette: [UInt32])

    static let black: UInt32 = 0xFF00_0000

    /// Undoes the transform on the `width` × `height` pixels at `data`
    /// (`width` is the image's width at this point of decoding: `codedWidth`).
    func invert(_ data: UnsafeMutablePointer<UInt32>, width: Int, height: Int) {
        switch self {
        case let .predictor(bits, width, modes):
            modes.withUnsafeBufferPointer { Self.invertPredictor(data, width: width, height: height, bits: bits, modes: $0.baseAddress!) }
        case let .color(bits, width, elements):
            elements.withUnsafeBufferPointer { Self.invertColor(data, width: width, height: height, bits: bits, elements: $0.baseAddress!) }
        case .subtractGreen:
            for i in 0..<width * height { data[i] = Self.addGreen(data[i]) }
        case let .colorIndexing(bits, width, palette):
            palette.withUnsafeBufferPointer { Self.expandIndices(data, width: width, height: height, bits: bits, palette: $0.baseAddress!) }
        }
    }

    /// The width of the coded pixels this transform reads, given the width
    /// it was read at: narrower only where indices are bundled.
    static func codedWidth(_ width: Int, bundlingBits bits: Int) -> Int { (width + (1 << bits) - 1) >> bits }

    @inline(__always)
    static func addGreen(_ pixel: UInt32) -> UInt32 {
        let green = (pixel >> 8) & 0xFF
        return (pixel & 0xFF00_FF00) | ((pixel & 0x00FF_00FF) &+ (green << 16 | green)) & 0x00FF_00FF
    }

    /// Adds two pixels channel by channel, each modulo 256.
    @inline(__always)
    static func add(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let alphaGreen = (a & 0xFF00_FF00) &+ (b & 0xFF00_FF00)
        let redBlue = (a & 0x00FF_00FF) &+ (b & 0x00FF_00FF)
        return (alphaGreen & 0xFF00_FF00) | (redBlue & 0x00FF_00FF)
    }

    @inline(__always)
    static func average(_ a: UInt32, _ b: UInt32) -> UInt32 {
        (((a ^ b) & 0xFEFE_FEFE) >> 1) &+ (a & b)
    }

    @inline(__always)
    private static func clamp(_ value: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: value < 0 ? 0 : value > 255 ? 255 : value)
    }

    @inline(__always)
    private static func channel(_ pixel: UInt32, _ shift: UInt32) -> Int { Int((pixel >> shift) & 0xFF) }

    /// The four channels of a pixel in the four 16-bit lanes of a word, so
    /// that sums and differences of channels cannot carry into each other.
    @inline(__always)
    private static func lanes(_ pixel: UInt32) -> UInt64 {
        var x = UInt64(pixel)
        x = (x | x << 16) & 0x0000_FFFF_0000_FFFF
        return (x | x << 8) & 0x00FF_00FF_00FF_00FF
    }

    /// The four lanes, each at most 255, packed back into a pixel.
    @inline(__always)
    private static func packed(_ lanes: UInt64) -> UInt32 {
        let x = (lanes | lanes >> 8) & 0x0000_FFFF_0000_FFFF
        return UInt32(truncatingIfNeeded: x | x >> 16)
    }

    private static let laneOnes: UInt64 = 0x0001_0001_0001_0001

    /// The sum over channels of |a − b|. The four channels are independent
    /// chains the processor runs side by side: in the select predictor this
    /// sum for the left pixel lies on the path from one pixel to the next.
    @inline(__always)
    private static func absoluteDifferenceSum(_ a: UInt32, _ b: UInt32) -> Int32 {
        @inline(__always) func one(_ shift: UInt32) -> Int32 {
            let d = Int32((a >> shift) & 0xFF) &- Int32((b >> shift) & 0xFF)
            return d < 0 ? 0 &- d : d
        }
        return (one(0) &+ one(8)) &+ (one(16) &+ one(24))
    }

    @inline(__always)
    static func select(left: UInt32, top: UInt32, topLeft: UInt32) -> UInt32 {
        // Distance of each neighbour from the gradient estimate L + T − TL:
        // |T − TL| summed over channels for L, |L − TL| for T.
        let toLeft = absoluteDifferenceSum(top, topLeft)
        let toTop = absoluteDifferenceSum(left, topLeft)
        return toLeft < toTop ? left : top
    }

    @inline(__always)
    static func clampAddSubtractFull(_ a: UInt32, _ b: UInt32, _ c: UInt32) -> UInt32 {
        // a + b − c + 256 is 1…766 in each lane: under 256 clamps to 0, 512 and over to 255.
        let biased = lanes(a) + lanes(b) + 0x0100 &* laneOnes - lanes(c)
        let high = (biased >> 8) & (3 &* laneOnes)
        let over = (high >> 1) & laneOnes, inRangeOrOver = (high | high >> 1) & laneOnes
        return packed((biased & (inRangeOrOver &* 0xFF)) | (over &* 0xFF))
    }

    @inline(__always)
    static func clampAddSubtractHalf(_ a: UInt32, _ b: UInt32) -> UInt32 {
        @inline(__always) func one(_ shift: UInt32) -> UInt32 {
            let x = channel(a, shift)
            return clamp(x + (x - channel(b, shift)) / 2) << shift
        }
        return one(0) | one(8) | one(16) | one(24)
    }

    private static func invertPredictor(_ data: UnsafeMutablePointer<UInt32>, width: Int, height: Int, bits: Int, modes: UnsafePointer<UInt32>) {
        // The top row predicts from the left (its first pixel from black),
        // the left column from above; the rightmost column's top-right
        // neighbour is the first pixel of its own row, which is simply the
        // next word in memory.
        data[0] = add(data[0], black)
        for x in 1..<max(width, 1) { data[x] = add(data[x], data[x - 1]) }
        let blocksPerRow = (width + (1 << bits) - 1) >> bits
        for y in 1..<max(height, 1) {
            let row = data + y * width, above = UnsafePointer(row - width)
            row[0] = add(row[0], above[0])
            let modeRow = modes + (y >> bits) * blocksPerRow
            var x = 1
            while x < width {
                let end = min(width, ((x >> bits) + 1) << bits)
                // One mode per block: the switch is outside the pixel loop.
                switch (modeRow[x >> bits] >> 8) & 0xF {
                case 1: predictRun(row, above, x, end) { left, _, _, _ in left }
                case 2: predictRun(row, above, x, end) { _, top, _, _ in top }
                case 3: predictRun(row, above, x, end) { _, _, topRight, _ in topRight }
                case 4: predictRun(row, above, x, end) { _, _, _, topLeft in topLeft }
                case 5: predictRun(row, above, x, end) { left, top, topRight, _ in average(average(left, topRight), top) }
                case 6: predictRun(row, above, x, end) { left, _, _, topLeft in average(left, topLeft) }
                case 7: predictRun(row, above, x, end) { left, top, _, _ in average(left, top) }
                case 8: predictRun(row, above, x, end) { _, top, _, topLeft in average(topLeft, top) }
                case 9: predictRun(row, above, x, end) { _, top, topRight, _ in average(top, topRight) }
                case 10: predictRun(row, above, x, end) { left, top, topRight, topLeft in average(average(left, topLeft), average(top, topRight)) }
                case 11: predictRun(row, above, x, end) { left, top, _, topLeft in select(left: left, top: top, topLeft: topLeft) }
                case 12: predictRun(row, above, x, end) { left, top, _, topLeft in clampAddSubtractFull(left, top, topLeft) }
                case 13: predictRun(row, above, x, end) { left, top, _, topLeft in clampAddSubtractHalf(average(left, top), topLeft) }
                default: predictRun(row, above, x, end) { _, _, _, _ in black }
                }
                x = end
            }
        }
    }

    /// Adds `predict(left, top, topRight, topLeft)` to each pixel of `row` in `start..<end`.
    @inline(__always)
    private static func predictRun(_ row: UnsafeMutablePointer<UInt32>, _ above: UnsafePointer<UInt32>, _ start: Int, _ end: Int,
                                   _ predict: (UInt32, UInt32, UInt32, UInt32) -> UInt32) {
        var left = row[start - 1]
        for x in start..<end {
            left = add(row[x], predict(left, above[x], above[x + 1], above[x - 1]))
            row[x] = left
        }
    }

    @inline(__always)
    private static func colorDelta(_ t: UInt32, _ c: UInt32) -> Int32 {
        (Int32(Int8(truncatingIfNeeded: t)) * Int32(Int8(truncatingIfNeeded: c))) >> 5
    }

    private static func invertColor(_ data: UnsafeMutablePointer<UInt32>, width: Int, height: Int, bits: Int, elements: UnsafePointer<UInt32>) {
        let blocksPerRow = (width + (1 << bits) - 1) >> bits
        for y in 0..<height {
            let row = data + y * width, elementRow = elements + (y >> bits) * blocksPerRow
            for x in 0..<width {
                let element = elementRow[x >> bits]
                let greenToRed = element & 0xFF, greenToBlue = (element >> 8) & 0xFF, redToBlue = (element >> 16) & 0xFF
                let pixel = row[x]
                let green = (pixel >> 8) & 0xFF
                let red = UInt32(truncatingIfNeeded: Int32((pixel >> 16) & 0xFF) &+ colorDelta(greenToRed, green)) & 0xFF
                let blue = UInt32(truncatingIfNeeded: Int32(pixel & 0xFF) &+ colorDelta(greenToBlue, green) &+ colorDelta(redToBlue, red)) & 0xFF
                row[x] = (pixel & 0xFF00_FF00) | red << 16 | blue
            }
        }
    }

    /// Replaces indices by colours, widening bundled rows to `width` in
    /// place: bottom row first and right to left, a pixel is written only
    /// where no index still to be read lies.
    private static func expandIndices(_ data: UnsafeMutablePointer<UInt32>, width: Int, height: Int, bits: Int, palette: UnsafePointer<UInt32>) {
        if bits == 0 {
            for i in 0..<width * height { data[i] = palette[Int((data[i] >> 8) & 0xFF)] }
            return
        }
        let packedWidth = codedWidth(width, bundlingBits: bits)
        let indexBits = 8 >> bits, indexMask = UInt32(1 << indexBits) - 1, perPixel = (1 << bits) - 1
        for y in (0..<height).reversed() {
            let source = data + y * packedWidth, row = data + y * width
            for x in (0..<width).reversed() {
                let packed = source[x >> bits] >> 8
                row[x] = palette[Int((packed >> UInt32((x & perPixel) * indexBits)) & indexMask)]
            }
        }
    }
}
