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
                var worst = 0, total = 0, count = 0
                // Boxes wholly inside the image (edge boxes also cover block padding).
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
                            let difference = abs(Int(small.pixels[(y * small.width + x) * 4 + channel]) - mean)
                            worst = max(worst, difference)
                            total += difference
                            count += 1
                        }
                    }
                }
                // Single samples can differ more where the full decode clamped
                // (averages of clamped values are not clamped averages).
                XCTAssertLessThanOrEqual(worst, 12, "\(name) at 1/\(factor)")
                XCTAssertLessThan(Double(total) / Double(count), 1.0, "\(name) at 1/\(factor)")
            }
        }
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
