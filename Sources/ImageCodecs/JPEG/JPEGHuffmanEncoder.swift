/// A Huffman code for encoding: per-symbol code and length, built from a DHT
/// description (counts per length + symbols), which it can also write out.
struct JPEGHuffmanEncoder {
    /// Code-length counts for lengths 1...16, as DHT stores them.
    var counts: [Int]
    /// Symbols in code order, as DHT stores them.
    var symbols: [UInt8]
    /// Indexed by symbol: the code, right-aligned.
    var codes = [UInt32](repeating: 0, count: 256)
    /// Indexed by symbol: the code length (0 when the symbol has no code).
    var lengths = [UInt8](repeating: 0, count: 256)

    init(counts: [Int], symbols: [UInt8]) {
        self.counts = counts
        self.symbols = symbols
        var code: UInt32 = 0
        var k = 0
        for length in 1...16 {
            for _ in 0..<counts[length - 1] {
                codes[Int(symbols[k])] = code
                lengths[Int(symbols[k])] = UInt8(length)
                code += 1
                k += 1
            }
            code <<= 1
        }
    }

    /// The optimal length-limited code for the symbol frequencies (257 entries:
    /// the 256 symbols and a reserved one, so no real code is all ones), following
    /// ITU T.81 Annex K.2.
    static func optimal(frequencies input: [Int]) -> JPEGHuffmanEncoder {
        var freq = input
        freq[256] = 1
        var codeSize = [Int](repeating: 0, count: 257)
        var others = [Int](repeating: -1, count: 257)
        while true {
            // Find the two least frequent (non-zero) entries, c1 the smaller, ties to the larger index.
            var c1 = -1, c2 = -1
            var v = Int.max
            for i in 0...256 where freq[i] > 0 && freq[i] <= v { v = freq[i]; c1 = i }
            v = Int.max
            for i in 0...256 where freq[i] > 0 && freq[i] <= v && i != c1 { v = freq[i]; c2 = i }
            if c2 < 0 { break }
            freq[c1] += freq[c2]
            freq[c2] = 0
            codeSize[c1] += 1
            var node = c1
            while others[node] >= 0 { node = others[node]; codeSize[node] += 1 }
            others[node] = c2
            codeSize[c2] += 1
            node = c2
            while others[node] >= 0 { node = others[node]; codeSize[node] += 1 }
        }
        var bits = [Int](repeating: 0, count: 33)
        for i in 0...256 where codeSize[i] > 0 { bits[min(codeSize[i], 32)] += 1 }
        // Limit code lengths to 16 (K.2 Figure K.3).
        var i = 32
        while i > 16 {
            while bits[i] > 0 {
                var j = i - 2
                while bits[j] == 0 { j -= 1 }
                bits[i] -= 2
                bits[i - 1] += 1
                bits[j + 1] += 2
                bits[j] -= 1
            }
            i -= 1
        }
        // Remove the reserved symbol's code (the longest).
        i = 16
        while bits[i] == 0 { i -= 1 }
        bits[i] -= 1
        var symbols: [UInt8] = []
        for length in 1...32 {
            for s in 0..<256 where codeSize[s] == length { symbols.append(UInt8(s)) }
        }
        return JPEGHuffmanEncoder(counts: Array(bits[1...16]), symbols: symbols)
    }
}
