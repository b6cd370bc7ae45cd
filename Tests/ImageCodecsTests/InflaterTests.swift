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

    /// Runs with every period 1–9 (the word-pattern copies below 8, word copies
    /// from 8) and lengths on both sides of each copy step, decoded with the
    /// output sized exactly (its last bytes through the careful path) and
    /// with room to spare (all through the fast loop).
    func testMatchesAtEveryShortDistanceAndLength() throws {
        var random = UInt64(7)
        func next() -> UInt8 {
            random ^= random << 13; random ^= random >> 7; random ^= random << 17
            return UInt8(truncatingIfNeeded: random)
        }
        var input: [UInt8] = []
        for period in 1...9 {
            for length in [3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 40, 100, 257, 258, 259, 600] {
                let unit = (0..<period).map { _ in next() }
                input += (0..<period + length).map { unit[$0 % period] }
                input += (0..<5).map { _ in next() }
            }
        }
        let streams = try IndependentDecoder.zlibCompress([input], levels: [1, 9]) + [DeflateEncoder(level: 6).zlibCompress(input)]
        for (i, stream) in streams.enumerated() {
            for expected in [input.count, 4 * input.count] {
                XCTAssertEqual(try Inflater.zlibDecompress(stream, expectedSize: expected, limit: 4 * input.count), input,
                               "stream \(i), output sized \(expected)")
            }
        }
    }

    /// Symbols whose codes are longer than a primary table's index bits
    /// resolve through a subtable: a complete code of lengths 1, 2, …, 15, 15.
    func testCodesLongerThanThePrimaryTableDecode() throws {
        let lengths: [UInt8] = Array(1...15) + [15]
        for kind in [InflateHuffman.Kind.codeLength, .distance] {
            let table = try InflateHuffman(lengths: lengths[...], kind: kind, name: "test")
            XCTAssertGreaterThan(table.entries.count, 1 << table.primaryBits, "\(kind) has subtables")
            table.entries.withUnsafeBufferPointer { entries in
                for symbol in 0..<16 {
                    // Canonical codes: symbol s < 15 is s ones then a zero; 15 is fifteen ones.
                    // Deflate sends a code's first bit first, so it sits lowest; above it, noise.
                    let length = min(symbol + 1, 15)
                    let code: UInt64 = (1 << UInt64(min(symbol, 15))) - 1
                    let bits = code | 0x5A5A_5A5A_5A5A << UInt64(length)
                    let mask = UInt64(1 << table.primaryBits) - 1
                    let entry = InflateHuffman.lookup(entries.baseAddress!, primaryMask: mask, bits)
                    XCTAssertEqual(entry & InflateHuffman.invalidFlag, 0, "\(kind) symbol \(symbol)")
                    XCTAssertEqual(Int(entry >> 8 & 0xF), length, "\(kind) symbol \(symbol) code length")
                    if kind == .codeLength {
                        XCTAssertEqual(Int(entry >> 16), symbol)
                    } else {
                        // Distance symbols 0–3 have no extra bits; the rest read theirs after the code.
                        let extra = Int(DeflateTables.distanceExtra[symbol])
                        let expected = Int(DeflateTables.distanceBase[symbol]) + Int(bits >> UInt64(length) & ((1 << UInt64(extra)) - 1))
                        XCTAssertEqual(InflateHuffman.value(entry, bits), expected, "distance symbol \(symbol)")
                    }
                }
            }
        }
        let skewed = Self.fibonacciText()
        let streams = try IndependentDecoder.zlibCompress([skewed], levels: [6]) + [DeflateEncoder(level: 6).zlibCompress(skewed)]
        for stream in streams {
            XCTAssertEqual(try Inflater.zlibDecompress(stream, expectedSize: skewed.count, limit: skewed.count), skewed)
        }
    }

    /// Bytes with Fibonacci frequencies, shuffled: their Huffman code needs
    /// 15-bit codes (the deepest deflate allows), so literals use subtables.
    private static func fibonacciText() -> [UInt8] {
        var text: [UInt8] = []
        var (a, b) = (1, 1)
        for symbol in 0..<22 {
            text += [UInt8](repeating: UInt8(symbol * 11), count: a)
            (a, b) = (b, a + b)
        }
        var random = UInt64(3)
        for i in stride(from: text.count - 1, to: 0, by: -1) {
            random ^= random << 13; random ^= random >> 7; random ^= random << 17
            text.swapAt(i, Int(random % UInt64(i + 1)))
        }
        return text
    }

    /// Fixed-code blocks that name a reserved symbol or reach before the
    /// output's start fail with the same error whether the decoder is in its
    /// fast loop (input and output to spare) or its careful path.
    func testReservedSymbolsAndDistancesBeforeTheStartAreErrors() {
        /// A final fixed-code block: each code (value, bits) written first bit first.
        func fixedBlock(_ codes: [(UInt32, Int)]) -> [UInt8] {
            var bytes: [UInt8] = [], buffer: UInt32 = 0, count = 0
            func put(_ value: UInt32, _ bits: Int) {
                buffer |= value << UInt32(count); count += bits
                while count >= 8 { bytes.append(UInt8(buffer & 0xFF)); buffer >>= 8; count -= 8 }
            }
            put(1, 1); put(1, 2)  // BFINAL, BTYPE 01
            for (code, bits) in codes {
                // Huffman codes go most significant bit first.
                put(UInt32(HuffmanCode.reverse(UInt16(code), bits)), bits)
            }
            if count > 0 { bytes.append(UInt8(buffer)) }
            return bytes
        }
        let literalA = (UInt32(0x30 + 97), 8), length3 = (UInt32(1), 7)  // symbols 97 and 257
        let cases: [(codes: [(UInt32, Int)], error: InflateError)] = [
            ([literalA, (0xC0 + 6, 8)], .corrupt("literal/length symbol 286 is reserved")),
            ([literalA, length3, (30, 5)], .corrupt("distance symbol 30 is reserved")),
            ([literalA, length3, (1, 5)], .corrupt("distance 2 reaches before the start of the output (1 bytes)")),
        ]
        for (codes, expected) in cases {
            let block = fixedBlock(codes)
            for (padding, size) in [(0, 0), (64, 4096)] {
                let input = block + [UInt8](repeating: 0, count: padding)
                XCTAssertThrowsError(try input.withUnsafeBufferPointer { try Inflater.inflate($0, expectedSize: size, limit: 4096) }) { error in
                    XCTAssertEqual(error.inflateError, expected, "padding \(padding)")
                }
            }
        }
    }
}
