/// Writes a block's tokens in its literal/length and distance codes.
///
/// Per block, each literal, each match length 3…258 and each distance symbol
/// gets one table entry holding its code, extra bits where they are fixed, and
/// the total bit count (`bits | count << 32`), so a literal is one lookup and a
/// match two, and one 64-bit flush follows each token. The tables live in raw
/// memory this object owns: the loop indexes them without bounds checks
/// (every index is < 259 by construction of the tokens).
final class HuffmanTokenWriter {
    /// The fixed code of RFC 1951 §3.2.6, for blocks where it is cheaper.
    let fixedLiteral = HuffmanCode(lengths: DeflateTables.fixedLiteralLengths)
    let fixedDistance = HuffmanCode(lengths: DeflateTables.fixedDistanceLengths)
    /// Literals 0–255 and end-of-block (256).
    private let literals: UnsafeMutablePointer<UInt64>
    /// Match lengths 0…258 (0–2 unused), extra bits included.
    private let lengths: UnsafeMutablePointer<UInt64>
    /// Distance symbols 0–29: code and count of the code alone.
    private let distances: UnsafeMutablePointer<UInt64>
    /// Distance symbols 0–29: base distance, and the count of extra bits.
    private let distanceBases: UnsafeMutablePointer<UInt32>
    private let distanceExtras: UnsafeMutablePointer<UInt32>
    private static let slots = 257 + 259 + 30

    init() {
        literals = .allocate(capacity: Self.slots)
        literals.initialize(repeating: 0, count: Self.slots)
        lengths = literals + 257
        distances = lengths + 259
        distanceBases = .allocate(capacity: 60)
        distanceExtras = distanceBases + 30
        for symbol in 0..<30 {
            distanceBases[symbol] = UInt32(DeflateTables.distanceBase[symbol])
            distanceExtras[symbol] = UInt32(DeflateTables.distanceExtra[symbol])
        }
    }

    deinit {
        literals.deallocate()
        distanceBases.deallocate()
    }

    /// Writes every token of `tokens` and the end-of-block code. The caller has
    /// reserved room for the block in `writer`.
    func writeTokens(_ tokens: borrowing TokenBuffer, literal: HuffmanCode, distance: HuffmanCode, to writer: inout BitWriter) {
        prepare(literal: literal, distance: distance)
        let items = tokens.items
        let literals = literals, lengths = lengths, distances = distances, distanceBases = distanceBases, distanceExtras = distanceExtras
        for i in 0..<tokens.count {
            let token = items[i]
            if token < 256 {
                let entry = literals[Int(token)]
                writer.add(entry & 0xFFFF_FFFF, Int(truncatingIfNeeded: entry &>> 32))
            } else {
                let length = lengths[Int(token &>> 16)]
                writer.add(length & 0xFFFF_FFFF, Int(truncatingIfNeeded: length &>> 32))
                let distanceValue = Int(token & 0xFFFF) &+ 1
                let symbol = TokenBuffer.distanceSymbol(distanceValue)
                let code = distances[symbol]
                let codeLength = code &>> 32
                let extra = UInt64(UInt32(truncatingIfNeeded: distanceValue) &- distanceBases[symbol])
                writer.add(code & 0xFFFF_FFFF | extra &<< codeLength, Int(truncatingIfNeeded: codeLength) &+ Int(distanceExtras[symbol]))
            }
            writer.flush()
        }
        let endOfBlock = literals[256]
        writer.add(endOfBlock & 0xFFFF_FFFF, Int(truncatingIfNeeded: endOfBlock &>> 32))
        writer.flush()
    }

    /// Fills the tables for one block's codes.
    private func prepare(literal: HuffmanCode, distance: HuffmanCode) {
        for symbol in 0...256 {
            literals[symbol] = UInt64(literal.codes[symbol]) | UInt64(literal.lengths[symbol]) << 32
        }
        let lengthSymbol = DeflateTables.lengthSymbol, lengthBase = DeflateTables.lengthBase, lengthExtra = DeflateTables.lengthExtra
        for length in 3...LZ77Matcher.maximumMatch {
            let symbol = Int(lengthSymbol[length])
            let codeLength = UInt64(literal.lengths[257 + symbol])
            let extra = UInt64(length - Int(lengthBase[symbol]))
            lengths[length] = (UInt64(literal.codes[257 + symbol]) | extra << codeLength) | (codeLength + UInt64(lengthExtra[symbol])) << 32
        }
        for symbol in 0..<30 {
            distances[symbol] = UInt64(distance.codes[symbol]) | UInt64(distance.lengths[symbol]) << 32
        }
    }
}
