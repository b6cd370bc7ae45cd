import Foundation
import XCTest
import Raster
@testable import ImageCodecs

/// The one entry point: sniffing, the error kinds callers match on, the JPEG
/// scale a target size picks, orientation (JPEG APP1 and PNG eXIf), encoding.
final class ImageDecoderTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/jpeg")

    func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
    }

    /// A 6×4 picture whose every pixel differs, so any turn or mirror shows.
    func distinctBitmap(width: Int = 6, height: Int = 4) throws -> Bitmap {
        var pixels = [UInt8]()
        for y in 0..<height { for x in 0..<width { pixels += [UInt8((x * 40) & 0xFF), UInt8((y * 60) & 0xFF), UInt8((x * 7 + y * 13) & 0xFF), 255] } }
        return try Bitmap(width: width, height: height, rgba: pixels)
    }

    /// The kind of the `ImageCodecError` `body` throws, failing the test for any other outcome.
    func kind(_ body: () throws -> Any, file: StaticString = #filePath, line: UInt = #line) -> ImageCodecError.Kind? {
        do {
            _ = try body()
            XCTFail("no error", file: file, line: line)
        } catch let error as ImageCodecError {
            XCTAssertEqual(error.message, error.description, file: file, line: line)
            XCTAssertFalse(error.message.isEmpty, file: file, line: line)
            return error.kind
        } catch {
            XCTFail("not an ImageCodecError: \(error)", file: file, line: line)
        }
        return nil
    }

    // MARK: Decoding by sniffing

    func testDecodesJPEGAndPNGWhateverTheyAreCalled() throws {
        let jpeg = try fixture("s420.jpg")
        let decoded = try ImageDecoder.decode(jpeg)
        XCTAssertEqual(decoded.info, ImageInfo(format: .jpeg, width: 45, height: 37, hasAlpha: false))
        XCTAssertEqual(decoded.scale, .full)
        XCTAssertTrue(decoded.isUpright)
        XCTAssertEqual(decoded.bitmap, try JPEGDecoder().decode(jpeg))

        let bitmap = try distinctBitmap()
        let png = try ImageEncoder.encode(bitmap, format: .png)
        let fromPNG = try ImageDecoder.decode(png)
        XCTAssertEqual(fromPNG.info, ImageInfo(format: .png, width: 6, height: 4, hasAlpha: false))
        XCTAssertEqual(fromPNG.bitmap, bitmap)
        XCTAssertEqual(try ImageDecoder.readInfo(png), fromPNG.info)
        XCTAssertEqual(try ImageDecoder.readInfo(jpeg), decoded.info)
    }

    // MARK: One error type, four kinds

    func testBytesOfNoKnownFormatAreUnsupported() {
        for bytes in [Data("BM\u{1}\u{0}\u{1}\u{0}".utf8), Data(), Data([0xFF, 0xD8]), Data("GIF8".utf8)] {
            XCTAssertEqual(kind { try ImageDecoder.decode(bytes) }, .unsupported)
            XCTAssertEqual(kind { try ImageDecoder.readInfo(bytes) }, .unsupported)
        }
        do {
            _ = try ImageDecoder.decode(Data("GIF88a".utf8))
        } catch let error as ImageCodecError where error.kind == .unsupported {
            XCTAssertEqual(error.detail, .unrecognizedFormat)
            XCTAssertTrue(error.message.contains("47 49 46 38 38 61"), error.message)
        } catch {
            XCTFail("\(error)")
        }
        // A JPEG handed to the PNG decoder, and the reverse: not that format.
        XCTAssertEqual(kind { try PNGDecoder().decode(Data([0xFF, 0xD8, 0xFF, 0xE0])) }, .unsupported)
        XCTAssertEqual(kind { try JPEGDecoder().decode(Data([0x89, 0x50, 0x4E, 0x47])) }, .unsupported)
    }

    func testFilesCutShortAreTruncated() throws {
        let jpeg = try fixture("s420.jpg")
        let png = try ImageEncoder.encode(try distinctBitmap(width: 40, height: 30), format: .png)
        for file in [jpeg, png] {
            for fraction in [0.3, 0.66] {
                let cut = file.prefix(Int(Double(file.count) * fraction))
                XCTAssertEqual(kind { try ImageDecoder.decode(cut) }, .truncated, "\(file.count) bytes cut at \(fraction)")
            }
        }
        // The pattern the type is for:
        do {
            _ = try ImageDecoder.decode(png.prefix(50))
            XCTFail("a cut PNG decoded")
        } catch let error as ImageCodecError where error.kind == .truncated {
            guard case .png(.truncated) = error.detail else { return XCTFail("\(error.detail)") }
        }
    }

    func testDamagedFilesAreCorrupt() throws {
        var png = [UInt8](try ImageEncoder.encode(try distinctBitmap(), format: .png))
        png[png.count - 20] ^= 0x55  // inside IDAT: its CRC no longer matches
        XCTAssertEqual(kind { try ImageDecoder.decode(Data(png)) }, .corrupt)

        var jpeg = [UInt8](try fixture("s420.jpg"))
        let dqt = try XCTUnwrap((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDB })
        jpeg[dqt + 4] = 0x07  // quantisation table id 7: only 0–3 exist
        XCTAssertEqual(kind { try ImageDecoder.decode(Data(jpeg)) }, .corrupt)
    }

    func testImagesOverTheLimitsAreTooLarge() throws {
        let options = ImageDecoder.Options(maximumPixelCount: 100)
        let png = try ImageEncoder.encode(try distinctBitmap(width: 20, height: 20), format: .png)
        for file in [try fixture("s420.jpg"), png] {
            XCTAssertEqual(kind { try ImageDecoder.decode(file, options: options) }, .tooLarge)
            XCTAssertEqual(kind { try ImageDecoder.readInfo(file, options: options) }, .tooLarge)
        }
        let progressive = try fixture("progressive420.jpg")
        XCTAssertEqual(kind { try ImageDecoder.decode(progressive, options: .init(maximumScanCount: 2)) }, .tooLarge)
    }

    func testUnsupportedCodingIsUnsupported() throws {
        var jpeg = [UInt8](try fixture("s420.jpg"))
        let sof = try XCTUnwrap((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg[sof + 1] = 0xC9  // SOF9: arithmetic coding
        XCTAssertEqual(kind { try ImageDecoder.decode(Data(jpeg)) }, .unsupported)
    }

    func testEncodersAndInflaterThrowTheSameType() throws {
        let empty = try Bitmap(width: 0, height: 3)
        XCTAssertEqual(kind { try ImageEncoder.encode(empty, format: .png) }, .unsupported)
        XCTAssertEqual(kind { try ImageEncoder.encode(empty, format: .jpeg) }, .unsupported)
        XCTAssertEqual(kind { try Inflater.zlibDecompress([0x78, 0x9C, 0x01], limit: 100) }, .truncated)
        XCTAssertEqual(kind { try Inflater.zlibDecompress([0x78, 0x9C, 0x07, 0x00], limit: 100) }, .corrupt)
    }

    func testCancellationPassesThroughUnchanged() throws {
        let jpeg = try fixture("s420.jpg")
        XCTAssertThrowsError(try ImageDecoder.decode(jpeg) { throw CancellationError() }) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertThrowsError(try ImageEncoder.encode(try distinctBitmap(), format: .png) { throw CancellationError() }) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }

    // MARK: Target size → JPEG scale

    func testATargetSizePicksTheSmallestScaleThatCoversIt() throws {
        let jpeg = try ImageEncoder.encode(try distinctBitmap(width: 64, height: 48), format: .jpeg)
        let cases: [((Int, Int)?, JPEGScale)] = [
            (nil, .full), ((64, 48), .full), ((33, 24), .full), ((32, 24), .half), ((32, 25), .full),
            ((16, 12), .quarter), ((9, 1), .quarter), ((8, 6), .eighth), ((1, 1), .eighth), ((100, 100), .full),
        ]
        for (target, expected) in cases {
            let decoded = try ImageDecoder.decode(jpeg, options: .init(targetSize: target))
            XCTAssertEqual(decoded.scale, expected, "target \(String(describing: target))")
            XCTAssertEqual([decoded.bitmap.width, decoded.bitmap.height], [expected.scaled(64), expected.scaled(48)])
            XCTAssertEqual(decoded.bitmap, try JPEGDecoder().decode(jpeg, scale: expected))
        }
        // A PNG has one scale.
        let png = try ImageEncoder.encode(try distinctBitmap(width: 64, height: 48), format: .png)
        let fromPNG = try ImageDecoder.decode(png, options: .init(targetSize: (8, 6)))
        XCTAssertEqual(fromPNG.scale, .full)
        XCTAssertEqual(fromPNG.bitmap.width, 64)
    }

    func testTheTargetIsUprightUnlessTheOrientationIsLeftAlone() throws {
        // orientation6.jpg: stored 16×8, shown 8×16.
        let info = try ImageDecoder.readInfo(try fixture("orientation6.jpg"))
        XCTAssertEqual([info.uprightWidth, info.uprightHeight], [8, 16])
        XCTAssertEqual(ImageDecoder.jpegScale(for: info, covering: (4, 8)), .half)
        XCTAssertEqual(ImageDecoder.jpegScale(for: info, covering: (4, 8), upright: false), .full)
        XCTAssertEqual(ImageDecoder.jpegScale(for: info, covering: (8, 4), upright: false), .half)
        let decoded = try ImageDecoder.decode(try fixture("orientation6.jpg"), options: .init(targetSize: (4, 8)))
        XCTAssertEqual([decoded.bitmap.width, decoded.bitmap.height, decoded.scale.rawValue], [4, 8, 2])
        // Of two scales giving the same size, the finer is kept.
        let tiny = ImageInfo(format: .jpeg, width: 3, height: 3, hasAlpha: false)
        XCTAssertEqual(ImageDecoder.jpegScale(for: tiny, covering: (1, 1)), .quarter)
    }

    // MARK: Orientation

    func testEXIFOrientationIsAppliedUnlessAskedNot() throws {
        for value in 1...8 {
            let data = try fixture("orientation\(value).jpg")
            let orientation = try XCTUnwrap(ImageOrientation(rawValue: value))
            let stored = try JPEGDecoder().decode(data)
            let upright = try ImageDecoder.decode(data)
            XCTAssertEqual(upright.info.orientation, orientation)
            XCTAssertEqual(upright.bitmap, try stored.upright(from: orientation), "orientation \(value)")
            XCTAssertTrue(upright.isUpright)
            let asStored = try ImageDecoder.decode(data, options: .init(appliesOrientation: false))
            XCTAssertEqual(asStored.bitmap, stored)
            XCTAssertEqual(asStored.isUpright, value == 1)
        }
    }

    /// A PNG with an `eXIf` chunk holding `tiff` inserted after IHDR (or before IEND).
    func png(_ bitmap: Bitmap, exif tiff: [UInt8], afterImageData: Bool = false) throws -> Data {
        var bytes = [UInt8](try PNGEncoder().encode(bitmap))
        var chunk: [UInt8] = [UInt8(tiff.count >> 24), UInt8((tiff.count >> 16) & 0xFF), UInt8((tiff.count >> 8) & 0xFF), UInt8(tiff.count & 0xFF)]
        chunk += Array("eXIf".utf8) + tiff
        let crc = CRC32.checksum(chunk[4...])
        chunk += [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
        bytes.insert(contentsOf: chunk, at: afterImageData ? bytes.count - 12 : 33)  // IEND is the last 12 bytes; IHDR ends at 33
        return Data(bytes)
    }

    /// A TIFF header and one IFD holding only the orientation tag.
    func tiff(orientation: Int, bigEndian: Bool) -> [UInt8] {
        let le: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, UInt8(orientation), 0, 0, 0, 0, 0, 0, 0]
        let be: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation), 0, 0, 0, 0, 0, 0]
        return bigEndian ? be : le
    }

    func testPNGOrientationComesFromEXIf() throws {
        let bitmap = try distinctBitmap()
        let exifPrefix = Array("Exif".utf8) + [0, 0]
        for (tiff, orientation) in [(tiff(orientation: 6, bigEndian: true), ImageOrientation.right),
                                    (tiff(orientation: 8, bigEndian: false), .left),
                                    (tiff(orientation: 3, bigEndian: false), .down),
                                    (exifPrefix + tiff(orientation: 5, bigEndian: true), .leftMirrored)] {
            let file = try png(bitmap, exif: tiff)
            XCTAssertEqual(try PNGDecoder().readInfo(file).orientation, orientation)
            XCTAssertEqual(try PNGDecoder().decode(file), bitmap, "PNGDecoder returns the stored pixels")
            let decoded = try ImageDecoder.decode(file)
            XCTAssertEqual(decoded.info, ImageInfo(format: .png, width: 6, height: 4, orientation: orientation, hasAlpha: false))
            XCTAssertEqual(decoded.bitmap, try bitmap.upright(from: orientation))
            XCTAssertEqual(try ImageDecoder.decode(file, options: .init(appliesOrientation: false)).bitmap, bitmap)
        }
        // A file Pillow wrote, against Pillow's exif_transpose of it (Fixtures/png/README.md).
        let pngFixtures = Self.fixtures.deletingLastPathComponent().appendingPathComponent("png")
        let pillow = try ImageDecoder.decode(Data(contentsOf: pngFixtures.appendingPathComponent("exif-orientation6.png")))
        let transposed = [UInt8](try Data(contentsOf: pngFixtures.appendingPathComponent("exif-orientation6.rgb")))
        XCTAssertEqual(pillow.info.orientation, .right)
        XCTAssertEqual([pillow.bitmap.width, pillow.bitmap.height], [4, 6])
        XCTAssertEqual(stride(from: 0, to: pillow.bitmap.pixels.count, by: 4).flatMap { pillow.bitmap.pixels[$0..<($0 + 3)] }, transposed)

        // After the image data it is not read (readInfo stops there); a malformed one is ignored.
        for file in [try png(bitmap, exif: tiff(orientation: 6, bigEndian: true), afterImageData: true),
                     try png(bitmap, exif: Array(tiff(orientation: 6, bigEndian: true).prefix(12))),
                     try png(bitmap, exif: tiff(orientation: 9, bigEndian: true)),
                     try png(bitmap, exif: [])] {
            XCTAssertEqual(try PNGDecoder().readInfo(file).orientation, .up)
            XCTAssertEqual(try ImageDecoder.decode(file).bitmap, bitmap)
        }
    }

    // MARK: Encoding

    func testTheEncoderWritesWhatTheDecoderReads() throws {
        let bitmap = try distinctBitmap(width: 16, height: 16)
        let png = try ImageEncoder.encode(bitmap, format: .png)
        XCTAssertEqual(ImageFormat(sniffing: png), .png)
        XCTAssertEqual(try ImageDecoder.decode(png).bitmap, bitmap)
        let jpeg = try ImageEncoder.encode(bitmap, format: .jpeg, quality: 95)
        XCTAssertEqual(ImageFormat(sniffing: jpeg), .jpeg)
        XCTAssertEqual(jpeg, try JPEGEncoder(quality: 95).encode(bitmap))
        // JPEG has no alpha: a clear bitmap comes out as the background.
        let clear = try Bitmap(width: 16, height: 16, fill: RGBA(0, 0, 0, 0))
        let flattened = try ImageDecoder.decode(try ImageEncoder.encode(clear, format: .jpeg, background: RGBA(0, 0, 255)))
        let centre = flattened.bitmap[8, 8]
        XCTAssertLessThan(centre.r, 8)
        XCTAssertGreaterThan(centre.b, 247)
    }
}
