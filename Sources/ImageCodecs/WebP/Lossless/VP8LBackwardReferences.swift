/// Finds the copies (LZ77 backward references) in a VP8L pixel stream, and
/// turns repeated literals into colour cache indices.
///
/// Matches are found through hash chains over pairs of pixels, as deflate
/// encoders find them over bytes, after first trying the two distances
/// VP8L codes most cheaply: the pixel to the left and the pixel above (codes
/// 2 and 1 of the neighbourhood table). The longest match wins; on a tie the
/// one found first, so the cheap neighbours are kept. Matching is lazy, as
/// zlib's: a copy waits one pixel when the next pixel starts a longer one.
struct VP8LBackwardReferences {
    /// Candidates tried per pixel along a hash chain.
    var chainLength: Int

    /// The longest copy VP8L codes.
    static let maximumLength = 4096
    /// After this many literals in a row, one hash candidate is tried per pixel instead of the chain.
    static let literalRunForShortSearch = 16
    /// A match this long ends the search: longer ones gain little.
    static let goodLength = 256
    /// The longest distance VP8L codes (prefix 39 with all 18 extra bits set), less the 120 neighbourhood codes.
    static let maximumDistance = (1 << 20) - 120

    /// The neighbourhood code (1…120) of each (dy, 8 − dx) pair packed as dy × 16 + 8 − dx, or 0 where none is.
    private static let neighbourhoodCodes: [UInt8] = {
        var codes = [UInt8](repeating: 0, count: 128)
        for (index, packed) in VP8LDecoder.planeOffsets.enumerated() { codes[Int(packed)] = UInt8(index + 1) }
        return codes
    }()

    /// The tokens of `pixels` (rows of `width`), without a colour cache.
    func tokens(_ pixels: UnsafeBufferPointer<UInt32>, width: Int) -> [VP8LToken] {
        let literalBits = Self.literalBits(pixels)
        let count = pixels.count
        var tokens: [VP8LToken] = []
        tokens.reserveCapacity(count / 2)
        guard count > 0 else { return tokens }
        let hashBits = min(18, max(8, Int.bitWidth - (count - 1).leadingZeroBitCount))
        var head = [Int32](repeating: -1, count: 1 << hashBits)
        var chain = [Int32](repeating: -1, count: count)
        let shift = UInt32(32 - hashBits)
        @inline(__always) func hash(_ position: Int) -> Int {
            Int(((pixels[position] &* 0x1E35_A7BD) ^ (pixels[position + 1] &* 0x9E37_79B1)) >> shift)
        }
        @inline(__always) func insert(_ position: Int) {
            guard position + 1 < count else { return }
            let key = hash(position)
            chain[position] = head[key]
            head[key] = Int32(position)
        }
        @inline(__always) func matchLength(_ position: Int, _ earlier: Int, atLeast best: Int, limit: Int) -> Int {
            // A candidate that cannot beat `best` is refused at its last pixel first.
            if best > 0 && (best >= limit || pixels[earlier + best] != pixels[position + best]) { return 0 }
            var length = 0
            while length < limit && pixels[earlier + length] == pixels[position + length] { length += 1 }
            return length
        }
        /// The bits a copy is thought to save over literals: its pixels at
        /// `literalBits` each, less its length and distance codes (about 5
        /// bits each) and their extra bits.
        @inline(__always) func saving(_ length: Int, _ distance: Int) -> Double {
            let lengthPrefix = VP8LToken.prefix(length), distancePrefix = VP8LToken.prefix(Int(Self.distanceCode(distance, width: width)))
            return Double(length) * literalBits - Double(10 + lengthPrefix.extraBitCount + distancePrefix.extraBitCount)
        }
        /// The match at `position` that saves most (length 0 when none saves anything).
        func longestMatch(at position: Int) -> (length: Int, distance: Int) {
            let limit = min(Self.maximumLength, count - position)
            guard limit >= 2 else { return (0, 0) }
            var bestLength = 0, bestDistance = 0, bestSaving = 0.0
            @inline(__always) func consider(_ distance: Int) {
                let length = matchLength(position, position - distance, atLeast: 0, limit: limit)
                guard length >= 2 else { return }
                let gain = saving(length, distance)
                if gain > bestSaving { (bestLength, bestDistance, bestSaving) = (length, distance, gain) }
            }
            if position >= 1 { consider(1) }
            if width <= position { consider(width) }
            // Where copies have stopped paying (noise, photos), one candidate is tried, not the chain.
            var candidate = Int(head[hash(position)]), steps = literalRun > Self.literalRunForShortSearch ? 1 : chainLength
            while candidate >= 0 && steps > 0 && bestLength < min(limit, Self.goodLength) && position - candidate <= Self.maximumDistance {
                // A candidate shorter than the best cannot save more from farther away.
                if pixels[candidate + bestLength] == pixels[position + bestLength] { consider(position - candidate) }
                candidate = Int(chain[candidate])
                steps -= 1
            }
            return (bestLength, bestDistance)
        }
        /// Whether a match is worth a copy at all.
        func isWorthCopying(_ match: (length: Int, distance: Int)) -> Bool { match.length >= 2 }
        var position = 0, literalRun = 0
        var match = longestMatch(at: 0)
        while position < count {
            if isWorthCopying(match) && match.length < Self.goodLength && position + 1 < count {
                // Lazy matching: a literal here pays when the next pixel starts a longer copy.
                insert(position)
                let next = longestMatch(at: position + 1)
                if next.length > match.length + 1 && isWorthCopying(next) {
                    tokens.append(.literal(pixels[position]))
                    position += 1
                    literalRun = 0
                    match = next
                    continue
                }
                tokens.append(VP8LToken(kind: .copy, value: UInt32(match.length), distanceCode: Self.distanceCode(match.distance, width: width)))
                literalRun = 0
                for covered in (position + 1)..<(position + match.length) { insert(covered) }
                position += match.length
            } else if isWorthCopying(match) {
                tokens.append(VP8LToken(kind: .copy, value: UInt32(match.length), distanceCode: Self.distanceCode(match.distance, width: width)))
                literalRun = 0
                for covered in position..<(position + match.length) { insert(covered) }
                position += match.length
            } else {
                tokens.append(.literal(pixels[position]))
                insert(position)
                position += 1
                literalRun += 1
            }
            if position < count { match = longestMatch(at: position) }
        }
        return tokens
    }

    /// About how many bits a literal pixel of `pixels` costs: the sum of its
    /// four channels' entropies.
    static func literalBits(_ pixels: UnsafeBufferPointer<UInt32>) -> Double {
        var counts = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 4)
        for pixel in pixels {
            for channel in 0..<4 { counts[channel][Int((pixel >> UInt32(8 * channel)) & 0xFF)] += 1 }
        }
        let total = counts.reduce(0.0) { $0 + VP8LHistogram.entropy(of: $1) } / Double(max(1, pixels.count))
        return max(1, total)
    }

    /// How VP8L codes a copy from `distance` pixels back in rows of `width`:
    /// a neighbourhood code when one names it, else the distance plus 120.
    static func distanceCode(_ distance: Int, width: Int) -> UInt32 {
        let dy = distance / width, dx = distance - dy * width
        for (rows, columns) in [(dy, dx), (dy + 1, dx - width)] where rows <= 7 && columns >= -7 && columns <= 8 {
            let code = neighbourhoodCodes[rows * 16 + 8 - columns]
            if code != 0 { return UInt32(code) }
        }
        return UInt32(distance + 120)
    }

    /// `tokens` with the literals found in a colour cache of `1 << bits`
    /// entries replaced by their index, as the decoder fills its cache:
    /// every pixel, literal, cached or copied, goes in. `bits` 0: no cache.
    static func cached(_ tokens: [VP8LToken], pixels: UnsafeBufferPointer<UInt32>, bits: Int) -> [VP8LToken] {
        guard bits > 0 else { return tokens }
        var cache = [UInt32](repeating: 0, count: 1 << bits)
        var filled = [Bool](repeating: false, count: 1 << bits)
        let shift = UInt32(32 - bits)
        var result = tokens, position = 0
        for index in result.indices {
            let token = result[index]
            switch token.kind {
            case .literal:
                let key = Int((token.value &* 0x1E35_A7BD) >> shift)
                if filled[key] && cache[key] == token.value {
                    result[index] = VP8LToken(kind: .cacheIndex, value: UInt32(key))
                } else {
                    cache[key] = token.value
                    filled[key] = true
                }
                position += 1
            case .cacheIndex:
                position += 1
            case .copy:
                for covered in position..<(position + Int(token.value)) {
                    let pixel = pixels[covered], key = Int((pixel &* 0x1E35_A7BD) >> shift)
                    cache[key] = pixel
                    filled[key] = true
                }
                position += Int(token.value)
            }
        }
        return result
    }
}
