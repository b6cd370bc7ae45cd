import XCTest
@testable import ImageCodecs

final class InflaterTests: XCTestCase {
    private func samples() -> [[UInt8]] {
        var random = UInt64(99)
        func next() -> UInt8 {
            random ^= random << 13; random ^= random >> 7; random ^= random << 17
            return UInt8(truncatingIfNeeded: random)
        }
        let text = Array(String(repeating: "the quick brown fox jumps over the lazy dog; ", count: 500).utf8)
        return [[], [0], text, [UInt8](repeating: 9, count: 70_000), (0..<80_000).map { _ in next() },
                (0..<150_000).map { i in i % 300 < 150 ? UInt8(i % 11) : next() & 3 }]
    }

    func testOurStreamsRoundTripAtEveryLevel() throws {
        for input in samples() {
            for level in 0...9 {
                let stream = DeflateEncoder(level: level).zlibCompress(input)
                XCTAssertEqual(try Inflater.zlibDecompress(stream, limit: input.count), input, "level \(level), \(input.count) bytes")
            }
        }
    }

    func testStreamsMadeByZlibDecode() throws {
        // zlib's own output, at levels 0 (stored), 1 and 9, made by python3.
        let inputs = samples()
        let streams = try IndependentDecoder.zlibCompress(inputs, levels: [0, 1, 9])
        for (i, stream) in streams.enumerated() {
            let input = inputs[i / 3]
            XCTAssertEqual(try Inflater.zlibDecompress(stream, limit: input.count), input, "sample \(i / 3) at level \([0, 1, 9][i % 3])")
        }
    }

    func testTruncatedStreamsAreErrorsAtEveryLength() {
        let stream = DeflateEncoder().zlibCompress(samples()[2])
        for cut in 0..<stream.count {
            XCTAssertThrowsError(try Inflater.zlibDecompress(Array(stream.prefix(cut)), limit: 1 << 20), "cut at \(cut)")
        }
    }

    func testCorruptionNeverCrashesOrOverflowsTheLimit() {
        let input = samples()[5]
        let stream = DeflateEncoder().zlibCompress(input)
        var random = UInt64(5)
        for _ in 0..<300 {
            var damaged = stream
            random ^= random << 13; random ^= random >> 7; random ^= random << 17
            damaged[2 + Int(random % UInt64(damaged.count - 2))] ^= UInt8(1 << (random >> 60 & 7))
            if let output = try? Inflater.zlibDecompress(damaged, limit: input.count) {
                XCTAssertEqual(output, input, "a damaged stream that decodes must have passed Adler-32 with the right bytes")
            }
        }
    }

    func testADecompressionBombStopsAtTheLimit() {
        let bomb = DeflateEncoder(level: 9).zlibCompress([UInt8](repeating: 0, count: 4 << 20))
        XCTAssertLessThan(bomb.count, 10_000)
        XCTAssertThrowsError(try Inflater.zlibDecompress(bomb, limit: 1 << 20)) { error in
            XCTAssertEqual(error.inflateError, .outputLimitExceeded(limit: 1 << 20))
        }
    }

    func testHeaderAndChecksumErrorsSayWhatIsWrong() {
        var stream = DeflateEncoder().zlibCompress(Array("hello".utf8))
        func message(_ bytes: [UInt8]) -> String {
            do { _ = try Inflater.zlibDecompress(bytes, limit: 100); return "decoded" } catch { return "\(error)" }
        }
        XCTAssertEqual(message([0x79, 0x9C] + stream.dropFirst(2)), "corrupt compressed data: zlib compression method 9, expected 8 (deflate)")
        XCTAssertEqual(message([0x78, 0x9D] + stream.dropFirst(2)), "corrupt compressed data: zlib header check bits are wrong")
        stream[stream.count - 1] ^= 0xFF
        XCTAssertTrue(message(stream).hasPrefix("corrupt compressed data: Adler-32 mismatch"), message(stream))
        XCTAssertEqual(message([0x78, 0x9C, 0x07]), "corrupt compressed data: block type 3 is reserved")
    }

    /// Output goes straight into the returned array while it fits the expected
    /// size and grows into storage of its own past it: both give the same bytes.
    func testOutputsSmallerExactAndLargerThanExpected() throws {
        var state: UInt32 = 5
        let data = (0..<200_000).map { i -> UInt8 in
            state = state &* 1_103_515_245 &+ 12_345
            return i % 3 == 0 ? UInt8(truncatingIfNeeded: state >> 16) : UInt8(i / 1000 & 0xFF)
        }
        let stream = DeflateEncoder(level: 6).zlibCompress(data)
        for expected in [0, 1, 64, 100_000, 199_999, 200_000, 300_000] {
            let output = try Inflater.zlibDecompress(stream, expectedSize: expected, limit: 1 << 20)
            XCTAssertEqual(output.count, data.count, "expected \(expected)")
            XCTAssertTrue(output == data, "expected \(expected)")
        }
        XCTAssertThrowsError(try Inflater.zlibDecompress(stream, expectedSize: 200_000, limit: 199_999))
    }
}
