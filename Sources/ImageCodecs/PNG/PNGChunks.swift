/// Walks a PNG file's chunks, checking every length against the bytes left
/// and every CRC, before anything looks at a chunk's contents.
struct PNGChunks {
    struct Chunk {
        let type: String
        let data: UnsafeBufferPointer<UInt8>
        /// Ancillary chunks (first letter lower-case) may be skipped when unknown.
        var isCritical: Bool { type.utf8.first.map { $0 & 0x20 == 0 } ?? true }
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 8

    init(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard bytes.count >= 8, Array(bytes.prefix(8)) == Self.signature else { throw PNGError.notPNG }
        self.bytes = bytes
    }

    /// The next chunk, or nil at the end of the bytes.
    mutating func next() throws -> Chunk? {
        guard offset < bytes.count else { return nil }
        guard bytes.count - offset >= 12 else { throw PNGError.truncated("a chunk header at byte \(offset) is cut off") }
        let length = Int(Self.bigEndian32(bytes, offset))
        let typeBytes = bytes[(offset + 4)..<(offset + 8)]
        guard typeBytes.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }) else {
            throw PNGError.invalid("chunk type at byte \(offset + 4) is not four letters")
        }
        let type = String(decoding: typeBytes, as: UTF8.self)
        guard length <= Int(Int32.max), length <= bytes.count - offset - 12 else {
            throw PNGError.truncated("chunk \(type) claims \(length) bytes, but only \(max(0, bytes.count - offset - 12)) remain")
        }
        var crc = CRC32()
        crc.update(UnsafeBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 8 + length)]))
        guard crc.value == Self.bigEndian32(bytes, offset + 8 + length) else { throw PNGError.crcMismatch(chunk: type) }
        let data = UnsafeBufferPointer(rebasing: bytes[(offset + 8)..<(offset + 8 + length)])
        offset += 12 + length
        return Chunk(type: type, data: data)
    }

    static func bigEndian32(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }
}
