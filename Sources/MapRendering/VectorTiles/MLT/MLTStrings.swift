/// A MapLibre Tile string column's values, from its streams (found by kind,
/// not position): plain (lengths and bytes, one string per present feature),
/// dictionary (the same for the distinct strings, and an offset stream
/// pointing each present feature at one), or either with the bytes FSST
/// compressed (a symbol-length stream, a symbol table, and a corpus where
/// byte 255 escapes a literal byte and any other byte names a symbol).
///
/// Lengths are checked against the bytes (and, for FSST, against the
/// tile's inflated-bytes limit) before any string is made.
struct MLTStrings {
    /// The strings: one per present feature, or the dictionary's entries.
    private(set) var values: [String] = []
    /// The dictionary offsets stream, when the column has one.
    private let offsets: MLTStream?

    init(_ streams: [MLTStream], budget: inout MLTBudget) throws {
        var lengths: MLTStream?, data: MLTStream?, offsets: MLTStream?, symbolLengths: MLTStream?, symbols: MLTStream?
        for stream in streams {
            switch stream.kind {
            case .length(0), .length(6): lengths = stream
            case .length(5): symbolLengths = stream
            case .data(5): symbols = stream
            case .data(0), .data(1), .data(2): data = stream
            case .offset(2): offsets = stream
            case .present: continue
            default: throw VectorTileError(.corrupt, "a string column has a stream of kind \(stream.kind)")
            }
        }
        guard let lengths, let data else { throw VectorTileError(.corrupt, "a string column lacks its length or data stream") }
        self.offsets = offsets
        let sizes = try lengths.integers(signed: false, budget: &budget)
        var total: Int64 = 0
        for size in sizes { total &+= size }
        guard sizes.allSatisfy({ $0 >= 0 }), total >= 0, total <= Int64(budget.limits.inflatedTileBytes) else {
            throw VectorTileError(.limitExceeded, "the strings' lengths add up to \(total) bytes, over the limit of \(budget.limits.inflatedTileBytes)")
        }
        var bytes: [UInt8]
        if let symbolLengths, let symbols {
            bytes = try Self.fsst(data.rawBytes, symbolLengths: symbolLengths.integers(signed: false, budget: &budget),
                                  symbols: symbols.rawBytes, outputBytes: Int(total))
        } else if symbolLengths != nil || symbols != nil {
            throw VectorTileError(.corrupt, "an FSST string column lacks its symbol lengths or symbol table")
        } else {
            bytes = Array(data.rawBytes)
        }
        guard Int(total) <= bytes.count else {
            throw VectorTileError(.corrupt, "the strings' lengths add up to \(total) bytes, but the data holds \(bytes.count)")
        }
        try budget.charge(sizes.count, "strings")
        var start = 0
        values.reserveCapacity(sizes.count)
        for size in sizes {
            values.append(String(decoding: bytes[start..<start + Int(size)], as: UTF8.self))
            start += Int(size)
        }
    }

    /// Each of `count` present features' index into ``values``.
    func featureIndices(count: Int, budget: inout MLTBudget) throws -> [Int64] {
        guard let offsets else {
            guard values.count == count else { throw VectorTileError(.corrupt, "\(values.count) strings for \(count) features") }
            return Array(0..<Int64(count))
        }
        let indices = try offsets.integers(signed: false, budget: &budget)
        guard indices.count == count else { throw VectorTileError(.corrupt, "\(indices.count) dictionary offsets for \(count) features") }
        if let bad = indices.first(where: { $0 < 0 || $0 >= Int64(values.count) }) {
            throw VectorTileError(.corrupt, "dictionary offset \(bad) is past the \(values.count) entries")
        }
        return indices
    }

    /// FSST-decompresses `corpus` with the symbol table, into at most `outputBytes` bytes.
    private static func fsst(_ corpus: UnsafeBufferPointer<UInt8>, symbolLengths: [Int64], symbols: UnsafeBufferPointer<UInt8>,
                             outputBytes: Int) throws -> [UInt8] {
        var starts: [Int] = []
        var offset = 0
        for length in symbolLengths {
            guard length >= 0, length <= Int64(symbols.count - offset) else {
                throw VectorTileError(.corrupt, "the FSST symbol lengths run past the \(symbols.count) bytes of the symbol table")
            }
            starts.append(offset)
            offset += Int(length)
        }
        starts.append(offset)
        var output: [UInt8] = []
        output.reserveCapacity(outputBytes)
        var i = 0
        while i < corpus.count, output.count < outputBytes {
            let code = Int(corpus[i])
            if code == 255 {
                guard i + 1 < corpus.count else { throw VectorTileError(.corrupt, "the FSST corpus ends inside an escape") }
                output.append(corpus[i + 1])
                i += 2
            } else {
                guard code + 1 < starts.count else { throw VectorTileError(.corrupt, "FSST code \(code) names no symbol (the table has \(starts.count - 1))") }
                output.append(contentsOf: symbols[starts[code]..<min(starts[code + 1], starts[code] + outputBytes - output.count)])
                i += 1
            }
        }
        return output
    }
}
