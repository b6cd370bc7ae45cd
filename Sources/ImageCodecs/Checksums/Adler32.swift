/// Adler-32 (RFC 1950), the checksum of zlib streams. The modulo is deferred
/// across 5,552-byte runs (zlib's NMAX), each summed 16 bytes at a time in
/// vector lanes and combined in 64 bits.
struct Adler32: Sendable {
    private var a: UInt32 = 1
    private var b: UInt32 = 0

    /// A checksum of no bytes yet (1).
    init() {}

    /// The checksum of everything fed so far.
    var value: UInt32 { b << 16 | a }

    /// The checksum of `bytes` alone.
    static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var adler = Adler32()
        adler.update(bytes)
        return adler.value
    }

    /// The checksum of two byte runs one after the other, from the checksum
    /// of each and the second's length. With a = 1 + Σ bytes and b = Σ of a
    /// after each byte: a of the whole is a₁ + (a₂ − 1); and b of the whole is
    /// b₁ + b₂ + n₂·(a₁ − 1), since each of the second run's n₂ sums of a
    /// starts from a₁ instead of 1.
    static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
        let modulus: UInt64 = 65_521
        let a1 = UInt64(first & 0xFFFF), b1 = UInt64(first >> 16)
        let a2 = UInt64(second & 0xFFFF), b2 = UInt64(second >> 16)
        let n2 = UInt64(secondLength) % modulus
        let a = (a1 + a2 + modulus - 1) % modulus
        let b = (b1 + b2 + n2 * ((a1 + modulus - 1) % modulus)) % modulus
        return UInt32(b << 16 | a)
    }

    /// Feeds more bytes.
    mutating func update(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress else { return }
        let modulus: UInt32 = 65_521
        var a = self.a, b = self.b
        var i = 0
        // Weights 16…1 of the bytes of a 16-byte chunk in the four byte groups
        // of its little-endian words: bytes 0,4,8,12, then 1,5,9,13, and so on.
        let weights = (SIMD4<UInt32>(16, 12, 8, 4), SIMD4<UInt32>(15, 11, 7, 3), SIMD4<UInt32>(14, 10, 6, 2), SIMD4<UInt32>(13, 9, 5, 1))
        while i < buffer.count {
            let end = min(buffer.count, i + 5_552)
            // Whole 16-byte chunks: per chunk, b grows by 16 × a (a before the
            // chunk) plus Σ (16 − k)·x_k, and a by Σ x_k. Lanes keep the sums of
            // a and of a-before-each-chunk, and the weighted sums.
            var sums = SIMD4<UInt32>(), earlier = SIMD4<UInt32>(), weighted = SIMD4<UInt32>()
            let start = i
            while i + 16 <= end {
                let w = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD4<UInt32>.self)
                let g0 = w & 0xFF, g1 = (w &>> 8) & 0xFF, g2 = (w &>> 16) & 0xFF, g3 = w &>> 24
                earlier &+= sums
                sums &+= g0 &+ g1 &+ g2 &+ g3
                weighted &+= g0 &* weights.0 &+ g1 &* weights.1 &+ g2 &* weights.2 &+ g3 &* weights.3
                i += 16
            }
            if i > start {
                func total(_ v: SIMD4<UInt32>) -> UInt64 { UInt64(v[0]) + UInt64(v[1]) + UInt64(v[2]) + UInt64(v[3]) }
                let modulus64 = UInt64(modulus)
                let newB = UInt64(b) + UInt64(i - start) * UInt64(a) + 16 * total(earlier) + total(weighted)
                a = UInt32((UInt64(a) + total(sums)) % modulus64)
                b = UInt32(newB % modulus64)
            }
            while i < end {
                a &+= UInt32(base[i]); b &+= a
                i += 1
            }
            a %= modulus
            b %= modulus
        }
        self.a = a
        self.b = b
    }
}
