/// The header of a dynamic-Huffman block (RFC 1951 §3.2.7): the literal and
/// distance code lengths, run-length coded (symbols 16, 17, 18) and sent in a
/// code-length code of their own.
struct DynamicHeader {
    private let literalCount: Int
    private let distanceCount: Int
    /// Run-length symbols 0–18, each with its extra-bits value.
    private let symbols: [(symbol: Int, extra: Int)]
    private let codeLengthCode: HuffmanCode
    private let codeLengthCount: Int
    /// Bits the header takes.
    let cost: Int

    init(literal: HuffmanCode, distance: HuffmanCode) {
        var literalCount = 286
        while literalCount > 257 && literal.lengths[literalCount - 1] == 0 { literalCount -= 1 }
        var distanceCount = 30
        while distanceCount > 1 && distance.lengths[distanceCount - 1] == 0 { distanceCount -= 1 }
        let lengths = Array(literal.lengths.prefix(literalCount)) + Array(distance.lengths.prefix(distanceCount))

        var symbols: [(symbol: Int, extra: Int)] = []
        var i = 0
        while i < lengths.count {
            let value = lengths[i]
            var run = 1
            while i + run < lengths.count && lengths[i + run] == value { run += 1 }
            var left = run
            if value == 0 {
                while left >= 11 { let n = min(left, 138); symbols.append((18, n - 11)); left -= n }
                if left >= 3 { symbols.append((17, left - 3)); left = 0 }
            } else {
                symbols.append((Int(value), 0))
                left -= 1
                while left >= 3 { let n = min(left, 6); symbols.append((16, n - 3)); left -= n }
            }
            for _ in 0..<left { symbols.append((Int(value), 0)) }
            i += run
        }
        var frequencies = [UInt32](repeating: 0, count: 19)
        for s in symbols { frequencies[s.symbol] += 1 }
        let code = HuffmanCode(frequencies: frequencies, maximumLength: 7)
        var codeLengthCount = 19
        while codeLengthCount > 4 && code.lengths[DeflateTables.codeLengthOrder[codeLengthCount - 1]] == 0 { codeLengthCount -= 1 }

        self.literalCount = literalCount
        self.distanceCount = distanceCount
        self.symbols = symbols
        self.codeLengthCode = code
        self.codeLengthCount = codeLengthCount
        let extraBits = symbols.reduce(0) { $0 + ($1.symbol == 16 ? 2 : $1.symbol == 17 ? 3 : $1.symbol == 18 ? 7 : 0) }
        cost = 14 + 3 * codeLengthCount + code.cost(of: frequencies) + extraBits
    }

    func write(to writer: inout BitWriter) {
        writer.write(UInt32(literalCount - 257), 5)
        writer.write(UInt32(distanceCount - 1), 5)
        writer.write(UInt32(codeLengthCount - 4), 4)
        for i in 0..<codeLengthCount {
            writer.write(UInt32(codeLengthCode.lengths[DeflateTables.codeLengthOrder[i]]), 3)
        }
        for (symbol, extra) in symbols {
            writer.write(UInt32(codeLengthCode.codes[symbol]), Int(codeLengthCode.lengths[symbol]))
            switch symbol {
            case 16: writer.write(UInt32(extra), 2)
            case 17: writer.write(UInt32(extra), 3)
            case 18: writer.write(UInt32(extra), 7)
            default: break
            }
        }
    }
}
