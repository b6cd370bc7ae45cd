import Foundation
import XCTest
@testable import ImageCodecs

/// `zlibCompressInParts`: parts compressed concurrently with preset
/// dictionaries and sync flushes, one Adler-32 combined from the parts'.
final class DeflateEncoderPartsTests: XCTestCase {
    /// Image-like bytes: rows that repeat the row above with a little noise
    /// (matches across part boundaries, within the 32 KiB dictionary), with
    /// noisy stretches that come out as stored blocks.
    private func imageLike(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = seed
        func next() -> UInt8 {
            random ^= random << 13; random ^= random >> 7; random ^= random << 17
            return UInt8(truncatingIfNeeded: random)
        }
        var bytes = [UInt8](repeating: 0, count: count)
        let stride = 1_537
        for i in 0..<count {
            if i / 50_000 % 7 == 3 {
                bytes[i] = next()
            } else {
                bytes[i] = i >= stride ? bytes[i - stride] &+ (next() & 0x80 == 0 ? 0 : 1) : UInt8(truncatingIfNeeded: i * 7)
            }
        }
        return bytes
    }

    func testAdlerCombineMatchesTheChecksumOfTheWhole() {
        let data = imageLike(200_000, seed: 7)
        data.withUnsafeBufferPointer { all in
            // Splits at 0, inside the first modulus run, at the modulus and past it.
            for split in [0, 1, 5_552, 65_521, 65_522, 131_042, 199_999, 200_000] {
                let first = Adler32.checksum(UnsafeBufferPointer(rebasing: all[..<split]))
                let second = Adler32.checksum(UnsafeBufferPointer(rebasing: all[split...]))
                XCTAssertEqual(Adler32.combine(first, second, secondLength: all.count - split), Adler32.checksum(all), "split at \(split)")
            }
        }
        // Bytes of 255 push both sums to their largest residues.
        let high = [UInt8](repeating: 255, count: 100_000)
        high.withUnsafeBufferPointer { all in
            let first = Adler32.checksum(UnsafeBufferPointer(rebasing: all[..<40_000]))
            let second = Adler32.checksum(UnsafeBufferPointer(rebasing: all[40_000...]))
            XCTAssertEqual(Adler32.combine(first, second, secondLength: 60_000), Adler32.checksum(all))
        }
    }

    /// In parts, the stream differs from the whole-input one, holds a sync
    /// flush per part boundary, and inflates (ours and python3's zlib, which
    /// checks the Adler-32) to the input, at every matching level.
    func testPartedStreamsInflateToTheInputWithOursAndZlib() throws {
        let size = DeflateEncoder.minimumPartSize * 4 + 1_003  // four parts, not all the same size
        let input = imageLike(size, seed: 3)
        var streams: [[UInt8]] = []
        for level in [1, 4, 6, 9] {
            let encoder = DeflateEncoder(level: level)
            let parted = input.withUnsafeBufferPointer { encoder.zlibCompressInParts($0, parts: 4, checkCancellation: {}) }
            let whole = encoder.zlibCompress(input)
            XCTAssertNotEqual(parted, whole, "level \(level): the parted path was taken")
            XCTAssertEqual(try Inflater.zlibDecompress(parted, limit: input.count), input, "level \(level)")
            XCTAssertGreaterThanOrEqual(Self.syncFlushes(in: parted), 3, "level \(level): a sync flush ends each part but the last")
            // Preset dictionaries keep the cost of parts small on image-like data.
            XCTAssertLessThan(Double(parted.count), Double(whole.count) * 1.01, "level \(level): \(parted.count) vs \(whole.count) B")
            streams.append(parted)
        }
        let decoded = try IndependentDecoder.zlibDecompress(streams)
        for (i, output) in decoded.enumerated() { XCTAssertEqual(output, input, "stream \(i) through python3's zlib") }
    }

    /// Inputs too small for two parts, one part asked for, and level 0 are
    /// compressed whole, byte for byte as `zlibCompress` does.
    func testSmallInputsOnePartAndLevelZeroAreCompressedWhole() {
        let small = imageLike(DeflateEncoder.minimumPartSize * 2 - 1, seed: 5)
        XCTAssertEqual(small.withUnsafeBufferPointer { DeflateEncoder().zlibCompressInParts($0, parts: 8, checkCancellation: {}) },
                       DeflateEncoder().zlibCompress(small))
        let large = imageLike(DeflateEncoder.minimumPartSize * 2, seed: 5)
        XCTAssertEqual(large.withUnsafeBufferPointer { DeflateEncoder().zlibCompressInParts($0, parts: 1, checkCancellation: {}) },
                       DeflateEncoder().zlibCompress(large))
        XCTAssertEqual(large.withUnsafeBufferPointer { DeflateEncoder(level: 0).zlibCompressInParts($0, parts: 2, checkCancellation: {}) },
                       DeflateEncoder(level: 0).zlibCompress(large))
    }

    /// Cancellation before the parts start ends the work with the thrown error.
    func testPartedCompressionStopsWhenCancelled() {
        struct Stop: Error {}
        let input = imageLike(DeflateEncoder.minimumPartSize * 2, seed: 11)
        XCTAssertThrowsError(try input.withUnsafeBufferPointer { try DeflateEncoder().zlibCompressInParts($0, parts: 2, checkCancellation: { throw Stop() }) }) {
            XCTAssertTrue($0 is Stop)
        }
    }

    /// Occurrences of an empty stored block's LEN/NLEN (00 00 FF FF).
    private static func syncFlushes(in stream: [UInt8]) -> Int {
        guard stream.count >= 4 else { return 0 }
        return (0...(stream.count - 4)).filter { stream[$0] == 0 && stream[$0 + 1] == 0 && stream[$0 + 2] == 0xFF && stream[$0 + 3] == 0xFF }.count
    }
}
