import XCTest
@testable import ImageCodecs

/// CRC-32's sliced tables against the bit-at-a-time definition, across the
/// 16-byte blocks and the byte tail, whole and in pieces.
final class CRC32Tests: XCTestCase {
    private static func bitwise(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    func testEveryLengthAndSplitMatchesTheBitwiseDefinition() {
        var state: UInt64 = 17
        let data = (0..<4_099).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for length in Array(0...70) + [255, 256, 4_099] {
            let bytes = Array(data.prefix(length))
            XCTAssertEqual(CRC32.checksum(bytes), Self.bitwise(bytes), "\(length) bytes")
        }
        for split in [1, 7, 15, 16, 17, 1_000] {
            var pieces = CRC32()
            pieces.update(data[..<split])
            pieces.update(data[split...])
            XCTAssertEqual(pieces.value, Self.bitwise(data), "split at \(split)")
        }
    }
}
