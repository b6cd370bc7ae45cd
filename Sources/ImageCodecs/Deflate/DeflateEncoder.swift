import Dispatch
import Foundation

/// Deflate compression (RFC 1951), raw or with zlib framing (RFC 1950).
///
/// LZ77 over a 32 KiB window (`LZ77Matcher`: hash chains of 4-byte prefixes
/// plus a table of recent 3-byte ones), lazy matching at the higher levels, and
/// per block the cheapest of a dynamic Huffman code, the fixed code, or a stored copy.
public struct DeflateEncoder: Sendable {
    /// How hard to look for matches: 0 stores, 1 is fastest, 9 searches hardest.
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
        .init(chain: 32, nice: 64, lazy: 16, good: 8, insertLimit: 32),
        // 6: look ahead only from 3-byte matches. On RGBA photos a 4-byte match
        // (a pixel) is worth taking at once: looking ahead from matches up to 16
        // bytes, as zlib does, costs 10 % more time for 0.7 % larger output
        // (measured on the benchmark photo; text comes out 0.3 % smaller that way).
        .init(chain: 128, nice: 128, lazy: 4),
        // 7–9: the same look-ahead on longer chains. zlib's deeper look-ahead
        // (32 to 258 bytes) made them 0.7 % larger than level 6 on the
        // benchmark photo; this way they match it, the benchmark map comes out
        // 11 % smaller at level 7 (the same at 8 and 9), and text 0.4 % larger.
        .init(chain: 256, nice: 258, lazy: 4), .init(chain: 1024, nice: 258, lazy: 4),
        .init(chain: 4096, nice: 258, lazy: 4),
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
        var writer = BitWriter(capacity: Self.bound(input.count) + 6)
        writer.write(0x78, 8)
        writer.write(level >= 7 ? 0xDA : level >= 2 ? 0x9C : 0x01, 8)
        try deflate(input, into: &writer, checkCancellation: checkCancellation)
        let adler = Adler32.checksum(input)
        for shift in [24, 16, 8, 0] { writer.write((adler >> UInt32(shift)) & 0xFF, 8) }
        return writer.bytes
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
        var writer = BitWriter(capacity: Self.bound(input.count))
        try deflate(input, into: &writer, checkCancellation: checkCancellation)
        return writer.bytes
    }

    /// The capacity to start with: about what stored blocks (5 bytes per
    /// 65,535) take when nothing compresses, since no block is larger than its
    /// stored copy. Pages never written cost nothing; blocks reserve what they
    /// need before writing, so this is a hint, not a limit.
    private static func bound(_ count: Int) -> Int {
        count + 5 * (count / 65_535 + 2) + 64
    }

    /// Tokens per block: enough that a block's header (~100 bytes) is noise,
    /// few enough that its codes follow the data.
    private static let blockTokens = 1 << 16

    private func deflate(_ input: UnsafeBufferPointer<UInt8>, into writer: inout BitWriter, checkCancellation: () throws -> Void) rethrows {
        guard let base = input.baseAddress, input.count > 0 else {
            writer.write(1, 1)  // one final, empty, fixed-code block
            writer.write(1, 2)
            writer.write(0, 7)  // end of block in the fixed code
            writer.alignToByte()
            return
        }
        try deflateBlocks(base, count: input.count, dictionary: 0, last: true, into: &writer, checkCancellation: checkCancellation)
    }

    /// Blocks for `input[dictionary..<count]`, the bytes before `dictionary`
    /// serving as preset dictionary, ending byte-aligned: with a final block
    /// when `last`, else with an empty stored block (zlib's sync flush), so
    /// the next part's blocks can follow at once.
    private func deflateBlocks(_ base: UnsafePointer<UInt8>, count: Int, dictionary: Int, last: Bool, into writer: inout BitWriter,
                               checkCancellation: () throws -> Void) rethrows {
        let input = UnsafeBufferPointer(start: base, count: count)
        if level == 0 {
            writeStored(UnsafeBufferPointer(rebasing: input[dictionary...]), final: last, to: &writer)
        } else {
            var matcher = LZ77Matcher(input: base, count: count, dictionary: dictionary, effort: Self.efforts[level])
            var blockStart = dictionary
            var tokens = TokenBuffer(limit: Self.blockTokens)
            let codes = HuffmanTokenWriter()
            while true {
                try checkCancellation()
                let consumed = matcher.fill(&tokens, limit: Self.blockTokens)
                let finished = matcher.isFinished
                writeBlock(tokens, raw: UnsafeBufferPointer(rebasing: input[blockStart..<(blockStart + consumed)]), final: last && finished,
                           codes: codes, to: &writer)
                blockStart += consumed
                tokens.removeAll()
                if finished { break }
            }
        }
        if !last {
            writer.write(0, 3)  // not final, stored
            writer.alignToByte()
            writer.write(0x0000, 16)  // LEN 0, NLEN its complement
            writer.write(0xFFFF, 16)
        }
        writer.alignToByte()
    }

    // MARK: Parts on every core

    /// The split into parts depends on the input's size alone, never on the
    /// machine, so the same input gives the same stream everywhere: eight
    /// parts (enough for eight cores), each at least `minimumPartSize` and at
    /// most `maximumPartSize` bytes. Each part costs a block header (~50 B), a
    /// sync flush and the matches it cannot see past its 32 KiB dictionary:
    /// measured on 2026-11-26, parts of 256 KiB made the 1920×1280 benchmark
    /// map (28 parts) 2.0 % larger, eight parts 0.6 %; the 1024×1024 vector
    /// map and the photo move by under 0.1 % either way.
    static let partsPerInput = 8
    /// pigz's block size: below two of these an input stays whole.
    static let minimumPartSize = 128 * 1024
    /// Keeps parts of huge inputs short, so a round (below) stays short too.
    static let maximumPartSize = 4 * 1024 * 1024
    /// About how many input bytes run between two calls of `checkCancellation`:
    /// a round is this much, or one part per core if that is more.
    static let roundSize = 8 * 1024 * 1024

    /// The part boundaries for `count` input bytes, part i covering
    /// `bounds[i]..<bounds[i + 1]`, all of (nearly) the same size: [0, count]
    /// (one part) below two `minimumPartSize`.
    static func partBounds(count: Int) -> [Int] {
        let size = min(maximumPartSize, max(minimumPartSize, count / partsPerInput))
        let parts = max(1, count / size)
        return (0...parts).map { count / parts * $0 + min($0, count % parts) }
    }

    /// Parts per round for parts of about `partSize` bytes: `roundSize` of
    /// them, at least one per core. Rounds change when cancellation is
    /// checked, never the bytes.
    static func partsPerRound(partSize: Int) -> Int {
        max(roundSize / max(1, partSize), ProcessInfo.processInfo.activeProcessorCount, 1)
    }

    /// A zlib stream of `input` whose deflate data is made in the parts of
    /// `partBounds(count:)`, compressed concurrently on every core, as pigz
    /// does: each part takes the 32 KiB before it as preset dictionary and
    /// ends with a sync flush, the last with the final block. The bytes depend
    /// only on `input`, never on the cores. With one part (or level 0) it is
    /// `zlibCompress`'s stream. `checkCancellation` is called on the caller's
    /// thread before each round of parts (`roundSize`) and at the end, never inside one.
    func zlibCompressInParts(_ input: UnsafeBufferPointer<UInt8>, checkCancellation: () throws -> Void) rethrows -> [UInt8] {
        let bounds = Self.partBounds(count: input.count)
        guard let base = input.baseAddress, bounds.count > 2, level > 0 else {
            return try zlibCompress(input, checkCancellation: checkCancellation)
        }
        // Safe: the input is only read, and outlives the call.
        nonisolated(unsafe) let start = base
        return try zlibCompress(parts: bounds, withPart: { i, body in
            body(start + bounds[i] - min(bounds[i], LZ77Matcher.windowSize))
        }, checkCancellation: checkCancellation)
    }

    /// A zlib stream of the bytes `bounds` delimits (`bounds[0] == 0`,
    /// increasing), compressed in those parts, `partsPerRound` at a time (nil:
    /// `partsPerRound(partSize:)` of the first part's size), each part on
    /// whichever core is free. `withPart(i, body)` calls `body` once with a
    /// pointer to part i's bytes preceded by its dictionary, the
    /// `min(bounds[i], LZ77Matcher.windowSize)` bytes before it, and may make
    /// them on the spot (`PNGEncoder` filters a part's rows, and those of its
    /// dictionary, into memory of its own): calls for one round run
    /// concurrently. `concurrently: false` runs everything in order on the
    /// caller's thread, as a one-core machine would, to the same bytes.
    /// `checkCancellation` is called on the caller's thread before each round
    /// and at the end.
    func zlibCompress(parts bounds: [Int], partsPerRound: Int? = nil, concurrently: Bool = true,
                      withPart: @Sendable (Int, (UnsafePointer<UInt8>) -> Void) -> Void,
                      checkCancellation: () throws -> Void) rethrows -> [UInt8] {
        let partCount = bounds.count - 1, count = bounds[partCount]
        precondition(partCount >= 1 && bounds[0] == 0, "parts cover the input from its start")
        let compressed = UnsafeMutableBufferPointer<[UInt8]>.allocate(capacity: partCount)
        compressed.initialize(repeating: [])
        let checksums = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: partCount)
        defer {
            compressed.deinitialize().deallocate()
            checksums.deallocate()
        }
        // Safe: the call for part i writes only slot i, and every call of a round returns before the next round.
        nonisolated(unsafe) let (slots, sums) = (compressed, checksums)
        @Sendable func compressPart(_ i: Int) {
            let start = bounds[i], end = bounds[i + 1]
            let dictionary = min(start, LZ77Matcher.windowSize)
            withPart(i) { bytes in
                var writer = BitWriter(capacity: Self.bound(end - start))
                self.deflateBlocks(bytes, count: end - start + dictionary, dictionary: dictionary, last: end == count, into: &writer,
                                   checkCancellation: {})
                slots[i] = writer.bytes
                sums[i] = Adler32.checksum(UnsafeBufferPointer(start: bytes + dictionary, count: end - start))
            }
        }
        let roundParts = max(1, partsPerRound ?? Self.partsPerRound(partSize: bounds[1]))
        var round = 0
        while round < partCount {
            let parts = round..<min(partCount, round + roundParts)
            try checkCancellation()
            if concurrently && parts.count > 1 {
                DispatchQueue.concurrentPerform(iterations: parts.count) { compressPart(parts.lowerBound + $0) }
            } else {
                for i in parts { compressPart(i) }
            }
            round = parts.upperBound
        }
        try checkCancellation()
        var stream: [UInt8] = [0x78, level >= 7 ? 0xDA : level >= 2 ? 0x9C : 0x01]
        stream.reserveCapacity(compressed.reduce(6) { $0 + $1.count })
        var adler = checksums[0]
        for i in 0..<partCount {
            stream += compressed[i]
            if i > 0 { adler = Adler32.combine(adler, checksums[i], secondLength: bounds[i + 1] - bounds[i]) }
        }
        for shift in [24, 16, 8, 0] { stream.append(UInt8((adler >> UInt32(shift)) & 0xFF)) }
        return stream
    }

    // MARK: Blocks

    private func writeBlock(_ tokens: borrowing TokenBuffer, raw: UnsafeBufferPointer<UInt8>, final: Bool, codes: HuffmanTokenWriter,
                            to writer: inout BitWriter) {
        var literalFrequencies = [UInt32](repeating: 0, count: 286)
        var distanceFrequencies = [UInt32](repeating: 0, count: 30)
        var extraBits = 0
        for byte in 0..<256 { literalFrequencies[byte] = tokens.literalCounts[byte] }
        let lengthSymbol = DeflateTables.lengthSymbol, lengthExtra = DeflateTables.lengthExtra, distanceExtra = DeflateTables.distanceExtra
        for length in 3...LZ77Matcher.maximumMatch where tokens.lengthCounts[length] > 0 {
            let symbol = Int(lengthSymbol[length])
            literalFrequencies[257 + symbol] += tokens.lengthCounts[length]
            extraBits += Int(tokens.lengthCounts[length]) * Int(lengthExtra[symbol])
        }
        for symbol in 0..<30 {
            distanceFrequencies[symbol] = tokens.distanceCounts[symbol]
            extraBits += Int(tokens.distanceCounts[symbol]) * Int(distanceExtra[symbol])
        }
        literalFrequencies[256] = 1
        let literal = HuffmanCode(frequencies: literalFrequencies, maximumLength: 15)
        var distance = HuffmanCode(frequencies: distanceFrequencies, maximumLength: 15)
        if distance.lengths.allSatisfy({ $0 == 0 }) { distance = HuffmanCode(lengths: [1] + [UInt8](repeating: 0, count: 29)) }
        let header = DynamicHeader(literal: literal, distance: distance)

        let dynamicCost = 3 + header.cost + literal.cost(of: literalFrequencies) + distance.cost(of: distanceFrequencies) + extraBits
        let fixedCost = 3 + codes.fixedLiteral.cost(of: literalFrequencies + [0, 0]) + codes.fixedDistance.cost(of: distanceFrequencies) + extraBits
        let storedCost = (raw.count / 65_535 + 1) * 40 + raw.count * 8 + 8

        if storedCost < min(dynamicCost, fixedCost) {
            writeStored(raw, final: final, to: &writer)
        } else if fixedCost <= dynamicCost {
            writer.write(final ? 1 : 0, 1)
            writer.write(1, 2)
            writer.reserve(fixedCost / 8 + 16)
            codes.writeTokens(tokens, literal: codes.fixedLiteral, distance: codes.fixedDistance, to: &writer)
        } else {
            writer.write(final ? 1 : 0, 1)
            writer.write(2, 2)
            header.write(to: &writer)
            writer.reserve(dynamicCost / 8 + 16)
            codes.writeTokens(tokens, literal: literal, distance: distance, to: &writer)
        }
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
