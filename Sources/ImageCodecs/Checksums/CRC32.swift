/// CRC-32 (ISO 3309, the polynomial of PNG chunks, gzip and zip), computed
/// slicing-by-8: eight table lookups per 8 bytes instead of one per byte.
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
        Self.tables.withUnsafeBufferPointer { t in
            while i + 8 <= count {
                let low = crc ^ (UInt32(base[i]) | UInt32(base[i + 1]) << 8 | UInt32(base[i + 2]) << 16 | UInt32(base[i + 3]) << 24)
                let high = UInt32(base[i + 4]) | UInt32(base[i + 5]) << 8 | UInt32(base[i + 6]) << 16 | UInt32(base[i + 7]) << 24
                crc = t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
                i += 8
            }
            while i < count {
                crc = t[Int((crc ^ UInt32(base[i])) & 0xFF)] ^ (crc >> 8)
                i += 1
            }
        }
        value = ~crc
    }

    /// Eight 256-entry tables: table k advances a byte through k further zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            tables[n] = c
        }
        for k in 1..<8 {
            for n in 0..<256 {
                let previous = tables[(k - 1) * 256 + n]
                tables[k * 256 + n] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }()
}
