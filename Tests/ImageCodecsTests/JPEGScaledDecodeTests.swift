import Foundation
import XCTest
import Raster
@testable import ImageCodecs

/// The reduced IDCTs (1/2 and 1/4 scale) and the streamed sequential decode.
final class JPEGScaledDecodeTests: XCTestCase {
    func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: JPEGDecoderTests.fixtures.appendingPathComponent(name))
    }

    /// A reduced IDCT computes the box averages of the full IDCT's samples, so
    /// without chroma subsampling (where the upsampling differs by scale) a
    /// scaled decode is the box average of the full decode up to rounding and
    /// clamping. Covers baseline (streamed), progressive and grayscale files.
    func testReducedIDCTsMatchBoxAveragesOfTheFullDecode() throws {
        for name in ["s444.jpg", "progressive444.jpg", "gray.jpg"] {
            let data = try fixture(name)
            let full = try JPEGDecoder().decode(data)
            for scale in [JPEGScale.half, .quarter] {
                let small = try JPEGDecoder().decode(data, scale: scale)
                let factor = scale.rawValue
                let differences = Self.differencesFromBoxAverages(full, small, factor: factor).map(abs)
                let worst = differences.max() ?? 0, total = differences.reduce(0, +), count = differences.count
                // Single samples can differ more where the full decode clamped
                // (averages of clamped values are not clamped averages).
                XCTAssertLessThanOrEqual(worst, 12, "\(name) at 1/\(factor)")
                XCTAssertLessThan(Double(total) / Double(count), 1.0, "\(name) at 1/\(factor)")
            }
        }
    }

    /// Each RGB sample of `small` minus the rounded mean of the `factor` ×
    /// `factor` box of `full` it stands for, over the boxes wholly inside the
    /// image (edge boxes also cover block padding).
    private static func differencesFromBoxAverages(_ full: Bitmap, _ small: Bitmap, factor: Int) -> [Int] {
        var differences: [Int] = []
        for y in 0..<(full.height / factor) {
            for x in 0..<(full.width / factor) {
                for channel in 0..<3 {
                    var sum = 0
                    for dy in 0..<factor {
                        for dx in 0..<factor {
                            sum += Int(full.pixels[((y * factor + dy) * full.width + x * factor + dx) * 4 + channel])
                        }
                    }
                    let mean = (sum + factor * factor / 2) / (factor * factor)
                    differences.append(Int(small.pixels[(y * small.width + x) * 4 + channel]) - mean)
                }
            }
        }
        return differences
    }

    /// PSNR (RGB) of a scaled decode against the box averages of the full
    /// decode, over the boxes wholly inside the image.
    private func psnrAgainstBoxAverages(_ data: Data, _ scale: JPEGScale) throws -> Double {
        let full = try JPEGDecoder().decode(data)
        let small = try JPEGDecoder().decode(data, scale: scale)
        let differences = Self.differencesFromBoxAverages(full, small, factor: scale.rawValue)
        let squares = differences.reduce(0) { $0 + $1 * $1 }, count = differences.count
        return squares == 0 ? 99 : 10 * log10(255.0 * 255.0 * Double(count) / Double(squares))
    }

    /// Subsampled chroma is decoded with an inverse DCT enlarged by its
    /// subsampling factor (up to 8×8), so it comes out at the output scale
    /// instead of being reduced like luma and upsampled again: colour keeps
    /// the detail the file has. On the IJG photo as 4:2:0 and 4:2:2, at 1/2,
    /// 1/4 and 1/8: 44.3, 46.1, 49.2 dB and 47.9, 49.4, 51.8 dB (before:
    /// 39.4, 32.6, 28.7 and 43.6, 36.2, 32.6 dB). Pillow / libjpeg-turbo
    /// against its own full decode: 44.4, 46.1, 49.2 dB for 4:2:0 and 43.6,
    /// 36.2, 31.0 dB for 4:2:2, which it does not enlarge.
    func testSubsampledChromaKeepsItsDetailAtEveryScale() throws {
        let minimum: [String: [JPEGScale: Double]] = [
            "testorig.jpg": [.half: 43, .quarter: 45, .eighth: 48],
            "testorig422.jpg": [.half: 46, .quarter: 48, .eighth: 50],
        ]
        for (name, thresholds) in minimum.sorted(by: { $0.key < $1.key }) {
            let data = try Data(contentsOf: JPEGDecoderTests.ijgImages.appendingPathComponent(name))
            for (scale, threshold) in thresholds.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                let psnr = try psnrAgainstBoxAverages(data, scale)
                XCTAssertGreaterThanOrEqual(psnr, threshold, "\(name) at 1/\(scale.rawValue)")
            }
        }
    }

    /// The folded 4×4 IDCT computes what the general reduced IDCT does (box
    /// averages of the full IDCT), up to float rounding, for random blocks.
    func testTheFolded4x4TransformMatchesTheGeneralReducedOne() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ range: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % range
        }
        let quant: [Int32] = (0..<64).map { (k: Int) -> Int32 in Int32(k == 0 ? 8 : 1 + k % 7) }
        let basis = UnsafeMutablePointer<Float>.allocate(capacity: 64), plain = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        let weights = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer { basis.deallocate(); plain.deallocate(); weights.deallocate() }
        JPEGInverseDCT.fillReducedBasis(size: 4, into: basis)
        quant.withUnsafeBufferPointer { JPEGInverseDCT.fillHalfWeights($0.baseAddress!, into: weights) }
        for i in 0..<64 { plain[i] = Float(quant[i]) }
        var worst = 0
        for _ in 0..<500 {
            var block = [Int16](repeating: 0, count: 64)
            for _ in 0..<(1 + next(20)) { block[next(64)] = Int16(next(200) - 100) }
            var general = [UInt8](repeating: 0, count: 16), folded = [UInt8](repeating: 0, count: 16)
            block.withUnsafeBufferPointer { input in
                JPEGInverseDCT.transformReduced(input.baseAddress!, flat: nil, plain, basis, rows: 4, basis, columns: 4, &general, 4)
                JPEGInverseDCT.transformHalf(input.baseAddress!, flat: nil, weights, &folded, 4)
            }
            for i in 0..<16 { worst = max(worst, abs(Int(general[i]) - Int(folded[i]))) }
        }
        XCTAssertLessThanOrEqual(worst, 1)
    }

    /// Every scale of a streamed sequential decode agrees with the same
    /// picture coded progressively (decoded whole, then rendered).
    func testStreamedAndWholeImageRenderingAgree() throws {
        let sequential = try fixture("s444.jpg"), progressive = try fixture("progressive444.jpg")
        for scale in JPEGScale.allCases {
            let a = try JPEGDecoder().decode(sequential, scale: scale)
            let b = try JPEGDecoder().decode(progressive, scale: scale)
            XCTAssertEqual([a.width, a.height], [b.width, b.height])
            let differences = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }
            // Separately encoded (quantisation differs), so close but not equal.
            XCTAssertLessThan(Double(differences.reduce(0, +)) / Double(differences.count), 3, "1/\(scale.rawValue)")
        }
    }

    /// A sequential scan holding every component is rendered as it decodes;
    /// a further scan has nothing left to refine and is refused, as libjpeg
    /// refuses it ("expected EOI").
    func testAScanAfterTheCompleteSequentialScanIsRefused() throws {
        let bytes = [UInt8](try fixture("s420.jpg"))
        let sos = try XCTUnwrap((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let eoi = try XCTUnwrap((0..<(bytes.count - 1)).last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD9 })
        let doubled = Array(bytes[0..<eoi]) + Array(bytes[sos..<eoi]) + [0xFF, 0xD9]
        XCTAssertNoThrow(try JPEGDecoder().decode(Data(bytes)))
        XCTAssertThrowsError(try JPEGDecoder().decode(Data(doubled))) { error in
            guard case .some(.invalidSegment) = error.jpegError else { return XCTFail("\(error)") }
        }
    }
}
