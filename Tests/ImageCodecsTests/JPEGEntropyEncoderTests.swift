import XCTest
@testable import ImageCodecs

/// The encoder's bit-level pieces: the word-at-a-time writer's byte stuffing
/// and padding, and the zigzag nonzero-coefficient mask the Huffman coder walks.
final class JPEGEntropyEncoderTests: XCTestCase {
    /// The bytes a bit-by-bit reference writer gives for the same writes.
    private func reference(_ writes: [(UInt64, Int)]) -> [UInt8] {
        var bits: [Bool] = []
        for (value, length) in writes {
            for i in stride(from: length - 1, through: 0, by: -1) { bits.append((value >> UInt64(i)) & 1 == 1) }
        }
        while bits.count % 8 != 0 { bits.append(true) }
        var bytes: [UInt8] = []
        for start in stride(from: 0, to: bits.count, by: 8) {
            let byte = bits[start..<(start + 8)].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0) }
        }
        return bytes
    }

    private func written(_ writes: [(UInt64, Int)]) -> [UInt8] {
        var writer = JPEGBitWriter(reserving: 1)   // forces growth too
        for (value, length) in writes { writer.write(value, length) }
        writer.flush()
        return [UInt8](writer.data)
    }

    func testStuffsAZeroAfterEveryFFAndPadsWithOnes() {
        // All ones: every byte is FF, in whole words and in the padded tail.
        let ones = [(UInt64)](repeating: 0x1FFF, count: 40).map { ($0, 13) }
        XCTAssertEqual(written(ones), reference(ones))
        XCTAssertEqual(written([(0b101, 3)]), [0b1011_1111])
    }

    func testRandomWritesMatchABitByBitWriter() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let writes: [(UInt64, Int)] = (0..<Int.random(in: 1...400, using: &generator)).map { _ in
                let length = Int.random(in: 1...32, using: &generator)
                // Bias towards ones so FF bytes (and stuffing) are common.
                let value = UInt64.random(in: 0...UInt64(UInt32.max), using: &generator)
                    | (Bool.random(using: &generator) ? UInt64(UInt32.max) : 0)
                return (value & ((1 << UInt64(length)) - 1), length)
            }
            XCTAssertEqual(written(writes), reference(writes))
        }
    }

    func testNonzeroMaskMarksExactlyTheNonzeroCoefficientsInZigzagOrder() {
        var block = [Int16](repeating: 0, count: 64)
        for trial in 0..<200 {
            for k in 0..<64 { block[k] = Int.random(in: 0..<4) == 0 ? Int16.random(in: -1024...1023) : 0 }
            if trial == 0 { block = [Int16](repeating: -32768, count: 64) }   // the one value equal to its negation
            // Block entries are transposed (u·8+v); zigzag entry k is natural index n = v·8+u.
            let expected = (0..<64).reduce(UInt64(0)) { mask, k in
                let natural = jpegZigzagToNatural[k]
                return mask | (block[(natural % 8) * 8 + natural / 8] != 0 ? 1 << UInt64(k) : 0)
            }
            let mask = block.withUnsafeBufferPointer {
                JPEGEntropyEncoder.nonzeroMask($0.baseAddress!, JPEGEntropyEncoder.Order.shared)
            }
            XCTAssertEqual(mask, expected)
        }
    }

    /// Baseline coding of random blocks against a symbol-by-symbol reference:
    /// values around every category edge and both ends of the joined-code
    /// table (−64...63; the rest take the general path), long zero runs
    /// (ZRLs), and blocks ending in a nonzero coefficient (no EOB).
    func testBaselineBlocksMatchASymbolBySymbolReference() {
        let dc = JPEGHuffmanEncoder(counts: JPEGStandardTables.dcLuminanceCounts, symbols: JPEGStandardTables.dcLuminanceSymbols)
        let ac = JPEGHuffmanEncoder(counts: JPEGStandardTables.acLuminanceCounts, symbols: JPEGStandardTables.acLuminanceSymbols)
        let edges: [Int16] = [-1023, -512, -65, -64, -63, -17, -16, -15, -8, -2, -1, 1, 2, 7, 8, 15, 16, 17, 31, 32, 63, 64, 1023]
        var generator = SystemRandomNumberGenerator()
        var blocks: [Int16] = []
        for trial in 0..<300 {
            var block = [Int16](repeating: 0, count: 64)
            let density = [2, 8, 30][trial % 3]
            for k in 0..<64 where Int.random(in: 0..<density, using: &generator) == 0 {
                block[k] = edges.randomElement(using: &generator)!
            }
            if trial % 5 == 0 { block[JPEGEntropyEncoder.Order.shared.transposedIndex[63]] = -64 }
            blocks += block
        }
        var writes: [(UInt64, Int)] = []
        func symbol(_ table: JPEGHuffmanEncoder, _ symbol: Int, _ value: Int32, _ size: Int) {
            writes.append((UInt64(table.codes[symbol]), Int(table.lengths[symbol])))
            if size > 0 { writes.append((UInt64(UInt32(bitPattern: value < 0 ? value - 1 : value)) & ((1 << UInt64(size)) - 1), size)) }
        }
        var predictor: Int32 = 0
        for start in stride(from: 0, to: blocks.count, by: 64) {
            let zigzag = (0..<64).map { Int32(blocks[start + JPEGEntropyEncoder.Order.shared.transposedIndex[$0]]) }
            let difference = zigzag[0] - predictor
            predictor = zigzag[0]
            let dcSize = difference == 0 ? 0 : 32 - abs(difference).leadingZeroBitCount
            symbol(dc, dcSize, difference, dcSize)
            var run = 0
            for k in 1..<64 {
                if zigzag[k] == 0 { run += 1; continue }
                while run >= 16 { symbol(ac, 0xF0, 0, 0); run -= 16 }
                let size = 32 - abs(zigzag[k]).leadingZeroBitCount
                symbol(ac, run << 4 | size, zigzag[k], size)
                run = 0
            }
            if run > 0 { symbol(ac, 0, 0, 0) }
        }
        var writer = JPEGBitWriter(reserving: 1)
        var coder = JPEGEntropyEncoder(dc: [dc], ac: [ac], restartInterval: 0)
        blocks.withUnsafeBufferPointer { coder.encode($0.baseAddress!, mcuCount: 300, layout: [0], into: &writer) }
        writer.flush()
        let coded = [UInt8](writer.data), expected = reference(writes)
        let firstDifference = zip(coded, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(coded.count, expected.count)
        XCTAssertEqual(coded.count, expected.count)
        XCTAssertEqual(firstDifference, min(coded.count, expected.count), "the coded bytes first differ at byte \(firstDifference)")
    }
}
