/// A canonical, length-limited Huffman code for deflate: code lengths from
/// symbol frequencies, and the codes themselves bit-reversed for the
/// LSB-first stream (RFC 1951 §3.2.2).
struct HuffmanCode {
    /// Bit length per symbol (0: symbol unused).
    var lengths: [UInt8]
    /// Code per symbol, bit-reversed, ready for `BitWriter.write`.
    var codes: [UInt16]

    /// The optimal code for `frequencies`, lengths clamped to `maximumLength`
    /// (15 for literals and distances, 7 for code-length codes) by moving the
    /// deepest leaves up while the Kraft sum stays exact.
    init(frequencies: [UInt32], maximumLength: Int) {
        let n = frequencies.count
        var lengths = [UInt8](repeating: 0, count: n)
        let used = frequencies.indices.filter { frequencies[$0] > 0 }.sorted { frequencies[$0] < frequencies[$1] || (frequencies[$0] == frequencies[$1] && $0 < $1) }
        if used.count == 1 {
            lengths[used[0]] = 1
        } else if used.count > 1 {
            // Leaf depths of a Huffman tree, by the two-queue method over sorted weights.
            let leaves = used.count
            var weight = used.map { UInt64(frequencies[$0]) } + [UInt64](repeating: 0, count: leaves - 1)
            var parent = [Int](repeating: -1, count: 2 * leaves - 1)
            var leafNext = 0, nodeNext = leaves, nodeEnd = leaves
            func takeSmallest() -> Int {
                if leafNext < leaves && (nodeNext >= nodeEnd || weight[leafNext] <= weight[nodeNext]) {
                    leafNext += 1
                    return leafNext - 1
                }
                nodeNext += 1
                return nodeNext - 1
            }
            while nodeEnd < 2 * leaves - 1 {
                let a = takeSmallest(), b = takeSmallest()
                weight[nodeEnd] = weight[a] + weight[b]
                parent[a] = nodeEnd
                parent[b] = nodeEnd
                nodeEnd += 1
            }
            var depth = [Int](repeating: 0, count: 2 * leaves - 1)
            for node in stride(from: 2 * leaves - 3, through: 0, by: -1) {
                depth[node] = depth[parent[node]] + 1
            }
            // Count leaves per length, clamp, then repair the Kraft sum.
            var perLength = [Int](repeating: 0, count: max(maximumLength, depth.prefix(leaves).max() ?? 0) + 1)
            for leaf in 0..<leaves { perLength[min(depth[leaf], maximumLength)] += 1 }
            var kraft = 0
            for length in 1...maximumLength { kraft += perLength[length] << (maximumLength - length) }
            while kraft > 1 << maximumLength {
                perLength[maximumLength] -= 1
                for length in stride(from: maximumLength - 1, through: 1, by: -1) where perLength[length] > 0 {
                    perLength[length] -= 1
                    perLength[length + 1] += 2
                    break
                }
                kraft -= 1
            }
            // The least frequent symbols get the longest codes.
            var symbol = 0
            for length in stride(from: maximumLength, through: 1, by: -1) {
                for _ in 0..<perLength[length] {
                    lengths[used[symbol]] = UInt8(length)
                    symbol += 1
                }
            }
        }
        self.init(lengths: lengths)
    }

    /// The canonical codes for given lengths (RFC 1951 §3.2.2).
    init(lengths: [UInt8]) {
        self.lengths = lengths
        var perLength = [UInt16](repeating: 0, count: 16)
        for length in lengths where length > 0 { perLength[Int(length)] += 1 }
        var next = [UInt16](repeating: 0, count: 16)
        var code: UInt16 = 0
        for bits in 1..<16 {
            code = (code &+ perLength[bits - 1]) << 1
            next[bits] = code
        }
        codes = lengths.map { length in
            guard length > 0 else { return 0 }
            let value = next[Int(length)]
            next[Int(length)] &+= 1
            return Self.reverse(value, Int(length))
        }
    }

    /// The bits a symbol stream with `frequencies` costs in this code.
    func cost(of frequencies: [UInt32]) -> Int {
        zip(frequencies, lengths).reduce(0) { $0 + Int($1.0) * Int($1.1) }
    }

    static func reverse(_ code: UInt16, _ length: Int) -> UInt16 {
        var result: UInt16 = 0, value = code
        for _ in 0..<length {
            result = (result << 1) | (value & 1)
            value >>= 1
        }
        return result
    }
}
