import XCTest
import Raster
@testable import ImageCodecs

final class ImageFormatTests: XCTestCase {
    func testSniffsSignaturesNotNames() {
        XCTAssertEqual(ImageFormat(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]), .png)
        XCTAssertEqual(ImageFormat(sniffing: [0xFF, 0xD8, 0xFF, 0xE0]), .jpeg)
        XCTAssertNil(ImageFormat(sniffing: [0x89, 0x50, 0x4E]))
        XCTAssertNil(ImageFormat(sniffing: [UInt8]()))
        XCTAssertEqual(ImageFormat(sniffing: Array("GIF89a".utf8)), .gif)
        XCTAssertEqual(ImageFormat(sniffing: Array("GIF87a\u{1}\0\u{1}\0".utf8)), .gif)
        XCTAssertNil(ImageFormat(sniffing: Array("GIF88a".utf8)))
        XCTAssertNil(ImageFormat(sniffing: Array("GIF8".utf8)))
    }

    /// A WebP is `RIFF`, a 4-byte size (any), then `WEBP`: twelve bytes, more
    /// than the eight that once were enough, so callers pass `sniffedByteCount`.
    func testSniffsWebPFromTwelveBytes() {
        let webp = Array("RIFF".utf8) + [0x24, 0x10, 0, 0] + Array("WEBPVP8 ".utf8)
        XCTAssertEqual(ImageFormat(sniffing: webp), .webp)
        XCTAssertEqual(ImageFormat(sniffing: webp.prefix(ImageFormat.sniffedByteCount)), .webp)
        XCTAssertNil(ImageFormat(sniffing: webp.prefix(11)), "the WEBP tag is cut")
        XCTAssertNil(ImageFormat(sniffing: Array("RIFF".utf8) + [0x24, 0x10, 0, 0] + Array("WAVEfmt ".utf8)), "a RIFF that is no WebP")
        XCTAssertEqual(try ImageDecoder.sniff(Data(webp)), .webp)
    }

    func testNamesAndEncodability() {
        XCTAssertEqual(ImageFormat.allCases.map(\.mimeType), ["image/png", "image/jpeg", "image/gif", "image/webp"])
        XCTAssertEqual(ImageFormat.allCases.map(\.fileExtension), ["png", "jpg", "gif", "webp"])
        XCTAssertEqual(ImageFormat.allCases.filter(\.isEncodable), [.png, .jpeg, .gif, .webp])
        XCTAssertEqual(ImageFormat.encodable, [.png, .jpeg, .webp, .gif])
        XCTAssertEqual(ImageFormat.allCases.filter(\.canAnimate), [.gif, .webp])
    }

    func testGIFIsWrittenThroughTheOneEntryPointAndPNGHoldsNoAnimation() throws {
        let bitmap = try Bitmap(width: 2, height: 2, fill: RGBA(1, 2, 3))
        let gif = try ImageEncoder.encode(bitmap, format: .gif)
        XCTAssertEqual(ImageFormat(sniffing: gif), .gif)
        XCTAssertTrue(try ImageDecoder.decode(gif).bitmap == bitmap)
        XCTAssertThrowsError(try AnimationEncoder.make(.png, width: 2, height: 2, loopCount: 0)) { error in
            let codec = error as? ImageCodecError
            XCTAssertEqual(codec?.kind, .unsupported)
            XCTAssertEqual(codec?.detail, .notEncodable(.png))
            XCTAssertEqual(codec?.message, "PNG holds no animation: GIF and WebP do")
        }
    }

    func testWebPIsWrittenLossyOrLosslessThroughTheOneEntryPoint() throws {
        let bitmap = try Bitmap(width: 3, height: 2, rgba: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24])
        let lossless = try ImageEncoder.encode(bitmap, format: .webp, lossless: true)
        XCTAssertEqual(ImageFormat(sniffing: lossless), .webp)
        XCTAssertEqual(try WebPDecoder().decode(lossless), bitmap)
        // Lossy by default (cwebp's q75): colour close, alpha exact.
        let lossy = try ImageEncoder.encode(bitmap, format: .webp)
        XCTAssertNotNil(lossy.range(of: Data("VP8 ".utf8)))
        let decoded = try WebPDecoder().decode(lossy)
        for index in bitmap.pixels.indices {
            if index % 4 == 3 {
                XCTAssertEqual(decoded.pixels[index], bitmap.pixels[index], "alpha of pixel \(index / 4)")
            } else {
                XCTAssertLessThanOrEqual(abs(Int(decoded.pixels[index]) - Int(bitmap.pixels[index])), 8, "byte \(index)")
            }
        }
    }

    func testUnknownBytesNameTheFormatsRead() {
        XCTAssertThrowsError(try ImageDecoder.decode(Data("BM not an image".utf8))) { error in
            XCTAssertEqual((error as? ImageCodecError)?.detail, .unrecognizedFormat)
            XCTAssertEqual((error as? ImageCodecError)?.message,
                           "the data is not PNG, JPEG, GIF or WebP: its first bytes 42 4D 20 6E 6F 74 20 61 6E 20 69 6D match no known signature")
        }
    }
}
