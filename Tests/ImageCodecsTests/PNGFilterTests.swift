import XCTest
@testable import ImageCodecs

/// The vectorised, sampled filter scoring against a byte-at-a-time reference.
final class PNGFilterTests: XCTestCase {
    private func referenceScores(_ row: [UInt8], _ up: [UInt8], bpp: Int) -> [Int] {
        func cost(_ value: UInt8) -> Int { abs(Int(Int8(bitPattern: value))) }
        var totals = [0, 0, 0, 0, 0]
        // The sample `score` documents: 16 bytes, every other 32-byte chunk, the tail.
        let head = min(row.count, 16), chunks = (row.count - head) / 32
        for i in row.indices where i < head || i >= head + chunks * 32 || ((i - head) / 32) % 2 == 0 {
            let a = i >= bpp ? row[i - bpp] : 0, b = up[i], c = i >= bpp ? up[i - bpp] : 0
            totals[0] += cost(row[i])
            totals[1] += cost(row[i] &- a)
            totals[2] += cost(row[i] &- b)
            totals[3] += cost(row[i] &- UInt8((Int(a) + Int(b)) / 2))
            totals[4] += cost(row[i] &- UInt8(PNGFilter.paeth(Int(a), Int(b), Int(c))))
        }
        return totals
    }

    func testScoresMatchTheByteAtATimeDefinition() {
        var state: UInt64 = 0x1234_5678
        func next() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for (count, bpp) in [(1, 1), (15, 3), (16, 4), (17, 2), (100, 3), (5760, 3), (7681, 4)] {
            // Smooth rows (small differences) and noise, so every filter wins somewhere.
            let smooth = count % 2 == 0
            var row = [UInt8](repeating: 0, count: count), up = row
            for i in 0..<count {
                up[i] = smooth ? UInt8(truncatingIfNeeded: i / 3) : next()
                row[i] = smooth ? up[i] &+ (next() & 3) : next()
            }
            let ours = row.withUnsafeBufferPointer { r in up.withUnsafeBufferPointer { u in
                PNGFilter.score(r.baseAddress!, u.baseAddress!, count, bpp)
            } }
            XCTAssertEqual(ours, referenceScores(row, up, bpp: bpp), "\(count) bytes, bpp \(bpp)")
        }
    }

    /// Unfiltering against the spec's byte-at-a-time definition (§9.2), for
    /// every filter type and the pixel widths of every colour type and depth,
    /// including the register-held left bytes of 3- and 4-byte pixels.
    func testUnfilterMatchesTheSpecDefinition() {
        var state: UInt64 = 0x9E37
        func next() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for bpp in [1, 2, 3, 4, 6, 8] {
            for count in [1, 2, 3, 4, 5, 7, 8, 12, 13, 96, 97] {
                let up = (0..<count).map { _ in next() }, filtered = (0..<count).map { _ in next() }
                for type in UInt8(0)...4 {
                    var expected = filtered
                    for i in 0..<count {
                        let a = i >= bpp ? Int(expected[i - bpp]) : 0, b = Int(up[i]), c = i >= bpp ? Int(up[i - bpp]) : 0
                        let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                        let predictor = [0, a, b, (a + b) / 2, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][Int(type)]
                        expected[i] = expected[i] &+ UInt8(predictor)
                    }
                    var row = filtered
                    row.withUnsafeMutableBufferPointer { r in
                        up.withUnsafeBufferPointer { u in
                            PNGPixelExpander.unfilter(r.baseAddress!, previous: u.baseAddress!, count: count, stride: bpp, type: type)
                        }
                    }
                    XCTAssertEqual(row, expected, "filter \(type), bpp \(bpp), \(count) bytes")
                }
            }
        }
    }
}
