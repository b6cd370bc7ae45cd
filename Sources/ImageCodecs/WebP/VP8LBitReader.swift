/// Reads a VP8L bitstream: bits least-significant first, through a 64-bit
/// window refilled eight bytes at a time.
///
/// Reading past the end yields zero bits rather than trapping, the way
/// libwebp's reader does; `isPastEnd` then turns true, and the decoder checks
/// it once per row and at the end, so a cut-short file is reported as
/// truncated without a bounds test on every read.
struct VP8LBitReader {
    private let bytes: UnsafeRawBufferPointer
    /// The next byte not yet in the window.
    private var position = 0
    /// Unconsumed bits, the next one in bit 0.
    private(set) var window: UInt64 = 0
    /// How many bits of `window` are valid.
    private var available = 0
    /// How many of the top `available` bits are the zeros added past the end.
    private var padding = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        refill()
    }

    /// True once a bit past the end of the data has been consumed.
    var isPastEnd: Bool { available < padding }

    /// Tops the window up to at least 57 bits.
    @inline(__always)
    mutating func refill() {
        guard available <= 56 else { return }
        if position &+ 8 <= bytes.count {
            // The bytes loaded beyond the ones counted land where the next
            // refill will OR the very same bytes again, so they do no harm.
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            window |= word &<< UInt64(truncatingIfNeeded: available)
            let taken = (63 &- available) &>> 3
            position &+= taken
            available &+= taken &<< 3
        } else {
            refillNearEnd()
        }
    }

    private mutating func refillNearEnd() {
        while available <= 56 {
            if position < bytes.count {
                window |= UInt64(bytes[position]) &<< UInt64(truncatingIfNeeded: available)
                position += 1
            } else {
                padding += 8
            }
            available += 8
        }
    }

    /// Drops `count` bits (at most the bits available after a refill).
    @inline(__always)
    mutating func consume(_ count: Int) {
        window &>>= UInt64(truncatingIfNeeded: count)
        available &-= count
    }

    /// The next `count` bits (0…32) as an integer, the first read in bit 0.
    @inline(__always)
    mutating func read(_ count: Int) -> Int {
        refill()
        let value = Int(truncatingIfNeeded: window & ((1 &<< UInt64(truncatingIfNeeded: count)) &- 1))
        consume(count)
        return value
    }

    /// One bit as a flag.
    @inline(__always)
    mutating func readFlag() -> Bool { read(1) == 1 }
}
