/// Writes one entropy-coded image of a VP8L bitstream (RFC 9649 §5): the
/// main ARGB image or a transform's sub-image, as tokens under groups of
/// five prefix codes (green with lengths and cache indices, red, blue,
/// alpha, distance).
///
/// The main image may use a colour cache, of the size (none, or 2^1…2^10
/// entries) whose tokens the entropy estimate says cost least, and several
/// groups of codes by region (``VP8LEntropyGroups``) when they cost less
/// than one group does.
struct VP8LImageWriter {
    /// How hard the match finder looks.
    var references: VP8LBackwardReferences
    /// Whether to try every cache size (else none and 2^10 only).
    var searchesCacheSizes: Bool
    /// The main image's blocks for groups of codes are `1 << groupBits`
    /// pixels square (made larger when the image would have over 2,600).
    var groupBits: Int
    /// Whether the main image is parsed by cost (`VP8LCostParse`) rather than by longest match.
    var parsesByCost = false

    /// The most blocks of groups of codes, as libwebp bounds its entropy image.
    static let maximumGroupBlocks = 2600

    /// Writes `pixels` (rows of `width`). `isMain`: the main image, which may
    /// have a colour cache and groups of codes.
    func write(_ pixels: [UInt32], width: Int, isMain: Bool, into writer: inout BitWriter) {
        pixels.withUnsafeBufferPointer { pixels in
            let parse = isMain && parsesByCost ? VP8LCostParse(pixels, width: width, chainLength: references.chainLength) : nil
            let plain = parse?.cheapestTokens(pixels) ?? references.tokens(pixels, width: width)
            var cacheBits = 0, tokens = plain, histogram = VP8LHistogram(plain, cacheBits: 0)
            if isMain {
                var best = histogram.estimatedBits
                for bits in searchesCacheSizes ? Array(1...10) : [10] {
                    let cached = VP8LBackwardReferences.cached(plain, pixels: pixels, bits: bits)
                    let counted = VP8LHistogram(cached, cacheBits: bits)
                    let cost = counted.estimatedBits
                    if cost < best { (best, cacheBits, tokens, histogram) = (cost, bits, cached, counted) }
                }
                if let parse {
                    // The cheapest path again, under codes fitted to the first (one more pass
                    // lowered the map's estimate by 1 % but not its file); kept when the estimate agrees.
                    let cheapest = VP8LBackwardReferences.cached(parse.cheapestTokens(pixels, model: histogram, cacheBits: cacheBits),
                                                                 pixels: pixels, bits: cacheBits)
                    let counted = VP8LHistogram(cheapest, cacheBits: cacheBits)
                    if counted.estimatedBits < best { (tokens, histogram) = (cheapest, counted) }
                }
            }
            if cacheBits > 0 {
                writer.write(1, 1)
                writer.write(UInt32(cacheBits), 4)
            } else {
                writer.write(0, 1)
            }
            var groups: VP8LEntropyGroups?
            if isMain {
                let height = pixels.count / width
                var bits = groupBits
                while bits < 9 && ((width + (1 << bits) - 1) >> bits) * ((height + (1 << bits) - 1) >> bits) > Self.maximumGroupBlocks { bits += 1 }
                let found = VP8LEntropyGroups(tokens, width: width, height: height, cacheBits: cacheBits, bits: bits)
                if found.count > 1 && found.estimatedBits < histogram.estimatedBits { groups = found }
                writer.write(groups == nil ? 0 : 1, 1)
                if let groups {
                    writer.write(UInt32(groups.bits - 2), 3)
                    write(groups.image, width: groups.blocksWide, isMain: false, into: &writer)
                }
            }
            let codes = (groups?.histograms ?? [histogram]).map { $0.alphabets.map(VP8LPrefixCode.init(histogram:)) }
            for group in codes { for code in group { code.write(into: &writer) } }
            Self.writeTokens(tokens, codes: codes, width: width, groups: groups, into: &writer)
        }
    }

    private static func writeTokens(_ tokens: [VP8LToken], codes: [[VP8LPrefixCode]], width: Int, groups: VP8LEntropyGroups?,
                                    into writer: inout BitWriter) {
        // Each token is at most 60 bits (four 15-bit codes, or two codes with
        // up to 14 and 18 extra bits): one reserve, one add per field, a flush between.
        writer.reserve(tokens.count * 8)
        var position = 0, group = codes[0]
        for token in tokens {
            if let groups {
                let y = position / width, x = position - y * width
                group = codes[groups.groupOfBlock[(y >> groups.bits) * groups.blocksWide + (x >> groups.bits)]]
            }
            switch token.kind {
            case .literal:
                let g = Int((token.value >> 8) & 0xFF), r = Int((token.value >> 16) & 0xFF)
                let b = Int(token.value & 0xFF), a = Int(token.value >> 24)
                writer.add(UInt64(group[0].codes[g]), Int(group[0].lengths[g]))
                writer.add(UInt64(group[1].codes[r]), Int(group[1].lengths[r]))
                writer.flush()
                writer.add(UInt64(group[2].codes[b]), Int(group[2].lengths[b]))
                writer.add(UInt64(group[3].codes[a]), Int(group[3].lengths[a]))
                position += 1
            case .cacheIndex:
                let symbol = 256 + 24 + Int(token.value)
                writer.add(UInt64(group[0].codes[symbol]), Int(group[0].lengths[symbol]))
                position += 1
            case .copy:
                let length = VP8LToken.prefix(Int(token.value)), far = VP8LToken.prefix(Int(token.distanceCode))
                let symbol = 256 + length.symbol
                writer.add(UInt64(group[0].codes[symbol]), Int(group[0].lengths[symbol]))
                writer.add(UInt64(length.extraBits), length.extraBitCount)
                writer.flush()
                writer.add(UInt64(group[4].codes[far.symbol]), Int(group[4].lengths[far.symbol]))
                writer.add(UInt64(far.extraBits), far.extraBitCount)
                position += Int(token.value)
            }
            writer.flush()
        }
    }
}
