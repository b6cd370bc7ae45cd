import Foundation

/// A VP8L pixel stream parsed into literals and copies by cost, not by
/// length: the cheapest path through the image, as libwebp's
/// `TraceBackwards` finds it (the idea of Zopfli for deflate).
///
/// First the longest match at every pixel is found (hash chains over pairs
/// of pixels, the pixel above and the one to the left tried first), right
/// to left so that a match found at one pixel is extended to the pixels
/// before it without another search. Then a shortest path runs left to
/// right: every pixel is reached as a literal (or a colour cache index, the
/// cache holding every earlier pixel whatever the parse) or as the end of a
/// copy from an earlier pixel, with the longest match, the run above and
/// the run to the left as that pixel's candidate copies, each tried at the
/// lengths where its cost steps (every length to 8, then the end of each
/// length code's range, then the whole match). The first path prices
/// literals by the image's colours and copies by their extra bits; its
/// counts give the codes whose prices the second path follows.
///
/// Memory, beside the encoder's own: 6 bytes a pixel for the matches, held
/// while the parse lives; 4 for the hash chain while they are found; 10 for
/// the path (cost, step length and distance) while each pass runs.
struct VP8LCostParse {
    /// The matches: at each pixel the longest copy's distance and length (0: none).
    private var distances: [UInt32]
    private var lengths: [UInt16]
    let width: Int

    /// Finds the longest match at each pixel of `pixels` (rows of `width`),
    /// trying up to `chainLength` earlier pixels of the same hash.
    init(_ pixels: UnsafeBufferPointer<UInt32>, width: Int, chainLength: Int) {
        self.width = width
        let count = pixels.count
        distances = [UInt32](repeating: 0, count: count)
        lengths = [UInt16](repeating: 0, count: count)
        guard count > 2 else { return }
        let hashBits = min(18, max(8, Int.bitWidth - (count - 1).leadingZeroBitCount))
        let shift = UInt32(32 - hashBits)
        var chain = [Int32](repeating: -1, count: count)
        do {
            var head = [Int32](repeating: -1, count: 1 << hashBits)
            for position in 0..<(count - 1) {
                let key = Int(((pixels[position] &* 0x1E35_A7BD) ^ (pixels[position + 1] &* 0x9E37_79B1)) >> shift)
                chain[position] = head[key]
                head[key] = Int32(position)
            }
        }
        let maximumLength = VP8LBackwardReferences.maximumLength
        distances.withUnsafeMutableBufferPointer { distances in
            lengths.withUnsafeMutableBufferPointer { lengths in
                @inline(__always) func matchLength(_ position: Int, _ earlier: Int, limit: Int) -> Int {
                    var length = 0
                    while length < limit && pixels[earlier + length] == pixels[position + length] { length += 1 }
                    return length
                }
                var position = count - 2, misses = 0
                while position >= 1 {
                    let limit = min(maximumLength, count - position)
                    var bestLength = 0, bestDistance = 0
                    if position >= width {
                        let length = matchLength(position, position - width, limit: limit)
                        if length > bestLength { (bestLength, bestDistance) = (length, width) }
                    }
                    let left = matchLength(position, position - 1, limit: limit)
                    if left > bestLength { (bestLength, bestDistance) = (left, 1) }
                    // Where copies have stopped paying (noise, photos), one candidate is tried, not the chain.
                    var candidate = Int(chain[position])
                    var steps = misses > VP8LBackwardReferences.literalRunForShortSearch ? 1 : chainLength
                    let good = min(limit, VP8LBackwardReferences.goodLength)
                    while candidate >= 0 && steps > 0 && bestLength < good
                            && position - candidate <= VP8LBackwardReferences.maximumDistance {
                        if pixels[candidate + bestLength] == pixels[position + bestLength] {
                            let length = matchLength(position, candidate, limit: limit)
                            if length > bestLength { (bestLength, bestDistance) = (length, position - candidate) }
                        }
                        candidate = Int(chain[candidate])
                        steps -= 1
                    }
                    guard bestLength >= 2 else {
                        misses += 1
                        position -= 1
                        continue
                    }
                    misses = 0
                    lengths[position] = UInt16(bestLength)
                    distances[position] = UInt32(bestDistance)
                    // The same copy, one pixel earlier, is one longer while the pixels before agree.
                    position -= 1
                    var length = bestLength
                    while position >= bestDistance && length < maximumLength && pixels[position - bestDistance] == pixels[position] {
                        length += 1
                        lengths[position] = UInt16(length)
                        distances[position] = UInt32(bestDistance)
                        position -= 1
                    }
                }
            }
        }
    }

    /// The cheapest parse of `pixels` under codes fitted to `model` (the
    /// counts of an earlier parse, with a colour cache of `cacheBits`); cache
    /// indices are not yet put in (``VP8LBackwardReferences/cached(_:pixels:bits:)`` does).
    func cheapestTokens(_ pixels: UnsafeBufferPointer<UInt32>, model: VP8LHistogram, cacheBits: Int) -> [VP8LToken] {
        cheapestTokens(pixels, prices: Self.prices(model), cacheBits: cacheBits)
    }

    /// The cheapest parse of `pixels` without a colour cache, before any
    /// parse has been counted: literals priced by each channel's counts over
    /// every pixel, a copy's length and distance codes at 5 bits each beside their extra bits.
    func cheapestTokens(_ pixels: UnsafeBufferPointer<UInt32>) -> [VP8LToken] {
        var counts = VP8LHistogram(cacheBits: 0)
        for pixel in pixels { counts.add(.literal(pixel)) }
        var prices = Self.prices(counts)
        for symbol in 256..<prices[0].count { prices[0][symbol] = 5 }
        for symbol in prices[4].indices { prices[4][symbol] = 5 }
        return cheapestTokens(pixels, prices: prices, cacheBits: 0)
    }

    private func cheapestTokens(_ pixels: UnsafeBufferPointer<UInt32>, prices: [[Float]], cacheBits: Int) -> [VP8LToken] {
        let count = pixels.count
        let green = prices[0], red = prices[1], blue = prices[2], alpha = prices[3], distancePrices = prices[4]
        let maximumLength = VP8LBackwardReferences.maximumLength
        var lengthCost = [Float](repeating: 0, count: maximumLength + 1)
        for length in 1...maximumLength {
            let prefix = VP8LToken.prefix(length)
            lengthCost[length] = green[256 + prefix.symbol] + Float(prefix.extraBitCount)
        }
        // Lengths tried beyond 8: where each length code's range ends.
        var rangeEnds: [Int] = []
        for length in 9...maximumLength where length == maximumLength || VP8LToken.prefix(length + 1).symbol != VP8LToken.prefix(length).symbol {
            rangeEnds.append(length)
        }
        @inline(__always) func distanceCost(_ distance: Int) -> Float {
            let prefix = VP8LToken.prefix(Int(VP8LBackwardReferences.distanceCode(distance, width: width)))
            return distancePrices[prefix.symbol] + Float(prefix.extraBitCount)
        }
        let aboveCost = width < count ? distanceCost(width) : 0, leftCost = distanceCost(1)
        var cost = [Float](repeating: .infinity, count: count + 1)
        var stepLength = [UInt16](repeating: 0, count: count + 1)
        var stepDistance = [UInt32](repeating: 0, count: count + 1)
        cost[0] = 0
        let cacheSize = cacheBits > 0 ? 1 << cacheBits : 0
        var cache = [UInt32](repeating: 0, count: max(1, cacheSize)), filled = [Bool](repeating: false, count: max(1, cacheSize))
        let cacheShift = UInt32(32 - max(1, cacheBits))
        var aboveRun = 0, leftRun = 0, lastDistance = -1, lastDistanceCost: Float = 0
        cost.withUnsafeMutableBufferPointer { cost in
            stepLength.withUnsafeMutableBufferPointer { stepLength in
                stepDistance.withUnsafeMutableBufferPointer { stepDistance in
                    @inline(__always) func relax(_ target: Int, _ value: Float, _ length: Int, _ distance: Int) {
                        if value < cost[target] {
                            cost[target] = value
                            stepLength[target] = UInt16(length)
                            stepDistance[target] = UInt32(distance)
                        }
                    }
                    @inline(__always) func copies(from position: Int, _ base: Float, distance: Int, length: Int) {
                        // A copy again of the distance that reached this pixel is (nearly) never cheaper than the longer one.
                        if stepLength[position] > 1 && Int(stepDistance[position]) == distance { return }
                        let shortest = min(length, 8)
                        for run in 2...shortest { relax(position + run, base + lengthCost[run], run, distance) }
                        guard length > 8 else { return }
                        for end in rangeEnds {
                            if end >= length { break }
                            relax(position + end, base + lengthCost[end], end, distance)
                        }
                        relax(position + length, base + lengthCost[length], length, distance)
                    }
                    for position in 0..<count {
                        let here = cost[position], pixel = pixels[position]
                        // A literal, or the cache's copy of it.
                        var literal = alpha[Int(pixel >> 24)] + red[Int((pixel >> 16) & 0xFF)]
                            + green[Int((pixel >> 8) & 0xFF)] + blue[Int(pixel & 0xFF)]
                        if cacheSize > 0 {
                            let key = Int((pixel &* 0x1E35_A7BD) >> cacheShift)
                            if filled[key] && cache[key] == pixel {
                                literal = min(literal, green[256 + 24 + key])
                            } else {
                                cache[key] = pixel
                                filled[key] = true
                            }
                        }
                        relax(position + 1, here + literal, 1, 0)
                        let limit = min(maximumLength, count - position)
                        // Runs above and to the left, carried from the pixel before.
                        if aboveRun > 1 && aboveRun < maximumLength {
                            aboveRun -= 1
                        } else {
                            aboveRun = 0
                            if position >= width { while aboveRun < limit && pixels[position + aboveRun] == pixels[position + aboveRun - width] { aboveRun += 1 } }
                        }
                        if leftRun > 1 && leftRun < maximumLength {
                            leftRun -= 1
                        } else {
                            leftRun = 0
                            if position >= 1 { while leftRun < limit && pixels[position + leftRun] == pixels[position + leftRun - 1] { leftRun += 1 } }
                        }
                        let longest = Int(lengths[position]), distance = Int(distances[position])
                        if longest >= 2 && distance != width && distance != 1 {
                            if distance != lastDistance { (lastDistance, lastDistanceCost) = (distance, distanceCost(distance)) }
                            copies(from: position, here + lastDistanceCost, distance: distance, length: longest)
                        }
                        if aboveRun >= 2 { copies(from: position, here + aboveCost, distance: width, length: aboveRun) }
                        if leftRun >= 2 { copies(from: position, here + leftCost, distance: 1, length: leftRun) }
                    }
                }
            }
        }
        // The path, from its end back.
        var steps: [Int] = []
        var position = count
        while position > 0 {
            steps.append(position)
            position -= Int(stepLength[position])
        }
        var tokens: [VP8LToken] = []
        tokens.reserveCapacity(steps.count)
        var start = 0
        for end in steps.reversed() {
            let length = end - start
            if length == 1 {
                tokens.append(.literal(pixels[start]))
            } else {
                tokens.append(VP8LToken(kind: .copy, value: UInt32(length),
                                        distanceCode: VP8LBackwardReferences.distanceCode(Int(stepDistance[end]), width: width)))
            }
            start = end
        }
        return tokens
    }

    /// Bits per symbol of each alphabet under codes made from `model`'s
    /// counts: a symbol never seen costs as much as the rarest one could.
    private static func prices(_ model: VP8LHistogram) -> [[Float]] {
        model.alphabets.map { counts in
            var total: UInt32 = 0, used = 0
            for count in counts where count > 0 {
                total &+= count
                used += 1
            }
            guard used > 1 else { return counts.map { $0 > 0 ? 0 : 8 } }
            let logTotal = log2(Float(total))
            return counts.map { $0 > 0 ? logTotal - log2(Float($0)) : logTotal + 1 }
        }
    }
}
