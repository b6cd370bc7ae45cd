import Foundation
import XCTest
import Raster
@testable import ImageCodecs

/// Encoder checks: files our decoder reads back closely, in every mode, and
/// the IJG quality scaling.
final class JPEGEncoderTests: XCTestCase {
    func psnr(_ a: Bitmap, _ b: Bitmap, gray: Bool = false) -> Double {
        JPEGTestSupport.psnr(a, b, gray: gray)
    }

    func roundTrip(_ encoder: JPEGEncoder) throws -> (Bitmap, Data) {
        let data = try encoder.encode(JPEGTestSupport.syntheticBitmap())
        return (try JPEGDecoder().decode(data), data)
    }

    /// The 16-bit forward DCT must not overflow on any samples: each 8×8 block
    /// holds the extreme pattern of one frequency pair (0 or 255 as the signs
    /// of its cosines, the input that drives that coefficient furthest), in
    /// gray (luma extremes) and in opposed red and blue (chroma extremes). At
    /// quality 100 every block must come back nearly exact; a wrapped
    /// coefficient would ruin its block.
    func testExtremeBlocksRoundTripAtQuality100() throws {
        func extreme(_ k: Int, _ i: Int) -> Bool { cos(Double((2 * i + 1) * k) * .pi / 16) >= 0 }
        for opposed in [false, true] {
            var pixels = [UInt8](repeating: 255, count: 64 * 64 * 4)
            for y in 0..<64 {
                for x in 0..<64 {
                    let high = extreme(y / 8, y % 8) == extreme(x / 8, x % 8)
                    let value: UInt8 = high ? 255 : 0
                    let p = (y * 64 + x) * 4
                    pixels[p] = value
                    pixels[p + 1] = opposed ? 0 : value
                    pixels[p + 2] = opposed ? 255 - value : value
                }
            }
            let bitmap = try Bitmap(width: 64, height: 64, rgba: pixels)
            let decoded = try JPEGDecoder().decode(JPEGEncoder(quality: 100, subsampling: .yuv444).encode(bitmap))
            XCTAssertGreaterThan(psnr(bitmap, decoded), 40, opposed ? "red against blue" : "gray")
        }
    }

    func testQuality90RoundTripsIn420And444() throws {
        for subsampling in [JPEGEncoder.Subsampling.yuv420, .yuv444] {
            let (decoded, _) = try roundTrip(JPEGEncoder(quality: 90, subsampling: subsampling))
            XCTAssertEqual(decoded.width, 45)
            XCTAssertEqual(decoded.height, 37)
            // Pillow (libjpeg-turbo) reaches 30.8 dB (4:2:0, the blue edge loses chroma) and 45.1 dB (4:4:4) here.
            let floor: Double = subsampling == .yuv420 ? 30.5 : 44.5
            XCTAssertGreaterThan(psnr(try JPEGTestSupport.syntheticBitmap(), decoded), floor, "\(subsampling)")
        }
    }

    /// 4:2:2 halves chroma across only: luma sampled 2×1 in the frame header,
    /// quality between 4:2:0 and 4:4:4, and a file Pillow (libjpeg-turbo)
    /// decodes as ours does.
    func testQuality90RoundTripsIn422() throws {
        let (decoded, data) = try roundTrip(JPEGEncoder(quality: 90, subsampling: .yuv422))
        let bytes = [UInt8](data)
        let sof = try XCTUnwrap((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        XCTAssertEqual(Array(bytes[(sof + 10)...(sof + 18)]), [1, 0x21, 0, 2, 0x11, 1, 3, 0x11, 1])
        XCTAssertEqual([decoded.width, decoded.height], [45, 37])
        let original = try JPEGTestSupport.syntheticBitmap()
        let (subsampled, _) = try roundTrip(JPEGEncoder(quality: 90, subsampling: .yuv420))
        XCTAssertGreaterThan(psnr(original, decoded), psnr(original, subsampled))
        XCTAssertGreaterThan(psnr(original, decoded), 30.5)
        if let pillow = try IndependentDecoder.pillowDecodeJPEG([data]).first {
            let reference = try XCTUnwrap(pillow, "Pillow refused our 4:2:2 file")
            XCTAssertEqual([reference.width, reference.height], [45, 37])
            XCTAssertGreaterThan(psnr(reference.bitmap, decoded), 40)
        }
    }

    /// An ICC profile goes in APP2 ICC_PROFILE segments of at most 65,519
    /// bytes each, numbered from 1, before the frame; split and joined again
    /// it is the profile given, and Pillow reads it back whole.
    func testAnICCProfileIsCarriedInAPP2Chunks() throws {
        let profile = Data((0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
        var encoder = JPEGEncoder(quality: 80)
        encoder.iccProfile = profile
        let data = try encoder.encode(JPEGTestSupport.syntheticBitmap())
        let bytes = [UInt8](data)
        var chunks: [(sequence: Int, count: Int, body: [UInt8])] = []
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF, bytes[position + 1] != 0xDA {
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            let body = Array(bytes[(position + 4)..<(position + 2 + length)])
            if bytes[position + 1] == 0xE2, body.starts(with: Array("ICC_PROFILE".utf8) + [0]) {
                chunks.append((Int(body[12]), Int(body[13]), Array(body[14...])))
            }
            position += 2 + length
        }
        XCTAssertEqual(chunks.map(\.sequence), [1, 2, 3])
        XCTAssertEqual(Set(chunks.map(\.count)), [3])
        XCTAssertEqual(chunks.map(\.body.count), [65_519, 65_519, 150_000 - 2 * 65_519])
        XCTAssertEqual(Data(chunks.flatMap(\.body)), profile)
        XCTAssertEqual(try JPEGDecoder().decode(data), try JPEGDecoder().decode(JPEGEncoder(quality: 80).encode(JPEGTestSupport.syntheticBitmap())))
        if let pillow = try IndependentDecoder.pillowDecodeJPEG([data]).first {
            XCTAssertEqual(try XCTUnwrap(pillow).iccProfile, profile)
        }
    }

    func testAnICCProfileTooLargeForAPP2IsRefused() throws {
        var encoder = JPEGEncoder()
        encoder.iccProfile = Data(count: 255 * 65_519 + 1)
        XCTAssertThrowsError(try encoder.encode(JPEGTestSupport.syntheticBitmap())) { error in
            XCTAssertEqual(error.jpegError, .cannotEncode("an ICC profile of 16707346 bytes exceeds the 255 APP2 segments of 65519 bytes JPEG allows"))
        }
        encoder.iccProfile = Data()
        XCTAssertFalse(try encoder.encode(JPEGTestSupport.syntheticBitmap()).windowed(0xFF, 0xE2), "an empty profile writes no APP2")
    }

    func testOptimizedHuffmanIsSmallerAndDecodesIdentically() throws {
        let (plain, plainData) = try roundTrip(JPEGEncoder(quality: 80))
        let (optimized, optimizedData) = try roundTrip(JPEGEncoder(quality: 80, optimizeHuffman: true))
        XCTAssertEqual(plain, optimized)  // only the entropy coding differs
        XCTAssertLessThan(optimizedData.count, plainData.count)
    }

    func testRestartIntervalDecodesIdentically() throws {
        let (plain, _) = try roundTrip(JPEGEncoder(quality: 85))
        let (restarted, data) = try roundTrip(JPEGEncoder(quality: 85, restartInterval: 2))
        XCTAssertEqual(plain, restarted)
        XCTAssertTrue(data.windowed(0xFF, 0xD0), "an RST0 marker is written")
    }

    func testGrayscaleWritesOneComponent() throws {
        let (decoded, data) = try roundTrip(JPEGEncoder(quality: 90, grayscale: true))
        let bytes = [UInt8](data)
        let sof = try XCTUnwrap((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        XCTAssertEqual(bytes[sof + 9], 1)
        XCTAssertGreaterThan(psnr(try JPEGTestSupport.syntheticBitmap(), decoded, gray: true), 35)
    }

    func testLowerQualityIsSmaller() throws {
        let high = try JPEGEncoder(quality: 95).encode(JPEGTestSupport.syntheticBitmap())
        let low = try JPEGEncoder(quality: 30).encode(JPEGTestSupport.syntheticBitmap())
        XCTAssertLessThan(low.count, high.count)
    }

    func testIJGQualityScaling() {
        // Quality 50 is the standard table itself; 100 is all ones; 25 doubles it (clamped to 255).
        XCTAssertEqual(JPEGEncoder.scaledTable(JPEGStandardTables.luminanceQuantization, quality: 50),
                       JPEGStandardTables.luminanceQuantization)
        XCTAssertEqual(Set(JPEGEncoder.scaledTable(JPEGStandardTables.luminanceQuantization, quality: 100)), [1])
        XCTAssertEqual(JPEGEncoder.scaledTable([16, 200], quality: 25), [32, 255])
    }

    func testEveryEdgeCaseSizeRoundTripsInEveryMode() throws {
        // Sizes below, at and past the MCU and the encoder's 8- and 16-pixel vector
        // steps, so the replicated right and bottom edges are all exercised.
        let encoders = [JPEGEncoder(quality: 95, subsampling: .yuv444), JPEGEncoder(quality: 95, subsampling: .yuv420),
                        JPEGEncoder(quality: 95, subsampling: .yuv422),
                        JPEGEncoder(quality: 95, subsampling: .yuv422, optimizeHuffman: true, restartInterval: 2),
                        JPEGEncoder(quality: 95, grayscale: true),
                        JPEGEncoder(quality: 95, optimizeHuffman: true, restartInterval: 3)]
        for (width, height) in [(1, 1), (8, 8), (16, 16), (17, 1), (1, 17), (31, 33), (40, 24)] {
            var pixels = [UInt8]()
            for y in 0..<height {
                for x in 0..<width { pixels += [UInt8(40 + x * 5), UInt8(60 + y * 4), UInt8(200 - x - y), 255] }
            }
            let bitmap = try Bitmap(width: width, height: height, rgba: pixels)
            for encoder in encoders {
                let decoded = try JPEGDecoder().decode(try encoder.encode(bitmap))
                XCTAssertEqual(decoded.width, width)
                XCTAssertEqual(decoded.height, height)
                // A smooth gradient survives q95 closely; 4:2:0 of a 1-pixel side loses a little more.
                XCTAssertGreaterThan(psnr(bitmap, decoded, gray: encoder.grayscale), 38, "\(width)×\(height) \(encoder)")
            }
        }
    }

    func testEmptyBitmapIsRefused() throws {
        XCTAssertThrowsError(try JPEGEncoder().encode(Bitmap(width: 0, height: 3)))
    }
}

private extension Data {
    func windowed(_ a: UInt8, _ b: UInt8) -> Bool {
        let bytes = [UInt8](self)
        return (0..<(bytes.count - 1)).contains { bytes[$0] == a && bytes[$0 + 1] == b }
    }
}

extension JPEGEncoderTests {
    func testQualitySetAfterInitIsClamped() throws {
        var encoder = JPEGEncoder()
        encoder.quality = 0
        XCTAssertEqual(encoder.quality, 1)
        encoder.quality = 1000
        XCTAssertEqual(encoder.quality, 100)
        encoder.restartInterval = 1 << 20
        XCTAssertEqual(encoder.restartInterval, 65535)
        encoder.quality = 0
        let image = try Bitmap(width: 16, height: 16, fill: RGBA(200, 100, 50))
        XCTAssertEqual(try JPEGDecoder().decode(try encoder.encode(image)).width, 16)
    }
}
