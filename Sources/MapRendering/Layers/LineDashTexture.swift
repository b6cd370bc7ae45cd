/// A `line-dasharray` as MapLibre's line atlas draws it (maplibre-native's
/// `LineAtlas`): a signed distance field 256 texels wide per period, each
/// texel 128 + its distance in texels to the nearest dash edge (positive
/// inside a dash), in one row, or fifteen rows for round caps (the distance
/// to a half-disc at each dash end). The line shader samples it bilinearly,
/// repeating along the line and clamped across, and keeps what is past 0.5.
struct LineDashTexture: Sendable, Hashable {
    /// Texels per row: one period of the pattern.
    static let width = 256
    /// The rows either side of the middle one for round dashes.
    static let roundRows = 7

    /// The texels, `rows` rows of ``width``, each 0…255.
    private(set) var texels: [UInt8]
    /// The rows drawn: 1, or 15 for round dashes.
    let rows: Int
    /// The texture's height: rows rounded up to a power of two (the rows past them stay 0).
    let height: Int
    /// The pattern's period in line widths: the sum of its lengths.
    let period: Double

    /// The field of `pattern` (dash, gap, dash … in line widths; an odd
    /// count joins the last dash to the first), nil for one MapLibre cannot draw
    /// (fewer than two lengths, a negative or non-finite one, or all zero).
    init?(_ pattern: [Double], round: Bool) {
        guard pattern.count >= 2, pattern.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        let period = pattern.reduce(0, +)
        guard period > 0, period.isFinite else { return nil }
        self.period = period
        let n = round ? Self.roundRows : 0
        rows = 2 * n + 1
        height = round ? 16 : 1
        texels = [UInt8](repeating: 0, count: Self.width * height)
        let stretch = Double(Self.width) / period
        var ranges = Self.ranges(pattern, stretch: stretch)
        if round {
            drawRound(ranges, stretch: stretch, n: n)
        } else {
            ranges.removeAll { $0.isZeroLength }
            guard !ranges.isEmpty else { return }
            // Neighbouring parts of one kind make one.
            var merged: [DashRange] = []
            for range in ranges {
                if let last = merged.last, last.isDash == range.isDash {
                    merged[merged.count - 1].right = range.right
                } else {
                    merged.append(range)
                }
            }
            // A pattern that starts and ends alike joins across the period's
            // edge; one part alone (`[1, 0]`: a dash with no gap) is that part
            // on both sides, so a solid pattern has no seam.
            if merged[0].isDash == merged[merged.count - 1].isDash {
                merged[0].left = merged[merged.count - 1].left - Double(Self.width)
                merged[merged.count - 1].right = merged[0].right + Double(Self.width)
            }
            drawRegular(merged)
        }
    }

    /// One dash or gap, in texels.
    private struct DashRange {
        var left: Double, right: Double
        var isDash: Bool
        var isZeroLength: Bool
    }

    private static func ranges(_ pattern: [Double], stretch: Double) -> [DashRange] {
        let odd = pattern.count % 2 == 1
        var result = [DashRange(left: odd ? -pattern[pattern.count - 1] * stretch : 0, right: pattern[0] * stretch,
                                isDash: true, isZeroLength: pattern[0] == 0)]
        var isDash = true
        var sofar = pattern[0]
        for length in pattern.dropFirst() {
            isDash.toggle()
            let left = sofar * stretch
            sofar += length
            result.append(DashRange(left: left, right: sofar * stretch, isDash: isDash, isZeroLength: length == 0))
        }
        return result
    }

    /// The range the texel at `x` falls in, advancing `index` as the atlas's loop does.
    private static func advance(_ ranges: [DashRange], _ index: inout Int, _ range: inout DashRange, x: Int) {
        if range.right == 0 {
            if x != 0, index + 1 < ranges.count { index += 1; range = ranges[index] }
        } else if Double(x) / range.right > 1, index + 1 < ranges.count {
            index += 1
            range = ranges[index]
        }
    }

    private mutating func drawRegular(_ ranges: [DashRange]) {
        var index = 0, range = ranges[0]
        for x in 0..<Self.width {
            if Double(x) / range.right > 1, index + 1 < ranges.count { index += 1; range = ranges[index] }
            let distance = min(abs(Double(x) - range.left), abs(Double(x) - range.right))
            texels[x] = Self.texel(range.isDash ? distance : -distance)
        }
    }

    private mutating func drawRound(_ ranges: [DashRange], stretch: Double, n: Int) {
        let halfStretch = stretch / 2
        for y in -n...n {
            let row = (n + y) * Self.width
            var index = 0, range = ranges[0]
            for x in 0..<Self.width {
                Self.advance(ranges, &index, &range, x: x)
                let distance = min(abs(Double(x) - range.left), abs(Double(x) - range.right))
                let middle = Double(y) / Double(n) * (halfStretch + 1)
                let signed: Double
                if range.isDash {
                    let edge = halfStretch - abs(middle)
                    signed = (distance * distance + edge * edge).squareRoot()
                } else {
                    signed = halfStretch - (distance * distance + middle * middle).squareRoot()
                }
                texels[row + x] = Self.texel(signed)
            }
        }
    }

    private static func texel(_ signedDistance: Double) -> UInt8 {
        UInt8(max(0, min(255, signedDistance + 128)))
    }

    /// The field at texture coordinates (`s`, `t`) in 0…1 (s repeating, t
    /// clamped), filtered bilinearly as the GPU's linear sampler does, 0…1.
    func sample(s: Double, t: Double) -> Double {
        let x = s * Double(Self.width) - 0.5, y = t * Double(height) - 0.5
        let x0 = x.rounded(.down), y0 = y.rounded(.down)
        let fx = x - x0, fy = y - y0
        let column0 = Self.wrap(Int(x0)), column1 = Self.wrap(Int(x0) + 1)
        let row0 = min(height - 1, max(0, Int(y0))), row1 = min(height - 1, max(0, Int(y0) + 1))
        func value(_ row: Int, _ column: Int) -> Double { Double(texels[row * Self.width + column]) / 255 }
        let top = value(row0, column0) * (1 - fx) + value(row0, column1) * fx
        let bottom = value(row1, column0) * (1 - fx) + value(row1, column1) * fx
        return top * (1 - fy) + bottom * fy
    }

    private static func wrap(_ column: Int) -> Int {
        let m = column % width
        return m < 0 ? m + width : m
    }
}
