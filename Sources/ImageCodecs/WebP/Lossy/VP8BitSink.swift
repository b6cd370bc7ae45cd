/// Where the lossy encoder's boolean-coded bits go: the arithmetic coder
/// itself (`VP8BoolEncoder`), a bit-cost estimate (`VP8BitCost`) or token
/// statistics (`VP8TokenStatistics`). One writer of headers and tokens
/// (`VP8TokenWriter`) serves all three, so what is estimated is what is written.
protocol VP8BitSink {
    /// One bit that is zero with probability `probability / 256`.
    mutating func put(_ bit: Bool, _ probability: UInt8)
    /// A bit of a coefficient token, coded with the frame's probability at
    /// `index` (`[plane][band][context][node]`), whose value is `probability`.
    mutating func put(_ bit: Bool, _ probability: UInt8, tokenProbability index: Int)
}

extension VP8BitSink {
    mutating func put(_ bit: Bool, _ probability: UInt8, tokenProbability index: Int) {
        put(bit, probability)
    }

    /// An unsigned `count`-bit number, most significant bit first, each bit even.
    mutating func putLiteral(_ value: Int, _ count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) { put((value >> shift) & 1 == 1, 128) }
    }

    /// A `count`-bit magnitude then a sign bit, behind a presence flag
    /// (absent when `value` is 0), as `VP8BoolDecoder.readOptionalSigned` reads it.
    mutating func putOptionalSigned(_ value: Int, _ count: Int) {
        put(value != 0, 128)
        guard value != 0 else { return }
        putLiteral(abs(value), count)
        put(value < 0, 128)
    }
}
