import XCTest
@testable import ImageCodecs

final class DeflateEncoderTests: XCTestCase {
    /// Inputs that exercise every path: empty, tiny, long runs (258-byte matches),
    /// incompressible noise (stored blocks), text, and more than one block.
    private func inputs() -> [(String, [UInt8])] {
        var random = UInt64(0x1234_5678)
        func next() -> UInt8 {
            random ^= random << 13; random ^= random >> 7; random ^= random << 17
            return UInt8(truncatingIfNeeded: random)
        }
        let noise = (0..<70_000).map { _ in next() }
        let text = Array(String(repeating: "All you need is URL. map://?latitude=59.935634&longitude=30.325935 ", count: 900).utf8)
        let runs = [UInt8](repeating: 0, count: 100_000) + [UInt8](repeating: 7, count: 3) + [UInt8](repeating: 0, count: 1000)
        var mixed: [UInt8] = []
        for i in 0..<200_000 { mixed.append(i % 1000 < 500 ? UInt8(i % 7) : next() & 0x0F) }
        return [("empty", []), ("one", [42]), ("two", [1, 2]), ("text", text), ("runs", runs), ("noise", noise), ("mixed", mixed)]
    }

    func testEveryLevelProducesStreamsZlibDecodesExactly() throws {
        var streams: [[UInt8]] = [], expected: [(String, Int, [UInt8])] = []
        for (name, input) in inputs() {
            for level in 0...9 {
                streams.append(DeflateEncoder(level: level).zlibCompress(input))
                expected.append((name, level, input))
            }
        }
        let decoded = try IndependentDecoder.zlibDecompress(streams)
        for (i, (name, level, input)) in expected.enumerated() {
            XCTAssertEqual(decoded[i], input, "\(name) at level \(level) did not round-trip through zlib")
        }
    }

    func testCompressesWhatIsCompressibleAndBoundsWhatIsNot() {
        let all = Dictionary(uniqueKeysWithValues: inputs())
        let runs = DeflateEncoder().zlibCompress(all["runs"]!)
        XCTAssertLessThan(runs.count, 1_000)
        let noise = DeflateEncoder().zlibCompress(all["noise"]!)
        XCTAssertLessThanOrEqual(noise.count, all["noise"]!.count + all["noise"]!.count / 1000 + 16, "noise must fall back to stored blocks")
        let text = all["text"]!
        XCTAssertLessThan(DeflateEncoder(level: 9).zlibCompress(text).count, DeflateEncoder(level: 1).zlibCompress(text).count + 1)
    }

    func testChecksumsMatchKnownValues() {
        XCTAssertEqual(CRC32.checksum(Array("123456789".utf8)), 0xCBF4_3926)
        XCTAssertEqual(CRC32.checksum([UInt8]()), 0)
        let long = (0..<1000).map { UInt8($0 & 0xFF) }
        var incremental = CRC32()
        incremental.update(long[0..<333])
        incremental.update(long[333...])
        XCTAssertEqual(incremental.value, CRC32.checksum(long))
        XCTAssertEqual(Array("Wikipedia".utf8).withUnsafeBufferPointer { Adler32.checksum($0) }, 0x11E6_0398)
        let zeros = [UInt8](repeating: 255, count: 100_000)
        XCTAssertEqual(zeros.withUnsafeBufferPointer { Adler32.checksum($0) }, Self.slowAdler(zeros))
        // Vector chunks, the 5,552-byte runs and byte tails, fed whole and in uneven pieces.
        var state: UInt32 = 99
        let noise = (0..<40_013).map { _ -> UInt8 in state = state &* 1_103_515_245 &+ 12_345; return UInt8(truncatingIfNeeded: state >> 16) }
        XCTAssertEqual(noise.withUnsafeBufferPointer { Adler32.checksum($0) }, Self.slowAdler(noise))
        var pieces = Adler32()
        var offset = 0
        for size in [1, 15, 16, 17, 5_551, 5_552, 5_553, 100] + Array(repeating: 3_000, count: 8) where offset < noise.count {
            let end = min(noise.count, offset + size)
            noise[offset..<end].withUnsafeBufferPointer { pieces.update($0) }
            offset = end
        }
        noise[offset...].withUnsafeBufferPointer { pieces.update($0) }
        XCTAssertEqual(pieces.value, Self.slowAdler(noise))
    }

    private static func slowAdler(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
