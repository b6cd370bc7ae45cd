import Foundation
import XCTest
import Raster
@testable import ImageCodecs

/// Progressive output (`JPEGEncoder.progressive`): the same quantised
/// coefficients as a baseline file, sent in libjpeg's simple progression with
/// tables optimised per scan, so every decoder reads the same pixels back.
final class JPEGProgressiveEncoderTests: XCTestCase {
    static let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/jpeg/ijg/testorig.jpg")

    /// The IJG test photo (227×149), as our decoder reads it.
    func photo() throws -> Bitmap {
        try JPEGDecoder().decode(try Data(contentsOf: JPEGProgressiveEncoderTests.photo))
    }

    /// The frame marker of a file: 0xC0 baseline, 0xC2 progressive.
    func frameMarker(_ data: Data) -> UInt8? {
        let bytes = [UInt8](data)
        return (0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && (0xC0...0xC2).contains(bytes[$0 + 1]) }.map { bytes[$0 + 1] }
    }

    /// Start-of-scan markers in a file.
    func scanCount(_ data: Data) -> Int {
        let bytes = [UInt8](data)
        return (0..<(bytes.count - 1)).filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }.count
    }

    /// A picture with noise, so every band has coefficients to refine and
    /// zero runs long enough for ZRL symbols with correction bits.
    func noisyBitmap(width: Int, height: Int) throws -> Bitmap {
        var state: UInt32 = 12345
        var pixels = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_103_515_245 &+ 12345
                let noise = Int(state >> 26)
                pixels += [UInt8((x * 7 + noise) & 255), UInt8((y * 5 + noise / 2) & 255), UInt8((x * y / 3 + noise) & 255), 255]
            }
        }
        return try Bitmap(width: width, height: height, rgba: pixels)
    }

    func testProgressiveDecodesToTheBaselinePixelsInEverySampling() throws {
        let images = [try photo(), try noisyBitmap(width: 45, height: 37), try JPEGTestSupport.syntheticBitmap()]
        let modes: [(JPEGEncoder.Subsampling, Bool)] = [(.yuv420, false), (.yuv422, false), (.yuv444, false), (.yuv420, true)]
        for image in images {
            for (subsampling, gray) in modes {
                for quality in [50, 90, 100] {
                    let baseline = JPEGEncoder(quality: quality, subsampling: subsampling, grayscale: gray)
                    var progressive = baseline
                    progressive.progressive = true
                    let data = try progressive.encode(image)
                    XCTAssertEqual(frameMarker(data), 0xC2)
                    XCTAssertEqual(scanCount(data), gray ? 6 : 10, "libjpeg's simple progression")
                    let expected = try JPEGDecoder().decode(try baseline.encode(image))
                    XCTAssertEqual(try JPEGDecoder().decode(data), expected, "\(image.width)×\(image.height) \(subsampling) gray \(gray) q\(quality)")
                }
            }
        }
    }

    func testOddSizesRoundTrip() throws {
        for (width, height) in [(1, 1), (17, 9), (9, 17), (33, 2)] {
            let image = try noisyBitmap(width: width, height: height)
            for encoder in [JPEGEncoder(quality: 90, subsampling: .yuv420), JPEGEncoder(quality: 90, subsampling: .yuv422),
                            JPEGEncoder(quality: 90, subsampling: .yuv444), JPEGEncoder(quality: 90, grayscale: true)] {
                var progressive = encoder
                progressive.progressive = true
                let decoded = try JPEGDecoder().decode(try progressive.encode(image))
                XCTAssertEqual([decoded.width, decoded.height], [width, height])
                XCTAssertEqual(decoded, try JPEGDecoder().decode(try encoder.encode(image)), "\(width)×\(height) \(encoder)")
            }
        }
    }

    func testRestartIntervalsInProgressiveScans() throws {
        let image = try noisyBitmap(width: 61, height: 43)
        for interval in [1, 2, 5] {
            let encoder = JPEGEncoder(quality: 85, subsampling: .yuv420, restartInterval: interval)
            var progressive = encoder
            progressive.progressive = true
            let data = try progressive.encode(image)
            XCTAssertTrue([UInt8](data).indices.dropLast().contains { data[$0] == 0xFF && data[$0 + 1] == 0xD0 }, "RST0 written")
            XCTAssertEqual(try JPEGDecoder().decode(data), try JPEGDecoder().decode(try encoder.encode(image)), "interval \(interval)")
        }
    }

    /// A flat picture of more than 32,767 blocks: every AC scan is one long
    /// end-of-band run, which must be split at JPEG's longest run.
    func testEndOfBandRunsLongerThanTheLongestCodedRun() throws {
        let image = try Bitmap(width: 64, height: 8 * 4_104, fill: RGBA(90, 90, 90))
        var encoder = JPEGEncoder(quality: 75, grayscale: true)
        encoder.progressive = true
        let decoded = try JPEGDecoder().decode(try encoder.encode(image))
        XCTAssertEqual([decoded.width, decoded.height], [64, 8 * 4_104])
        XCTAssertTrue(decoded.pixels.enumerated().allSatisfy { $0.offset % 4 == 3 || abs(Int($0.element) - 90) <= 1 })
    }

    /// The photo: Pillow (libjpeg-turbo) reads our progressive files (4:2:0,
    /// 4:2:2, 4:4:4, grayscale, with restart markers) as we do, and the 4:2:0
    /// file is smaller than the baseline files with standard or optimised tables.
    func testPhotoIsSmallerThanBaselineAndPillowAgrees() throws {
        let image = try photo()
        let baseline = try JPEGEncoder(quality: 90).encode(image)
        let optimized = try JPEGEncoder(quality: 90, optimizeHuffman: true).encode(image)
        let data = try JPEGEncoder(quality: 90, progressive: true).encode(image)
        XCTAssertLessThan(data.count, baseline.count)
        XCTAssertLessThan(data.count, optimized.count)
        print("testorig.jpg q90 4:2:0: baseline \(baseline.count) B, optimised \(optimized.count) B, progressive \(data.count) B")
        var files = [data]
        for subsampling in [JPEGEncoder.Subsampling.yuv422, .yuv444] {
            files.append(try JPEGEncoder(quality: 90, subsampling: subsampling, progressive: true).encode(image))
        }
        files.append(try JPEGEncoder(quality: 90, grayscale: true, progressive: true).encode(image))
        files.append(try JPEGEncoder(quality: 90, restartInterval: 3, progressive: true).encode(image))
        // Noise at q100 and q50: long zero runs among refined coefficients (ZRLs
        // carrying correction bits) and end-of-band runs in every band.
        let noise = try noisyBitmap(width: 45, height: 37)
        files.append(try JPEGEncoder(quality: 100, subsampling: .yuv444, progressive: true).encode(noise))
        files.append(try JPEGEncoder(quality: 50, progressive: true).encode(noise))
        let decodes = try IndependentDecoder.pillowDecodeJPEG(files)
        for (index, pillow) in decodes.enumerated() {
            let reference = try XCTUnwrap(pillow, "Pillow refused progressive file \(index)")
            let mine = try JPEGDecoder().decode(files[index])
            XCTAssertEqual([reference.width, reference.height], [mine.width, mine.height])
            XCTAssertGreaterThan(JPEGTestSupport.psnr(reference.bitmap, mine), 45, "file \(index)")
        }
    }

    func testCancellationEndsAProgressiveEncode() throws {
        var calls = 0
        let encoder = JPEGEncoder(quality: 90, progressive: true)
        XCTAssertThrowsError(try encoder.encode(try noisyBitmap(width: 64, height: 64)) {
            calls += 1
            if calls == 3 { throw CancellationError() }
        }) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(calls, 3)
    }

    func testImageEncoderWritesProgressiveWhenAsked() throws {
        let image = try JPEGTestSupport.syntheticBitmap()
        XCTAssertEqual(frameMarker(try ImageEncoder.encode(image, format: .jpeg, progressive: true)), 0xC2)
        XCTAssertEqual(frameMarker(try ImageEncoder.encode(image, format: .jpeg)), 0xC0)
    }
}
