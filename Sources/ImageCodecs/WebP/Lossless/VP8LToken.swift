/// One coded element of a VP8L image's pixel stream (RFC 9649 §5.2): a
/// literal ARGB pixel, an index into the colour cache, or a copy of earlier
/// pixels.
struct VP8LToken {
    /// What the token codes.
    enum Kind: UInt8 {
        /// `value` is an ARGB pixel.
        case literal
        /// `value` is a colour cache index.
        case cacheIndex
        /// `value` pixels (1…4096) copied from `distanceCode`'s distance back.
        case copy
    }

    /// The token's kind.
    var kind: Kind
    /// The pixel, cache index or copy length.
    var value: UInt32
    /// A copy's distance as coded: 1…120 a neighbourhood code, above that
    /// the linear distance plus 120.
    var distanceCode: UInt32 = 0

    /// A literal pixel.
    static func literal(_ pixel: UInt32) -> VP8LToken { VP8LToken(kind: .literal, value: pixel) }

    /// The symbol, extra-bit count and extra bits of a length or distance code
    /// (`value` ≥ 1): VP8L's prefix coding of §5.2.2.
    @inline(__always)
    static func prefix(_ value: Int) -> (symbol: Int, extraBitCount: Int, extraBits: Int) {
        if value <= 4 { return (value - 1, 0, 0) }
        let d = value - 1
        let highest = Int.bitWidth - 1 - d.leadingZeroBitCount
        let second = (d >> (highest - 1)) & 1
        let extraBitCount = highest - 1
        return (2 * highest + second, extraBitCount, d & ((1 << extraBitCount) - 1))
    }
}
