import Foundation
import XCTest
@testable import ImageCodecs

/// Damaged and hostile `VP8 ` chunks: every one decodes or throws a
/// `VP8Error` naming the fault, without trapping, hanging or allocating
/// more than its declared size allows.
final class VP8HostileInputTests: XCTestCase {
    private func chunk(_ name: String) throws -> [UInt8] {
        let file = [UInt8](try Data(contentsOf: VP8TestSupport.fixtures.appendingPathComponent(name)))
        return try XCTUnwrap(VP8TestSupport.vp8Chunk(file))
    }

    private func decodeError(_ chunk: [UInt8], limit: Int = 1 << 26) -> VP8Error? {
        do {
            _ = try VP8TestSupport.decode(chunk, maximumPixelCount: limit)
            return nil
        } catch {
            guard let error = error as? VP8Error else {
                XCTFail("not a VP8Error: \(error)")
                return nil
            }
            return error
        }
    }

    /// A key-frame header (frame tag, start code, size) with `body` after it.
    private func keyFrame(width: Int, height: Int, firstPartition: Int, body: [UInt8] = []) -> [UInt8] {
        let tag = firstPartition << 5 | 1 << 4  // key frame, profile 0, shown
        return [UInt8(tag & 0xFF), UInt8(tag >> 8 & 0xFF), UInt8(tag >> 16 & 0xFF), 0x9D, 0x01, 0x2A,
                UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8)] + body
    }

    /// Every cut of a stream fails as truncated (the frame header, the first
    /// partition, or a token partition running out), except cuts of final
    /// bytes the decoder never needs, which give the same picture.
    func testEveryTruncationIsRefusedAsTruncated() throws {
        let full = try chunk("vp80-00-comprehensive-007.webp")  // 2 partitions, segments, simple filter
        let expected = VP8TestSupport.pgm(try VP8TestSupport.decode(full))
        var refused = 0
        for length in 0..<full.count {
            do {
                let picture = try VP8TestSupport.decode(Array(full.prefix(length)))
                XCTAssertEqual(VP8TestSupport.pgm(picture), expected, "cut at \(length) of \(full.count)")
            } catch let error as VP8Error {
                XCTAssertEqual(error.kind, .truncated, "cut at \(length) of \(full.count): \(error)")
                refused += 1
            }
        }
        XCTAssertGreaterThan(refused, full.count - 4)
    }

    /// Partition sizes that point past the chunk are cut to it, as libwebp
    /// does; the last partition is then empty, which is refused.
    func testPartitionSizesPastTheEndAreRefused() throws {
        var data = try chunk("vp80-04-partitions-1405.webp")  // 4 token partitions
        let firstPartitionSize = (Int(data[0]) | Int(data[1]) << 8 | Int(data[2]) << 16) >> 5
        let sizes = 10 + firstPartitionSize
        for i in 0..<3 { data[sizes + i] = 0xFF }
        XCTAssertEqual(decodeError(data), .truncated("token partition 3 (no bytes left for it)"))
        // The size table itself cut short.
        XCTAssertEqual(decodeError(Array(data.prefix(sizes + 4))), .truncated("the sizes of 4 token partitions"))
    }

    /// The pixel limit is checked from the ten-byte header, before the
    /// partitions are read or any plane allocated.
    func testOversizedFrameIsRefusedBeforeAllocating() {
        let header = keyFrame(width: 16383, height: 16383, firstPartition: 0)
        XCTAssertEqual(decodeError(header, limit: 1 << 24), .tooManyPixels(width: 16383, height: 16383, limit: 1 << 24))
        XCTAssertEqual(VP8Error.tooManyPixels(width: 1, height: 2, limit: 1).kind, .tooLarge)
    }

    /// A token partition shorter than its macroblocks need: libwebp reads one
    /// zero byte past the end, then refuses the frame; so do we.
    func testTokenPartitionThatRunsOutIsTruncated() throws {
        var data = try chunk("vp80-00-comprehensive-016.webp")
        data.removeLast(data.count - (10 + ((Int(data[0]) | Int(data[1]) << 8 | Int(data[2]) << 16) >> 5)) - 4)
        XCTAssertEqual(decodeError(data)?.kind, .truncated)
    }

    func testBoolDecoderReadsZerosPastTheEnd() {
        let bytes: [UInt8] = [0xFF]
        bytes.withUnsafeBytes { raw in
            var decoder = VP8BoolDecoder(raw)
            XCTAssertFalse(decoder.isPastEnd)
            _ = decoder.readLiteral(8)
            XCTAssertTrue(decoder.isPastEnd)  // the window needed a byte past the end
            for _ in 0..<1000 { _ = decoder.readBit(1) }  // no trap, no hang
        }
        // Nothing but zeros: every bit decodes as 0.
        [UInt8]().withUnsafeBytes { raw in
            var decoder = VP8BoolDecoder(raw)
            XCTAssertEqual(decoder.readLiteral(7), 0)
            XCTAssertTrue(decoder.isPastEnd)
        }
    }

    func testFrameHeaderFaults() {
        XCTAssertEqual(decodeError([0x01, 0x00, 0x00] + [UInt8](repeating: 0, count: 20)), .unsupported("an inter frame"))
        var hidden = keyFrame(width: 16, height: 16, firstPartition: 1, body: [0, 0])
        hidden[0] &= ~0x10
        XCTAssertEqual(decodeError(hidden), .unsupported("a frame that is not shown"))
        var profile = keyFrame(width: 16, height: 16, firstPartition: 1, body: [0, 0])
        profile[0] |= 0x0E
        XCTAssertEqual(decodeError(profile), .unsupported("VP8 profile 7"))
        var code = keyFrame(width: 16, height: 16, firstPartition: 1, body: [0, 0])
        code[4] = 0x02
        XCTAssertEqual(decodeError(code), .corrupt("the key frame's start code is not 9D 01 2A"))
        XCTAssertEqual(decodeError(keyFrame(width: 0, height: 16, firstPartition: 1, body: [0, 0])),
                       .corrupt("the picture is 0×16"))
        XCTAssertEqual(decodeError(keyFrame(width: 16, height: 16, firstPartition: 100, body: [0, 0])),
                       .truncated("the first partition (100 bytes, 2 left)"))
        XCTAssertEqual(VP8Error.corrupt("x").kind, .corrupt)
        XCTAssertEqual(VP8Error.unsupported("x").kind, .unsupported)
    }

    /// Random byte changes in real streams: each decodes or throws a VP8Error.
    func testMutatedStreamsNeverTrap() throws {
        var generator = SplitMix64(seed: 0x5EED)
        for name in ["vp80-00-comprehensive-007.webp", "vp80-00-comprehensive-016.webp", "cwebp-strong-filter-sharpness7-63x47.webp"] {
            let original = try chunk(name)
            for _ in 0..<150 {
                var data = original
                for _ in 0..<(1 + Int(generator.next() % 4)) {
                    let index = Int(generator.next() % UInt64(data.count))
                    data[index] = UInt8(truncatingIfNeeded: generator.next())
                }
                _ = decodeError(data)
            }
        }
    }
}

/// A small deterministic generator (SplitMix64) so failures reproduce.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
