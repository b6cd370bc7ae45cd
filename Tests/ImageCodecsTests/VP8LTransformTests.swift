import XCTest
@testable import ImageCodecs

/// The word-parallel predictors against the lossless spec's per-channel
/// definitions (RFC 9649, 4.1), on random pixels and on the extremes.
final class VP8LTransformTests: XCTestCase {
    private func channels(_ p: UInt32) -> [Int] { [0, 8, 16, 24].map { Int((p >> $0) & 0xFF) } }

    private func specSelect(_ l: UInt32, _ t: UInt32, _ tl: UInt32) -> UInt32 {
        let (L, T, TL) = (channels(l), channels(t), channels(tl))
        var pL = 0, pT = 0
        for i in 0..<4 {
            let p = L[i] + T[i] - TL[i]
            pL += abs(p - L[i])
            pT += abs(p - T[i])
        }
        return pL < pT ? l : t
    }

    private func specClampAddSubtractFull(_ a: UInt32, _ b: UInt32, _ c: UInt32) -> UInt32 {
        let (A, B, C) = (channels(a), channels(b), channels(c))
        var result: UInt32 = 0
        for i in 0..<4 {
            let value = min(255, max(0, A[i] + B[i] - C[i]))
            result |= UInt32(value) << UInt32(8 * i)
        }
        return result
    }

    func testSelectAndClampAddSubtractFullFollowTheSpec() {
        var random = SystemRandomNumberGenerator()
        let extremes: [UInt32] = [0, 0xFFFF_FFFF, 0xFF00_FF00, 0x00FF_00FF, 0x8080_8080, 0x7F7F_7F7F, 0x0102_0304]
        var triples = extremes.flatMap { a in extremes.flatMap { b in extremes.map { c in (a, b, c) } } }
        for _ in 0..<50_000 { triples.append((random.next(), random.next(), random.next())) }
        for (a, b, c) in triples {
            XCTAssertEqual(VP8LTransform.select(left: a, top: b, topLeft: c), specSelect(a, b, c))
            XCTAssertEqual(VP8LTransform.clampAddSubtractFull(a, b, c), specClampAddSubtractFull(a, b, c))
        }
    }
}
