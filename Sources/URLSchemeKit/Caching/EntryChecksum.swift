import Foundation

/// The checksum of a cache entry file's parts, fed in pieces of any size:
/// a spooled body as its chunks arrive gives the same value as its bytes in
/// one piece, so a body is hashed once, while it is still in the processor's
/// cache, and never read back for it.
///
/// Eight 64-bit lanes over 64-byte blocks, each word mixed in as XXH3 does
/// (the product of its halves, each xored with a lane constant, plus the
/// word), which the compiler turns into vector multiplies: a 100 MB body
/// costs a few milliseconds. The lanes and the length are mixed at the end.
/// Not cryptographic (the files are the user's own, 0600), but a truncation
/// or a flipped byte changes it with overwhelming probability. Words are read
/// in the machine's order, little-endian on every platform the package runs on.
struct EntryChecksum {
    private static let block = 64
    private static let keys = SIMD8<UInt64>(0xBE4B_A423_396C_FEB8, 0x1CAD_21F7_2C81_017C, 0xDB97_9083_E96D_D4DE, 0x1F67_B3B7_A4A4_4072,
                                            0x78E5_C0CC_4EE6_79CB, 0x2172_FFCC_7DD0_5A82, 0x8E24_43F7_7443_22A6, 0xC8D2_A6B9_B4A8_5A4B)

    private var lanes = SIMD8<UInt64>(repeating: 0)
    /// The bytes of an unfinished block, waiting for the rest of it.
    private var carry: [UInt8] = []
    /// Bytes fed so far.
    private(set) var count = 0

    init() {}

    /// The checksum of `data` alone.
    init(_ data: Data) {
        add(data)
    }

    /// The checksum of `bytes` alone.
    init(_ bytes: UnsafeRawBufferPointer) {
        add(bytes)
    }

    mutating func add(_ data: Data) {
        data.withUnsafeBytes { add($0) }
    }

    mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add($0) }
    }

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        count += bytes.count
        var offset = 0
        if !carry.isEmpty {
            offset = min(Self.block - carry.count, bytes.count)
            carry.append(contentsOf: UnsafeRawBufferPointer(start: base, count: offset))
            guard carry.count == Self.block else { return }
            carry.withUnsafeBytes { addBlocks($0.baseAddress!, count: 1) }
            carry.removeAll(keepingCapacity: true)
        }
        let blocks = (bytes.count - offset) / Self.block
        addBlocks(base + offset, count: blocks)
        offset += blocks * Self.block
        if offset < bytes.count { carry.append(contentsOf: UnsafeRawBufferPointer(start: base + offset, count: bytes.count - offset)) }
    }

    private mutating func addBlocks(_ start: UnsafeRawPointer, count blocks: Int) {
        var lanes = self.lanes
        let low = SIMD8<UInt64>(repeating: 0xFFFF_FFFF)
        for i in 0..<blocks {
            let words = (start + i * Self.block).loadUnaligned(as: SIMD8<UInt64>.self)
            let keyed = words ^ Self.keys
            lanes &+= (keyed & low) &* (keyed &>> 32) &+ words
        }
        self.lanes = lanes
    }

    /// The checksum of everything fed.
    func finish() -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
            let h = (hash ^ word) &* prime
            return h ^ (h >> 29)
        }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for i in lanes.indices { hash = mix(hash << 23 | hash >> 41, lanes[i]) }
        for byte in carry { hash = (hash ^ UInt64(byte)) &* prime }
        hash = mix(hash, UInt64(count))
        return hash ^ (hash >> 32)
    }
}
