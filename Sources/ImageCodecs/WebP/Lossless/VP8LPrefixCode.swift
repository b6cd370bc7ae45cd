/// One prefix code of a VP8L image (a canonical Huffman code over one
/// alphabet: green with lengths and cache indices, red, blue, alpha or
/// distance), made from the symbols' counts, and how it is stored in the
/// bit stream (RFC 9649 §3.7.2.1).
///
/// Codes of one or two symbols below 256 are stored in the "simple" form of
/// a few bits; the others as code lengths, themselves run-length coded with
/// VP8L's repeat codes 16–18 and a code-length code. A code of one symbol
/// costs no bits per symbol: decoders (libwebp's and ours) read nothing for it.
struct VP8LPrefixCode {
    /// The bits written for each symbol (0 for every symbol of a one-symbol code).
    private(set) var lengths: [UInt8]
    /// Each symbol's code, bit-reversed for the LSB-first stream.
    private(set) var codes: [UInt16]
    /// The lengths as stored in the header: a lone symbol is stored with length 1.
    private let stored: [UInt8]
    /// The symbols used, in increasing order (at most 2 are kept: only
    /// the simple form needs them).
    private let firstUsed: [Int]
    private let usedCount: Int

    /// The order code-length code lengths are stored in (as deflate's, for VP8L).
    private static let codeLengthOrder = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]

    /// The optimal code (lengths at most 15) for symbols counted in `histogram`.
    init(histogram: [UInt32]) {
        let code = HuffmanCode(frequencies: histogram, maximumLength: 15)
        stored = code.lengths
        var used: [Int] = [], count = 0
        for (symbol, frequency) in histogram.enumerated() where frequency > 0 {
            if used.count < 2 { used.append(symbol) }
            count += 1
        }
        firstUsed = used
        usedCount = count
        if count <= 1 {
            lengths = [UInt8](repeating: 0, count: histogram.count)
            codes = [UInt16](repeating: 0, count: histogram.count)
        } else {
            lengths = code.lengths
            codes = code.codes
        }
    }

    /// Stores the code in the header of an entropy-coded image.
    func write(into writer: inout BitWriter) {
        if usedCount == 0 {
            // Nothing uses the alphabet: a simple code of symbol 0 (1 symbol, 1-bit symbol 0).
            writer.write(0b0001, 4)
            return
        }
        if usedCount <= 2, firstUsed.allSatisfy({ $0 < 256 }) {
            writer.write(1, 1)
            writer.write(UInt32(usedCount - 1), 1)
            if firstUsed[0] < 2 {
                writer.write(0, 1)
                writer.write(UInt32(firstUsed[0]), 1)
            } else {
                writer.write(1, 1)
                writer.write(UInt32(firstUsed[0]), 8)
            }
            // Two symbols of length 1: the smaller is code 0, as `HuffmanCode` numbers them.
            if usedCount == 2 { writer.write(UInt32(firstUsed[1]), 8) }
            return
        }
        writer.write(0, 1)
        let runs = Self.runLengthSymbols(stored)
        var histogram = [UInt32](repeating: 0, count: 19)
        for run in runs { histogram[Int(run.symbol)] += 1 }
        let lengthCode = HuffmanCode(frequencies: histogram, maximumLength: 7)
        var storedCount = Self.codeLengthOrder.count
        while storedCount > 4 && lengthCode.lengths[Self.codeLengthOrder[storedCount - 1]] == 0 { storedCount -= 1 }
        writer.write(UInt32(storedCount - 4), 4)
        for index in 0..<storedCount { writer.write(UInt32(lengthCode.lengths[Self.codeLengthOrder[index]]), 3) }
        writer.write(0, 1)  // every symbol's length follows: no max_symbol
        let lengthCodeSymbols = histogram.lazy.filter { $0 > 0 }.count
        for run in runs {
            if lengthCodeSymbols > 1 {
                writer.write(UInt32(lengthCode.codes[Int(run.symbol)]), Int(lengthCode.lengths[Int(run.symbol)]))
            }
            switch run.symbol {
            case 16: writer.write(UInt32(run.extra), 2)
            case 17: writer.write(UInt32(run.extra), 3)
            case 18: writer.write(UInt32(run.extra), 7)
            default: break
            }
        }
    }

    /// Code lengths as VP8L's code-length symbols: 0–15 a length, 16 the
    /// last non-zero length (8 before any) again 3–6 times, 17 and 18
    /// zeros 3–10 and 11–138 times; `extra` is the repeat count's field.
    static func runLengthSymbols(_ lengths: [UInt8]) -> [(symbol: UInt8, extra: UInt8)] {
        var symbols: [(symbol: UInt8, extra: UInt8)] = []
        var index = 0, previous: UInt8 = 8
        while index < lengths.count {
            let length = lengths[index]
            var run = 1
            while index + run < lengths.count && lengths[index + run] == length { run += 1 }
            index += run
            if length == 0 {
                while run >= 11 {
                    let taken = min(run, 138)
                    symbols.append((18, UInt8(taken - 11)))
                    run -= taken
                }
                if run >= 3 {
                    symbols.append((17, UInt8(run - 3)))
                    run = 0
                }
            } else {
                if length != previous {
                    symbols.append((length, 0))
                    previous = length
                    run -= 1
                }
                while run >= 3 {
                    let taken = min(run, 6)
                    symbols.append((16, UInt8(taken - 3)))
                    run -= taken
                }
            }
            for _ in 0..<run { symbols.append((length, 0)) }
        }
        return symbols
    }
}
