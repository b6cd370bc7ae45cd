/// Adler-32 (RFC 1950), the checksum of zlib streams. The modulo is deferred
/// across 5,552-byte runs, the longest for which the sums cannot overflow 32 bits.
public struct Adler32: Sendable {
    private var a: UInt32 = 1
    private var b: UInt32 = 0

    public init() {}

    /// The checksum of everything fed so far.
    public var value: UInt32 { b << 16 | a }

    /// The checksum of `bytes` alone.
    public static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var adler = Adler32()
        adler.update(bytes)
        return adler.value
    }

    /// Feeds more bytes.
    public mutating func update(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress else { return }
        let modulus: UInt32 = 65_521
        var a = self.a, b = self.b
        var i = 0
        while i < buffer.count {
            let end = min(buffer.count, i + 5_552)
            while i + 4 <= end {
                a &+= UInt32(base[i]); b &+= a
                a &+= UInt32(base[i + 1]); b &+= a
                a &+= UInt32(base[i + 2]); b &+= a
                a &+= UInt32(base[i + 3]); b &+= a
                i += 4
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
