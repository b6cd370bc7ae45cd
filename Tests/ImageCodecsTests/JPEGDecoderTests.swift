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

    /// The four-block IDCT (one block per vector lane) gives the IDCT's
    /// definition, computed in double precision, within one level per sample
    /// for random sparse and dense blocks, a block repeated in the batch, and
    /// flat blocks through `transformFlat`; hostile extremes are clamped
    /// without trapping.
    func testFourBlockIDCTMatchesTheDefinition() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ range: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % range
        }
        let quant: [Int32] = (0..<64).map { Int32($0 == 0 ? 8 : 1 + $0 % 11) }
        let table = UnsafeMutablePointer<Float>.allocate(capacity: 64), wide = UnsafeMutablePointer<Float>.allocate(capacity: 256)
        let workspace = UnsafeMutablePointer<Float>.allocate(capacity: 256)
        defer { table.deallocate(); wide.deallocate(); workspace.deallocate() }
        quant.withUnsafeBufferPointer { JPEGInverseDCT.fillMultipliers($0.baseAddress!, into: table) }
        JPEGInverseDCT.fillWideMultipliers(table, into: wide)
        /// Sample (y, x) of `block` by the IDCT's definition, level-shifted, rounded and clamped.
        func definition(_ block: ArraySlice<Int16>, _ y: Int, _ x: Int) -> Int {
            var sum = 0.0
            for v in 0..<8 {
                for u in 0..<8 {
                    let coefficient = Double(block[block.startIndex + v * 8 + u]) * Double(quant[v * 8 + u])
                    let cu = u == 0 ? 1 / 2.0.squareRoot() : 1, cv = v == 0 ? 1 / 2.0.squareRoot() : 1
                    sum += cu * cv * coefficient * cos(Double((2 * x + 1) * u) * .pi / 16) * cos(Double((2 * y + 1) * v) * .pi / 16)
                }
            }
            return min(255, max(0, Int((sum / 4 + 128).rounded())))
        }
        var worst = 0
        for _ in 0..<200 {
            var blocks = [Int16](repeating: 0, count: 4 * 64)
            var extreme = false
            for b in 0..<4 {
                let kind = next(5)  // flat, sparse, dense, extreme, copy of block 0
                if kind == 4 && b > 0 {
                    for k in 0..<64 { blocks[b * 64 + k] = blocks[k] }
                    continue
                }
                blocks[b * 64] = Int16(next(2000) - 1000)
                let count = kind == 0 ? 0 : (kind == 1 ? 1 + next(6) : 64)
                for _ in 0..<count {
                    blocks[b * 64 + next(64)] = kind == 3 ? (next(2) == 0 ? .max : .min) : Int16(next(300) - 150)
                }
                extreme = extreme || kind == 3
            }
            var samples = [UInt8](repeating: 0, count: 32 * 8)
            blocks.withUnsafeBufferPointer { input in
                samples.withUnsafeMutableBufferPointer { out in
                    let inputs = (0..<4).map { input.baseAddress! + $0 * 64 }
                    let outputs = (0..<4).map { out.baseAddress! + $0 * 8 }
                    JPEGInverseDCT.transformFour(inputs, wide, outputs, 32, workspace)
                    if JPEGInverseDCT.isDCOnly(inputs[0]) {
                        JPEGInverseDCT.transformFlat(inputs[0], table, outputs[0], 32)
                    }
                }
            }
            // Extreme blocks only have to come back clamped (they cannot trap).
            if extreme { continue }
            for b in 0..<4 {
                let block = blocks[(b * 64)..<(b * 64 + 64)]
                for y in 0..<8 {
                    for x in 0..<8 { worst = max(worst, abs(Int(samples[y * 32 + b * 8 + x]) - definition(block, y, x))) }
                }
            }
        }
        XCTAssertLessThanOrEqual(worst, 1)
    }

    /// The eight-bytes-at-once refill reads the same bits as the checked
    /// byte-by-byte one, across stuffed FF 00 pairs and up to a marker.
    func testWholeByteRefillReadsWhatTheBytewiseRefillReads() throws {
        var state: UInt64 = 0x0123_4567_89AB_CDEF
        func next(_ range: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % range
        }
        var bytes: [UInt8] = []
        for _ in 0..<400 {
            let byte = UInt8(next(256))
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0) }
            if next(40) == 0 { bytes += [0xFF, 0x00] }
        }
        bytes += [0xFF, 0xD9]
        try bytes.withUnsafeBufferPointer { buffer in
            var fast = JPEGBitReader(bytes: buffer, position: 0), slow = JPEGBitReader(bytes: buffer, position: 0)
            for _ in 0..<400 {
                let count = 1 + next(16)
                if fast.bitCount < count { try fast.refill() }
                if slow.bitCount < count { try slow.refillBytewise() }
                XCTAssertEqual(try fast.bits(count), try slow.bits(count))
            }
        }
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
