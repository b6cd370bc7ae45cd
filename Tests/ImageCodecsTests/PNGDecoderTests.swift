import XCTest
import Raster
@testable import ImageCodecs

final class PNGDecoderTests: XCTestCase {
    private static let suite = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/pngsuite")

    private func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    func testEveryPngSuiteImageDecodesToTheIndependentDecodersPixels() throws {
        let table = try String(contentsOf: Self.suite.appendingPathComponent("expectations.tsv"), encoding: .utf8)
        var checked = 0
        for line in table.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t").map(String.init)
            let name = fields[0]
            let bitmap = try PNGDecoder().decode(Data(contentsOf: Self.suite.appendingPathComponent(name)))
            XCTAssertEqual(bitmap.width, Int(fields[1]), name)
            XCTAssertEqual(bitmap.height, Int(fields[2]), name)
            XCTAssertEqual(String(format: "%08x", CRC32.checksum(bitmap.pixels)), fields[3], "\(name): pixels differ")
            XCTAssertEqual(String(fnv1a64(bitmap.pixels), radix: 16).leftPadded(to: 16), fields[4], "\(name): pixels differ")
            checked += 1
        }
        XCTAssertEqual(checked, 160)
    }

    func testEveryCorruptPngSuiteFileIsRefusedWithAReason() throws {
        let expected: [String: String] = [
            "xc1n0g08.png": "invalid PNG: colour type 1; allowed: 0, 2, 3, 4, 6",
            "xc9n2c08.png": "invalid PNG: colour type 9; allowed: 0, 2, 3, 4, 6",
            "xcrn0g04.png": "not a PNG file: the 8-byte signature is wrong",
            "xlfn0g04.png": "not a PNG file: the 8-byte signature is wrong",
            "xs1n0g01.png": "not a PNG file: the 8-byte signature is wrong",
            "xs2n0g01.png": "not a PNG file: the 8-byte signature is wrong",
            "xs4n0g01.png": "not a PNG file: the 8-byte signature is wrong",
            "xs7n0g01.png": "not a PNG file: the 8-byte signature is wrong",
            "xcsn0g01.png": "PNG chunk IDAT fails its CRC check (the file is damaged)",
            "xhdn0g08.png": "PNG chunk IHDR fails its CRC check (the file is damaged)",
            "xd0n2c08.png": "invalid PNG: bit depth 0 with colour type 2; allowed: 8, 16",
            "xd3n2c08.png": "invalid PNG: bit depth 3 with colour type 2; allowed: 8, 16",
            "xd9n2c08.png": "invalid PNG: bit depth 99 with colour type 2; allowed: 8, 16",
            "xdtn0g01.png": "invalid PNG: no IDAT chunk: the file has no image data",
        ]
        let corrupt = try FileManager.default.contentsOfDirectory(atPath: Self.suite.path).filter { $0.hasPrefix("x") && $0.hasSuffix(".png") }
        XCTAssertEqual(Set(corrupt), Set(expected.keys))
        for (name, message) in expected {
            XCTAssertThrowsError(try PNGDecoder().decode(Data(contentsOf: Self.suite.appendingPathComponent(name))), name) { error in
                XCTAssertEqual("\(error)", message, name)
            }
        }
    }

    func testTruncationsAbsurdSizesAndUnknownCriticalChunksAreErrors() throws {
        let file = Array(try Data(contentsOf: Self.suite.appendingPathComponent("basn2c08.png")))
        for cut in 0..<file.count {
            XCTAssertThrowsError(try PNGDecoder().decode(Data(file.prefix(cut))), "cut at \(cut)")
        }
        // An IHDR claiming 100,000 × 100,000 pixels is refused before any allocation.
        var huge = Array(file.prefix(33))
        huge.replaceSubrange(16..<24, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
        let crc = CRC32.checksum(huge[12..<29])
        huge.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)])
        XCTAssertThrowsError(try PNGDecoder().decode(Data(huge))) { error in
            XCTAssertEqual(error.pngError, .tooManyPixels(width: 100_000, height: 100_000, limit: defaultMaximumPixelCount))
        }
        XCTAssertThrowsError(try PNGDecoder(maximumPixelCount: 100).decode(Data(file))) { error in
            XCTAssertEqual(error.pngError, .tooManyPixels(width: 32, height: 32, limit: 100))
        }
        // A critical chunk nobody knows (upper-case first letter) must stop decoding.
        var chunk: [UInt8] = [0, 0, 0, 1] + Array("ABCD".utf8) + [7]
        let chunkCRC = CRC32.checksum(chunk[4...])
        chunk += [UInt8(chunkCRC >> 24), UInt8((chunkCRC >> 16) & 0xFF), UInt8((chunkCRC >> 8) & 0xFF), UInt8(chunkCRC & 0xFF)]
        let withUnknown = Array(file.prefix(33)) + chunk + Array(file.dropFirst(33))
        XCTAssertThrowsError(try PNGDecoder().decode(Data(withUnknown))) { XCTAssertEqual("\($0)", "invalid PNG: unknown critical chunk ABCD") }
    }

    func testOurFilesRoundTripAndDescribeThemselves() throws {
        var pixels: [UInt8] = []
        for i in 0..<(23 * 17) { pixels += [UInt8(i % 251), UInt8(i * 7 % 256), UInt8(i * 13 % 256), UInt8(255 - i % 200)] }
        let bitmap = try Bitmap(width: 23, height: 17, rgba: pixels)
        for type in PNGColorType.allCases where type == .rgba {
            let file = try PNGEncoder(colorType: type).encode(bitmap)
            XCTAssertEqual(try PNGDecoder().decode(file), bitmap)
            XCTAssertEqual(try PNGDecoder().readInfo(file), ImageInfo(format: .png, width: 23, height: 17, hasAlpha: true))
        }
        let opaque = try Bitmap(width: 9, height: 4, fill: RGBA(1, 2, 3))
        XCTAssertEqual(try PNGDecoder().decode(PNGEncoder().encode(opaque)), opaque)
        XCTAssertFalse(try PNGDecoder().readInfo(PNGEncoder().encode(opaque)).hasAlpha)
    }
}

private extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}

extension PNGDecoderTests {
    func testReadInfoAndSixteenBitSamplesKeepToThePixelBudget() throws {
        // basn6a16: 32 × 32 RGBA, 16 bits per sample (8 bytes per pixel).
        let rgba16 = try Data(contentsOf: Self.suite.appendingPathComponent("basn6a16.png"))
        XCTAssertThrowsError(try PNGDecoder(maximumPixelCount: 1000).readInfo(rgba16)) { error in
            XCTAssertEqual(error.pngError, .tooManyPixels(width: 32, height: 32, limit: 1000))
        }
        // 1,024 pixels fit a limit of 1,500, but their 8,192 bytes of samples
        // do not fit the 6,000 bytes that many pixels of bitmap take.
        for decode in [{ try PNGDecoder(maximumPixelCount: 1500).readInfo(rgba16) as Any },
                       { try PNGDecoder(maximumPixelCount: 1500).decode(rgba16) as Any }] {
            XCTAssertThrowsError(try decode()) { error in
                XCTAssertEqual(error.pngError, .tooManySampleBytes(width: 32, height: 32, bytes: 8192, limit: 6000))
            }
        }
        XCTAssertEqual(try PNGDecoder(maximumPixelCount: 2048).decode(rgba16).width, 32)
        let rgba8 = try Data(contentsOf: Self.suite.appendingPathComponent("basn6a08.png"))
        XCTAssertEqual(try PNGDecoder(maximumPixelCount: 1024).decode(rgba8).width, 32)
    }
}
