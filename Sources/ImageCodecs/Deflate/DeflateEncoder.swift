/// Deflate compression (RFC 1951), raw or with zlib framing (RFC 1950).
///
/// LZ77 over a 32 KiB window with hash chains (3-byte hashes), lazy matching
/// at the higher levels, and per block the cheapest of a dynamic Huffman
/// code, the fixed code, or a stored copy.
public struct DeflateEncoder: Sendable {
    /// How hard to look for matches: 0 stores, 1 is fastest, 9 is smallest.
    public let level: Int

    /// Level 6, zlib's default balance.
    public static let defaultLevel = 6

    /// Match-search effort per level 0–9.
    private static let efforts: [LZ77Matcher.Effort] = [
        .init(chain: 0, nice: 0, lazy: 0),                        // 0: stored blocks
        .init(chain: 4, nice: 8, lazy: 0, insertLimit: 4),        // 1–3: greedy
        .init(chain: 8, nice: 16, lazy: 0, insertLimit: 5),
        .init(chain: 16, nice: 32, lazy: 0, insertLimit: 6),
        .init(chain: 4, nice: 258, lazy: 32, insertLimit: 64),    // 4: lazy with short chains (PNGEncoder's default)
        .init(chain: 32, nice: 64, lazy: 16, insertLimit: 32),
        .init(chain: 128, nice: 128, lazy: 16),                   // 6–9: lazy, every match position indexed
        .init(chain: 256, nice: 128, lazy: 32), .init(chain: 1024, nice: 258, lazy: 128), .init(chain: 4096, nice: 258, lazy: 258),
    ]

    /// An encoder at compression `level`, clamped to 0…9 (0 stores, 9 searches hardest).
    public init(level: Int = DeflateEncoder.defaultLevel) {
        self.level = min(max(level, 0), 9)
    }

    /// A zlib stream (header, deflate data, Adler-32) of `input`.
    public func zlibCompress(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        zlibCompress(input, checkCancellation: {})
    }

    /// A zlib stream of `input`; `checkCancellation` is called before each
    /// deflate block (64 Ki symbols or so), and whatever it throws ends the work.
    public func zlibCompress(_ input: UnsafeBufferPointer<UInt8>, checkCancellation: () throws -> Void) rethrows -> [UInt8] {
        var output: [UInt8] = [0x78, level >= 7 ? 0xDA : level >= 2 ? 0x9C : 0x01]
        output.append(contentsOf: try compress(input, checkCancellation: checkCancellation))
        let adler = Adler32.checksum(input)
        output.append(contentsOf: [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)])
        return output
    }

    /// A zlib stream of `input`.
    public func zlibCompress(_ input: [UInt8]) -> [UInt8] {
        input.withUnsafeBufferPointer { zlibCompress($0) }
    }

    /// Raw deflate data of `input`.
    public func compress(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        compress(input, checkCancellation: {})
    }

    /// Raw deflate data of `input`; `checkCancellation` is called before each block.
    public func compress(_ input: UnsafeBufferPointer<UInt8>, checkCancellation: () throws -> Void) rethrows -> [UInt8] {
        var writer = BitWriter(capacity: input.count / 2 + 64)
        guard let base = input.baseAddress, input.count > 0 else {
            writer.write(1, 1)  // one final, empty, fixed-code block
            writer.write(1, 2)
            writer.write(0, 7)  // end of block in the fixed code
            writer.alignToByte()
            return writer.bytes
        }
        if level == 0 {
            writeStored(input, final: true, to: &writer)
            return writer.bytes
        }
        var matcher = LZ77Matcher(input: base, count: input.count, effort: Self.efforts[level])
        var blockStart = 0
        var tokens = TokenBuffer()
        while true {
            try checkCancellation()
            let consumed = matcher.fill(&tokens, limit: 1 << 16)
            let final = matcher.isFinished
            writeBlock(tokens, raw: UnsafeBufferPointer(rebasing: input[blockStart..<(blockStart + consumed)]), final: final, to: &writer)
            blockStart += consumed
            tokens.removeAll()
            if final { break }
        }
        writer.alignToByte()
        return writer.bytes
    }

    // MARK: Blocks

    private func writeBlock(_ tokens: TokenBuffer, raw: UnsafeBufferPointer<UInt8>, final: Bool, to writer: inout BitWriter) {
        var literalFrequencies = [UInt32](repeating: 0, count: 286)
        var distanceFrequencies = [UInt32](repeating: 0, count: 30)
        var extraBits = 0
        // The tables as locals: a global read in the loop costs a lazy-initialisation check per token.
        let lengthSymbol = DeflateTables.lengthSymbol, lengthExtra = DeflateTables.lengthExtra
        let distanceSmall = DeflateTables.distanceSymbolSmall, distanceLarge = DeflateTables.distanceSymbolLarge
        let distanceExtra = DeflateTables.distanceExtra
        for token in tokens.items {
            if token < 256 {
                literalFrequencies[Int(token)] += 1
            } else {
                let length = Int(token >> 16), distance = Int(token & 0xFFFF) + 1
                let l = Int(lengthSymbol[length])
                let d = distance <= 256 ? Int(distanceSmall[distance - 1]) : Int(distanceLarge[(distance - 1) >> 7])
                literalFrequencies[257 + l] += 1
                distanceFrequencies[d] += 1
                extraBits += Int(lengthExtra[l]) + Int(distanceExtra[d])
            }
        }
        literalFrequencies[256] = 1
        let literal = HuffmanCode(frequencies: literalFrequencies, maximumLength: 15)
        var distance = HuffmanCode(frequencies: distanceFrequencies, maximumLength: 15)
        if distance.lengths.allSatisfy({ $0 == 0 }) { distance = HuffmanCode(lengths: [1] + [UInt8](repeating: 0, count: 29)) }
        let header = DynamicHeader(literal: literal, distance: distance)

        let dynamicCost = 3 + header.cost + literal.cost(of: literalFrequencies) + distance.cost(of: distanceFrequencies) + extraBits
        let fixedLiteral = HuffmanCode(lengths: DeflateTables.fixedLiteralLengths)
        let fixedDistance = HuffmanCode(lengths: DeflateTables.fixedDistanceLengths)
        let fixedCost = 3 + fixedLiteral.cost(of: literalFrequencies + [0, 0]) + fixedDistance.cost(of: distanceFrequencies) + extraBits
        let storedCost = (raw.count / 65_535 + 1) * 40 + raw.count * 8 + 8

        if storedCost < min(dynamicCost, fixedCost) {
            writeStored(raw, final: final, to: &writer)
        } else if fixedCost <= dynamicCost {
            writer.write(final ? 1 : 0, 1)
            writer.write(1, 2)
            writeTokens(tokens, literal: fixedLiteral, distance: fixedDistance, to: &writer)
        } else {
            writer.write(final ? 1 : 0, 1)
            writer.write(2, 2)
            header.write(to: &writer)
            writeTokens(tokens, literal: literal, distance: distance, to: &writer)
        }
    }

    private func writeTokens(_ tokens: TokenBuffer, literal: HuffmanCode, distance: HuffmanCode, to writer: inout BitWriter) {
        literal.codes.withUnsafeBufferPointer { lc in
        literal.lengths.withUnsafeBufferPointer { ll in
        distance.codes.withUnsafeBufferPointer { dc in
        distance.lengths.withUnsafeBufferPointer { dl in
            // The tables as locals: a global read in the loop costs a lazy-initialisation check per token.
            let lengthSymbol = DeflateTables.lengthSymbol, lengthExtra = DeflateTables.lengthExtra, lengthBase = DeflateTables.lengthBase
            let distanceSmall = DeflateTables.distanceSymbolSmall, distanceLarge = DeflateTables.distanceSymbolLarge
            let distanceExtra = DeflateTables.distanceExtra, distanceBase = DeflateTables.distanceBase
            for token in tokens.items {
                if token < 256 {
                    writer.write(UInt32(lc[Int(token)]), Int(ll[Int(token)]))
                } else {
                    let length = Int(token >> 16), dist = Int(token & 0xFFFF) + 1
                    let l = Int(lengthSymbol[length])
                    writer.write(UInt32(lc[257 + l]), Int(ll[257 + l]))
                    let lengthBits = Int(lengthExtra[l])
                    if lengthBits > 0 { writer.write(UInt32(length - Int(lengthBase[l])), lengthBits) }
                    let d = dist <= 256 ? Int(distanceSmall[dist - 1]) : Int(distanceLarge[(dist - 1) >> 7])
                    writer.write(UInt32(dc[d]), Int(dl[d]))
                    let distanceBits = Int(distanceExtra[d])
                    if distanceBits > 0 { writer.write(UInt32(dist - Int(distanceBase[d])), distanceBits) }
                }
            }
            writer.write(UInt32(lc[256]), Int(ll[256]))
        }}}}
    }

    private func writeStored(_ raw: UnsafeBufferPointer<UInt8>, final: Bool, to writer: inout BitWriter) {
        var offset = 0
        repeat {
            let length = min(65_535, raw.count - offset)
            let last = final && offset + length == raw.count
            writer.write(last ? 1 : 0, 1)
            writer.write(0, 2)
            writer.alignToByte()
            writer.write(UInt32(length), 16)
            writer.write(UInt32(~UInt16(length)), 16)
            writer.alignToByte()
            writer.append(contentsOf: UnsafeBufferPointer(rebasing: raw[offset..<offset + length]))
            offset += length
        } while offset < raw.count
    }
}

/// LZ77 output: a literal byte (< 256), or a match packed as
/// `length << 16 | (distance - 1)`.
struct TokenBuffer {
    var items: [UInt32] = []

    mutating func removeAll() { items.removeAll(keepingCapacity: true) }
}
