import XCTest
import Raster
@testable import ImageCodecs

/// libwebp's own test vectors (Fixtures/webp, from libwebp-test-data), each
/// checked against what `dwebp -pam` decodes (expectations.tsv, made by
/// Scripts/make_webp_expectations.py).
final class WebPDecoderTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/webp")

    struct Expectation {
        var name: String
        var width: Int
        var height: Int
        var rgba: String
        var alpha: String
    }

    static func expectations() throws -> [Expectation] {
        let table = try String(contentsOf: fixtures.appendingPathComponent("expectations.tsv"), encoding: .utf8)
        return table.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let f = line.split(separator: "\t").map(String.init)
            guard f.count == 5 else { return nil }
            return Expectation(name: f[0], width: Int(f[1])!, height: Int(f[2])!, rgba: f[3], alpha: f[4])
        }
    }

    static func fnv1a64<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: fixtures.appendingPathComponent(name)) }

    private static func isLossless(_ name: String) -> Bool { !name.hasPrefix("alpha_") && !name.hasPrefix("lossy_") }

    func testEveryLosslessVectorDecodesExactlyAsDwebp() throws {
        var checked = 0
        for expected in try Self.expectations() where Self.isLossless(expected.name) {
            // dwebp leaves the EXIF orientation alone; so does this comparison.
            let image = try ImageDecoder.decode(Self.data(expected.name), options: .init(appliesOrientation: false))
            XCTAssertEqual(image.info.format, .webp)
            XCTAssertEqual(image.bitmap.width, expected.width, expected.name)
            XCTAssertEqual(image.bitmap.height, expected.height, expected.name)
            XCTAssertEqual(Self.fnv1a64(image.bitmap.pixels), expected.rgba, "\(expected.name): pixels differ from dwebp's")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 40)
    }

    func testEveryAlphaPlaneEqualsDwebps() throws {
        // Raw and VP8L-compressed planes, each filter: checked on their own
        // (the colour is the lossy decoder's), against dwebp's alpha channel.
        var checked = 0
        for expected in try Self.expectations() where !Self.isLossless(expected.name) {
            let data = try Self.data(expected.name)
            let plane: [UInt8] = try data.withUnsafeBytes { bytes in
                let container = try WebPContainer(parsing: bytes, maximumPixelCount: 1 << 26, maximumFrameCount: 1)
                let alpha = try XCTUnwrap(container.picture.alpha, expected.name)
                XCTAssertEqual(container.width, expected.width)
                return try WebPAlphaDecoder.decode(UnsafeRawBufferPointer(rebasing: bytes[alpha]), width: expected.width,
                                                   height: expected.height, maximumPixelCount: 1 << 26, checkCancellation: {})
            }
            XCTAssertEqual(Self.fnv1a64(plane), expected.alpha, "\(expected.name): alpha differs from dwebp's")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 15)
    }

    func testEveryLossyFileWithAlphaDecodesExactlyAsDwebp() throws {
        // The VP8 decoder's colour (dwebp's fancy upsampling) with the ALPH plane.
        var checked = 0
        for expected in try Self.expectations() where !Self.isLossless(expected.name) {
            let image = try ImageDecoder.decode(Self.data(expected.name))
            XCTAssertTrue(image.info.hasAlpha, expected.name)
            XCTAssertEqual(Self.fnv1a64(image.bitmap.pixels), expected.rgba, "\(expected.name): pixels differ from dwebp's")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 15)
    }

    func testSimpleLossyFilesDecodeThroughImageDecoderAsDwebp() throws {
        // The VP8 fixtures (simple RIFF + "VP8 " files) through the container
        // and ImageDecoder: RGB equal to dwebp -ppm's MD5, alpha 255.
        let folder = VP8TestSupport.fixtures
        let expected = try VP8TestSupport.checksums(folder.appendingPathComponent("checksums.md5"))
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".webp") {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            let image = try ImageDecoder.decode(data)
            XCTAssertEqual(try ImageDecoder.readInfo(data), image.info)
            XCTAssertFalse(image.info.hasAlpha)
            XCTAssertTrue(image.bitmap.isOpaque)
            XCTAssertEqual(MD5.hex(VP8TestSupport.ppm(image.bitmap)), expected[name + ".ppm"], name)
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 20)
    }

    func testReadInfoGivesTheCanvasWithoutDecoding() throws {
        let info = try ImageDecoder.readInfo(Self.data("lossless_vec_1_0.webp"))
        XCTAssertEqual(info, ImageInfo(format: .webp, width: 16, height: 16, hasAlpha: true))
    }

    func testTheExifOrientationIsAppliedAndTheICCProfileCarried() throws {
        // meta_exif_icc.webp is lossless_vec_2_0.webp with EXIF orientation 6
        // and an ICC profile added by webpmux (Scripts/make_webp_fixtures.py).
        let data = try Self.data("meta_exif_icc.webp")
        let info = try ImageDecoder.readInfo(data)
        XCTAssertEqual(info.orientation, .right)
        let stored = try ImageDecoder.decode(Self.data("lossless_vec_2_0.webp")).bitmap
        let image = try ImageDecoder.decode(data)
        XCTAssertEqual(image.bitmap, try stored.upright(from: .right))
        XCTAssertTrue(image.isUpright)
        XCTAssertEqual(image.iccProfile, try Self.data("meta_icc.icc"))
        XCTAssertNil(try ImageDecoder.decode(Self.data("lossless_vec_2_0.webp")).iccProfile)
    }

    func testAFileCutShortIsTruncated() throws {
        // lossless4.webp from the test data is cut short; dwebp refuses it too.
        XCTAssertThrowsError(try ImageDecoder.decode(Self.data("lossless4.webp"))) { error in
            XCTAssertEqual(error.codecErrorKind, .truncated)
            guard case .webp(.truncated)? = (error as? ImageCodecError)?.detail else { return XCTFail("\(error)") }
        }
    }
}
