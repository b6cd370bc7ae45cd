import Foundation
import XCTest
import Raster
@testable import ImageCodecs

/// Decoder correctness against libjpeg-turbo's own decodes (fixtures made by
/// Fixtures/make_jpeg_fixtures.py) and the IJG test images.
final class JPEGDecoderTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/jpeg")
    /// The IJG test images, copied into the package (Fixtures/jpeg/ijg).
    static let ijgImages = fixtures.appendingPathComponent("ijg")

    func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
    }

    /// PSNR in dB of the bitmap's RGB against packed RGB8 reference bytes.
    func psnr(_ bitmap: Bitmap, _ rgb: [UInt8]) -> Double {
        precondition(rgb.count == bitmap.width * bitmap.height * 3)
        var squared = 0.0
        for i in 0..<(bitmap.width * bitmap.height) {
            for c in 0..<3 {
                let d = Double(bitmap.pixels[i * 4 + c]) - Double(rgb[i * 3 + c])
                squared += d * d
            }
        }
        if squared == 0 { return .infinity }
        let mse = squared / Double(rgb.count)
        return 10 * log10(255 * 255 / mse)
    }

    func assertMatchesReference(_ name: String, width: Int = 45, height: Int = 37,
                                file: StaticString = #filePath, line: UInt = #line) throws {
        let bitmap = try JPEGDecoder().decode(fixture(name + ".jpg"))
        XCTAssertEqual(bitmap.width, width, file: file, line: line)
        XCTAssertEqual(bitmap.height, height, file: file, line: line)
        let value = psnr(bitmap, [UInt8](try fixture(name + ".rgb")))
        XCTAssertGreaterThanOrEqual(value, 45, "\(name): PSNR \(value) dB", file: file, line: line)
    }

    func testSampling444() throws { try assertMatchesReference("s444") }
    func testSampling422() throws { try assertMatchesReference("s422") }
    func testSampling420() throws { try assertMatchesReference("s420") }
    func testGrayscale() throws { try assertMatchesReference("gray") }
    func testProgressive420() throws { try assertMatchesReference("progressive420") }
    func testProgressive444() throws { try assertMatchesReference("progressive444") }
    func testRestartIntervals() throws { try assertMatchesReference("restart420") }
    func testAdobeCMYK() throws { try assertMatchesReference("cmyk") }
    func testOptimizedHuffmanTables() throws { try assertMatchesReference("optimized") }

    /// Chroma at most two samples wide is replicated, not smoothed, as libjpeg
    /// does (jdsample.c): 3- and 4-pixel-wide subsampled images match it.
    func testNarrowSubsampledImagesReplicateChroma() throws {
        try assertMatchesReference("narrow3x420", width: 3, height: 20)
        try assertMatchesReference("narrow4x420", width: 4, height: 20)
        try assertMatchesReference("narrow4x422", width: 4, height: 20)
    }

    func testEXIFOrientationIsReadByDecodeAndReadInfo() throws {
        for value in 1...8 {
            let data = try fixture("orientation\(value).jpg")
            let expected = try XCTUnwrap(ImageOrientation(rawValue: value))
            let image = try JPEGDecoder().decodeImage(data)
            XCTAssertEqual(image.orientation, expected)
            XCTAssertEqual(image.bitmap.width, 16)
            let info = try JPEGDecoder().readInfo(data)
            XCTAssertEqual(info, ImageInfo(format: .jpeg, width: 16, height: 8, orientation: expected, hasAlpha: false))
        }
    }

    func testReadInfoDoesNotNeedScanData() throws {
        let data = try fixture("s420.jpg")
        // Cut the file right after the frame header: the header alone answers readInfo.
        let bytes = [UInt8](data)
        let sof = try XCTUnwrap((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        let info = try JPEGDecoder().readInfo(Data(bytes[0..<(sof + 19)]))
        XCTAssertEqual(info.width, 45)
        XCTAssertEqual(info.height, 37)
        XCTAssertThrowsError(try JPEGDecoder().decode(Data(bytes[0..<(sof + 19)])))
    }

    func testScaledDecodeSizesAndCloseness() throws {
        let data = try fixture("s420.jpg")
        let full = try JPEGDecoder().decode(data)
        for scale in [JPEGScale.half, .quarter, .eighth] {
            let small = try JPEGDecoder().decode(data, scale: scale)
            XCTAssertEqual(small.width, (45 + scale.rawValue - 1) / scale.rawValue)
            XCTAssertEqual(small.height, (37 + scale.rawValue - 1) / scale.rawValue)
            // The top-left sample approximates the mean of the full-size pixels it covers.
            var sum = 0
            for y in 0..<scale.rawValue { for x in 0..<scale.rawValue { sum += Int(full[x, y].g) } }
            let mean = sum / (scale.rawValue * scale.rawValue)
            XCTAssertLessThan(abs(Int(small[0, 0].g) - mean), 24, "scale 1/\(scale.rawValue)")
        }
    }

    /// A 1/8 decode keeps only DC coefficients and skips progressive AC scans:
    /// the baseline and progressive codings of one picture must agree closely
    /// (they were encoded separately, so not bit for bit), and each pixel is
    /// about the mean of the full decode's 8×8 block.
    func testEighthScaleDecodesBaselineAndProgressiveAlike() throws {
        let baseline = try Data(contentsOf: Self.ijgImages.appendingPathComponent("testorig.jpg"))
        let progressive = try Data(contentsOf: Self.ijgImages.appendingPathComponent("testprog.jpg"))
        let a = try JPEGDecoder().decode(baseline, scale: .eighth)
        let b = try JPEGDecoder().decode(progressive, scale: .eighth)
        XCTAssertEqual([a.width, a.height], [29, 19])
        XCTAssertEqual([b.width, b.height], [29, 19])
        let differences = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }
        XCTAssertLessThan(differences.max() ?? 0, 12)
        XCTAssertLessThan(Double(differences.reduce(0, +)) / Double(differences.count), 2)
        let full = try JPEGDecoder().decode(baseline)
        var sum = 0
        for y in 80..<88 { for x in 80..<88 { sum += Int(full[x, y].r) } }
        XCTAssertLessThan(abs(Int(a[10, 10].r) - sum / 64), 12)
    }

    // MARK: IJG test images

    func testIJGBaselineAndProgressiveMatchReferenceDecode() throws {
        let reference = try JPEGTestSupport.readPPM(Self.ijgImages.appendingPathComponent("testorig.ppm"))
        for name in ["testorig.jpg", "testimgint.jpg"] {
            let bitmap = try JPEGDecoder().decode(Data(contentsOf: Self.ijgImages.appendingPathComponent(name)))
            XCTAssertEqual(bitmap.width, reference.width)
            XCTAssertEqual(bitmap.height, reference.height)
            let value = psnr(bitmap, reference.rgb)
            XCTAssertGreaterThanOrEqual(value, 45, "\(name): PSNR \(value) dB")
        }
    }

    func testArithmeticCodingIsRefusedByName() throws {
        let data = try Data(contentsOf: Self.ijgImages.appendingPathComponent("testimgari.jpg"))
        XCTAssertThrowsError(try JPEGDecoder().decode(data)) { error in
            XCTAssertTrue("\(error)".contains("arithmetic coding"), "\(error)")
        }
    }
}
