/// Codes what the first partition and the token partition hold, into any
/// `VP8BitSink`: each tree of RFC 6386 walked the way `VP8ModeReader` and
/// `VP8CoefficientReader` read it back.
enum VP8TokenWriter {
    // MARK: Macroblock headers (section 11)

    /// A 16×16 luma mode, after the "not 4×4" bit.
    static func putLumaMode<S: VP8BitSink>(_ mode: UInt8, into sink: inout S) {
        sink.put(true, 145)
        let trueMotionOrHorizontal = mode == VP8IntraMode.trueMotion || mode == VP8IntraMode.horizontal
        sink.put(trueMotionOrHorizontal, 156)
        if trueMotionOrHorizontal {
            sink.put(mode == VP8IntraMode.trueMotion, 128)
        } else {
            sink.put(mode == VP8IntraMode.vertical, 163)
        }
    }

    /// A 4×4 block's mode, with the probabilities its above and left
    /// neighbours' modes select.
    static func putSubblockMode<S: VP8BitSink>(_ mode: UInt8, above: UInt8, left: UInt8, into sink: inout S) {
        let p = (Int(above) * 10 + Int(left)) * 9
        let table = VP8Tables.subblockModeProbabilities
        sink.put(mode != VP8IntraMode.dc, table[p])
        guard mode != VP8IntraMode.dc else { return }
        sink.put(mode != VP8IntraMode.trueMotion, table[p + 1])
        guard mode != VP8IntraMode.trueMotion else { return }
        sink.put(mode != VP8IntraMode.vertical, table[p + 2])
        guard mode != VP8IntraMode.vertical else { return }
        let horizontalGroup = mode == VP8IntraMode.horizontal || mode == VP8IntraMode.downRight
            || mode == VP8IntraMode.verticalRight
        sink.put(!horizontalGroup, table[p + 3])
        if horizontalGroup {
            sink.put(mode != VP8IntraMode.horizontal, table[p + 4])
            if mode != VP8IntraMode.horizontal { sink.put(mode == VP8IntraMode.verticalRight, table[p + 5]) }
        } else {
            sink.put(mode != VP8IntraMode.downLeft, table[p + 6])
            guard mode != VP8IntraMode.downLeft else { return }
            sink.put(mode != VP8IntraMode.verticalLeft, table[p + 7])
            guard mode != VP8IntraMode.verticalLeft else { return }
            sink.put(mode == VP8IntraMode.horizontalUp, table[p + 8])
        }
    }

    /// The 8×8 chroma mode.
    static func putChromaMode<S: VP8BitSink>(_ mode: UInt8, into sink: inout S) {
        sink.put(mode != VP8IntraMode.dc, 142)
        guard mode != VP8IntraMode.dc else { return }
        sink.put(mode != VP8IntraMode.vertical, 114)
        guard mode != VP8IntraMode.vertical else { return }
        sink.put(mode == VP8IntraMode.trueMotion, 183)
    }

    // MARK: Coefficient tokens (section 13)

    /// Codes one block's `levels` (zigzag order) from position `first` with
    /// the probabilities of `plane` (`VP8CoefficientReader.Plane`) and the
    /// neighbours' `context` (0...2). Returns whether a level was non-zero.
    @discardableResult
    @inline(__always)
    static func putBlock<S: VP8BitSink>(_ levels: UnsafePointer<Int16>, first: Int, plane: Int, context: Int,
                                        probabilities: UnsafePointer<UInt8>, into sink: inout S) -> Bool {
        var last = -1
        for n in stride(from: 15, through: first, by: -1) where levels[n] != 0 { last = n; break }
        let base = plane * (8 * 3 * 11)
        var n = first
        var p = base + VP8CoefficientReader.band(n) * 33 + context * 11
        @inline(__always) func put(_ bit: Bool, _ index: Int) {
            sink.put(bit, probabilities[index], tokenProbability: index)
        }
        put(last >= 0, p)
        guard last >= 0 else { return false }
        while true {
            let level = Int(levels[n])
            let v = abs(level)
            n += 1
            if v == 0 {
                put(false, p + 1)
                p = base + VP8CoefficientReader.band(n) * 33
                continue
            }
            put(true, p + 1)
            put(v > 1, p + 2)
            if v > 1 {
                putLargeValue(v, p, probabilities: probabilities, into: &sink)
                p = base + VP8CoefficientReader.band(n) * 33 + 22
            } else {
                p = base + VP8CoefficientReader.band(n) * 33 + 11
            }
            sink.put(level < 0, 128)
            if n == 16 { return true }
            put(n <= last, p)
            if n > last { return true }
        }
    }

    /// The tokens of a value of 2 or more after its "more than one" bit:
    /// DCT_2...DCT_4, or a category and its extra bits (`p`: the node-0 index).
    @inline(__always)
    private static func putLargeValue<S: VP8BitSink>(_ v: Int, _ p: Int, probabilities: UnsafePointer<UInt8>,
                                                     into sink: inout S) {
        @inline(__always) func put(_ bit: Bool, _ index: Int) {
            sink.put(bit, probabilities[index], tokenProbability: index)
        }
        if v <= 4 {
            put(false, p + 3)
            put(v != 2, p + 4)
            if v != 2 { put(v == 4, p + 5) }
            return
        }
        put(true, p + 3)
        if v <= 10 {
            put(false, p + 6)
            if v <= 6 {
                put(false, p + 7)
                sink.put(v == 6, 159)
            } else {
                put(true, p + 7)
                sink.put(v >= 9, 165)
                sink.put((v - 7) & 1 == 1, 145)
            }
            return
        }
        put(true, p + 6)
        // Categories 3...6 start at 11, 19, 35 and 67.
        let category = v < 19 ? 0 : v < 35 ? 1 : v < 67 ? 2 : 3
        let high = category >> 1
        put(high == 1, p + 8)
        put(category & 1 == 1, p + 9 + high)
        let extra = v - (3 + (8 << category))
        let extraProbabilities = VP8CoefficientReader.categoryProbabilities[category]
        for (i, probability) in extraProbabilities.enumerated() {
            sink.put((extra >> (extraProbabilities.count - 1 - i)) & 1 == 1, probability)
        }
    }
}
