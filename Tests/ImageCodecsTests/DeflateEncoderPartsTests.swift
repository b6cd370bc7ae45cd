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
        let input = imageLike(DeflateEncoder.minimumPartSize * 4 + 1_003, seed: 3)  // four parts, not all the same size
        XCTAssertEqual(DeflateEncoder.partBounds(count: input.count).count, 5)
        var streams: [[UInt8]] = []
        for level in [1, 4, 6, 9] {
            let encoder = DeflateEncoder(level: level)
            let parted = input.withUnsafeBufferPointer { encoder.zlibCompressInParts($0, checkCancellation: {}) }
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

    /// The split depends on the input alone: run in order on one thread or
    /// concurrently, in rounds of one part, three or all of them, the stream is
    /// byte for byte the same, and parts made on the spot by `withPart` (each
    /// copied with its dictionary into memory of its own, as `PNGEncoder`
    /// filters them) give the stream of the whole input.
    func testPartedStreamsAreTheSameHoweverThePartsAreRun() throws {
        let input = imageLike(DeflateEncoder.minimumPartSize * 5 + 77, seed: 8)
        let bounds = DeflateEncoder.partBounds(count: input.count)
        XCTAssertEqual(bounds.count, 6, "five parts")
        let reference = input.withUnsafeBufferPointer { DeflateEncoder().zlibCompressInParts($0, checkCancellation: {}) }
        XCTAssertEqual(try Inflater.zlibDecompress(reference, limit: input.count), input)
        for concurrently in [false, true] {
            for partsPerRound in [1, 3, 16] {
                let stream = DeflateEncoder().zlibCompress(parts: bounds, partsPerRound: partsPerRound, concurrently: concurrently,
                                                           withPart: { part, body in
                    let first = max(0, bounds[part] - 32_768)
                    var copy = [UInt8](input[first..<bounds[part + 1]])
                    copy.append(0xA5)  // a byte past the part that must not be read
                    copy.withUnsafeBufferPointer { body($0.baseAddress!) }
                }, checkCancellation: {})
                XCTAssertEqual(stream, reference, "concurrently \(concurrently), \(partsPerRound) parts per round")
            }
        }
    }

    /// Inputs too small for two parts and level 0 are compressed whole, byte
    /// for byte as `zlibCompress` does.
    func testSmallInputsAndLevelZeroAreCompressedWhole() {
        let small = imageLike(DeflateEncoder.minimumPartSize * 2 - 1, seed: 5)
        XCTAssertEqual(DeflateEncoder.partBounds(count: small.count), [0, small.count])
        XCTAssertEqual(small.withUnsafeBufferPointer { DeflateEncoder().zlibCompressInParts($0, checkCancellation: {}) },
                       DeflateEncoder().zlibCompress(small))
        // Eight parts for mid-sized inputs; 4 MiB ones for huge ones (a 16k×16k RGBA image), a round being two or more of them.
        XCTAssertEqual(DeflateEncoder.partBounds(count: 3_000_000), (0...8).map { $0 * 375_000 })
        let huge = DeflateEncoder.partBounds(count: 1 << 30)
        XCTAssertEqual(huge.count, 257)
        XCTAssertEqual(huge[1], DeflateEncoder.maximumPartSize)
        XCTAssertGreaterThanOrEqual(DeflateEncoder.partsPerRound(partSize: huge[1]), 2)
        let large = imageLike(DeflateEncoder.minimumPartSize * 2, seed: 5)
        XCTAssertEqual(large.withUnsafeBufferPointer { DeflateEncoder(level: 0).zlibCompressInParts($0, checkCancellation: {}) },
                       DeflateEncoder(level: 0).zlibCompress(large))
    }

    /// Cancellation is checked on the caller's thread before each round and
    /// at the end; what it throws ends the work before the next round's parts start.
    func testPartedCompressionStopsBetweenRoundsWhenCancelled() throws {
        struct Stop: Error {}
        let input = imageLike(DeflateEncoder.minimumPartSize * 4, seed: 11)
        let bounds = DeflateEncoder.partBounds(count: input.count)
        let started = StartedParts()
        let caller = pthread_self()
        var calls = 0, otherThread = false
        let compress = { (stopAt: Int) in
            calls = 0
            return try DeflateEncoder().zlibCompress(parts: bounds, partsPerRound: 2, withPart: { part, body in
                started.add(part)
                input.withUnsafeBufferPointer { body($0.baseAddress! + bounds[part] - min(bounds[part], 32_768)) }
            }, checkCancellation: {
                calls += 1
                if pthread_equal(pthread_self(), caller) == 0 { otherThread = true }
                if calls == stopAt { throw Stop() }
            })
        }
        XCTAssertEqual(try Inflater.zlibDecompress(try compress(0), limit: input.count), input)
        XCTAssertEqual(calls, 3, "two rounds of two parts: before each, and at the end")
        XCTAssertFalse(otherThread, "called on the caller's thread only")
        started.reset()
        XCTAssertThrowsError(try compress(2)) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(started.parts, [0, 1], "the second round never started")
    }

    /// Occurrences of an empty stored block's LEN/NLEN (00 00 FF FF).
    private static func syncFlushes(in stream: [UInt8]) -> Int {
        guard stream.count >= 4 else { return 0 }
        return (0...(stream.count - 4)).filter { stream[$0] == 0 && stream[$0 + 1] == 0 && stream[$0 + 2] == 0xFF && stream[$0 + 3] == 0xFF }.count
    }
}

/// The parts a `withPart` closure was called for, from any thread.
private final class StartedParts: @unchecked Sendable {  // Safe: `lock` guards `list`.
    private let lock = NSLock()
    private var list: [Int] = []

    func add(_ part: Int) { lock.withLock { list.append(part) } }
    func reset() { lock.withLock { list = [] } }
    var parts: [Int] { lock.withLock { list.sorted() } }
}
