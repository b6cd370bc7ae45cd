/// CRC-32 (ISO 3309, the polynomial of PNG chunks, gzip and zip), computed
/// slicing-by-16: sixteen independent table lookups per 16 bytes (two word
/// loads), so the chain from one CRC value to the next is one lookup and an
/// XOR tree per 16 bytes rather than per 8 or per byte.
public struct CRC32: Sendable {
    /// The checksum of everything fed so far.
    public private(set) var value: UInt32 = 0

    /// A checksum of no bytes yet (0).
    public init() {}

    /// The checksum of `bytes` alone.
    public static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// Feeds more bytes.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if let done = bytes.withContiguousStorageIfAvailable({ update($0) }) { return done }
        update(Array(bytes))
    }

    /// Feeds more bytes from memory.
    public mutating func update(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress else { return }
        var crc = ~value
        var i = 0
        let count = buffer.count
        Self.tables.withUnsafeBufferPointer { tables in
            let t = tables.baseAddress!
            @inline(__always) func lookup(_ table: Int, _ word: UInt64, _ byte: UInt64) -> UInt32 {
                t[table &* 256 &+ Int(truncatingIfNeeded: (word &>> (byte &* 8)) & 0xFF)]
            }
            while i + 16 <= count {
                let low = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) ^ UInt64(crc)
                let high = UInt64(littleEndian: UnsafeRawPointer(base + i + 8).loadUnaligned(as: UInt64.self))
                // Byte k of the 16 still has 15 − k bytes to pass through: table 15 − k.
                crc = lookup(15, low, 0) ^ lookup(14, low, 1) ^ lookup(13, low, 2) ^ lookup(12, low, 3)
                    ^ lookup(11, low, 4) ^ lookup(10, low, 5) ^ lookup(9, low, 6) ^ lookup(8, low, 7)
                    ^ lookup(7, high, 0) ^ lookup(6, high, 1) ^ lookup(5, high, 2) ^ lookup(4, high, 3)
                    ^ lookup(3, high, 4) ^ lookup(2, high, 5) ^ lookup(1, high, 6) ^ lookup(0, high, 7)
                i += 16
            }
            while i < count {
                crc = t[Int((crc ^ UInt32(base[i])) & 0xFF)] ^ (crc >> 8)
                i += 1
            }
        }
        value = ~crc
    }

    /// Sixteen 256-entry tables: table k advances a byte through k further zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 16 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            tables[n] = c
        }
        for k in 1..<16 {
            for n in 0..<256 {
                let previous = tables[(k - 1) * 256 + n]
                tables[k * 256 + n] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }()
}
