import Foundation
import XCTest
@testable import ImageCodecs
import Raster

/// The lossless WebP encoder: every picture comes back exact through our
/// decoder, and through libwebp's `dwebp` where it is installed (CI installs
/// it and sets `URLSCHEMEKIT_REQUIRE_DWEBP`, so there it cannot be skipped).
final class WebPLosslessEncoderTests: XCTestCase {
    /// A picture of smooth gradients and noise, too many colours for a palette.
    private func photoLike(width: Int, height: Int, alpha: Bool = false, seed: UInt64 = 1) throws -> Bitmap {
        var random = seed
        func next() -> UInt8 {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: random >> 59)
        }
        var rgba = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                rgba += [UInt8(truncatingIfNeeded: x * 3 + y) &+ next(), UInt8(truncatingIfNeeded: y * 2) &+ next(),
                         UInt8(truncatingIfNeeded: (x ^ y) * 5), alpha ? UInt8(truncatingIfNeeded: x * 7 + y * 3) : 255]
            }
        }
        return try Bitmap(width: width, height: height, rgba: rgba)
    }

    /// A picture of `colors` colours in stripes and blocks.
    private func flat(width: Int, height: Int, colors: Int) throws -> Bitmap {
        var rgba = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                let index = ((x / 3) + (y / 5) * 7) % colors
                rgba += [UInt8(truncatingIfNeeded: index * 37), UInt8(truncatingIfNeeded: index * 91), UInt8(truncatingIfNeeded: index * 13), index % 3 == 0 ? 128 : 255]
            }
        }
        return try Bitmap(width: width, height: height, rgba: rgba)
    }

    /// A map-like picture: water and land split by a wavy coast, a grid of
    /// thin roads, a diagonal road, and shading on the water (a few dozen colours).
    private func mapLike(width: Int, height: Int) throws -> Bitmap {
        var rgba = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                let coast = width / 4 + Int(8 * sin(Double(y) / 9))
                var pixel: [UInt8] = x < coast ? [170, 211, 223, 255] : [242, 239, 233, 255]
                if x >= coast && (x % 23 < 2 || y % 19 < 2) { pixel = [255, 255, 255, 255] }
                if x >= coast && abs((x + 2 * y) % 71 - 35) < 2 { pixel = [252, 214, 164, 255] }
                if x < coast { pixel[2] = UInt8(truncatingIfNeeded: 160 + (x + y) / 8) }
                rgba += pixel
            }
        }
        return try Bitmap(width: width, height: height, rgba: rgba)
    }

    private func assertRoundTrip(_ bitmap: Bitmap, effort: Int = WebPLosslessEncoder.defaultEffort,
                                 file: StaticString = #filePath, line: UInt = #line) throws -> Data {
        let data = try WebPLosslessEncoder(effort: effort).encode(bitmap)
        let decoded = try WebPDecoder().decode(data)
        XCTAssertEqual(decoded.width, bitmap.width, file: file, line: line)
        XCTAssertEqual(decoded.height, bitmap.height, file: file, line: line)
        XCTAssertTrue(decoded.pixels == bitmap.pixels, "pixels differ after the round trip", file: file, line: line)
        return data
    }

    func testPhotoLikePicturesComeBackExact() throws {
        for (width, height) in [(1, 1), (1, 9), (9, 1), (17, 33), (64, 48)] {
            _ = try assertRoundTrip(photoLike(width: width, height: height))
        }
        _ = try assertRoundTrip(photoLike(width: 40, height: 31, alpha: true))
    }

    func testEveryEffortComesBackExact() throws {
        let bitmap = try photoLike(width: 33, height: 20, seed: 7)
        for effort in 0...9 { _ = try assertRoundTrip(bitmap, effort: effort) }
    }

    func testPalettesOfEverySizeComeBackExact() throws {
        for colors in [1, 2, 3, 4, 5, 16, 17, 200, 256] {
            _ = try assertRoundTrip(flat(width: 45, height: 23, colors: colors))
        }
    }

    func testFlatPicturesAreSmallerThanTheirPNG() throws {
        let bitmap = try flat(width: 128, height: 96, colors: 12)
        let webp = try assertRoundTrip(bitmap)
        let png = try PNGEncoder().encode(bitmap)
        XCTAssertLessThan(webp.count, png.count)
        // One colour: a handful of bytes whatever the size.
        XCTAssertLessThan(try assertRoundTrip(Bitmap(width: 300, height: 200, fill: RGBA(10, 20, 30, 255))).count, 64)
    }

    func testTheFileIsAValidLosslessWebP() throws {
        let data = try WebPLosslessEncoder().encode(photoLike(width: 20, height: 10, alpha: true))
        XCTAssertEqual(ImageFormat(sniffing: data), .webp)
        XCTAssertEqual(Array(data[12..<16]), Array("VP8L".utf8))
        XCTAssertEqual(data.count % 2, 0)
        let info = try WebPDecoder().readInfo(data)
        XCTAssertEqual(info.width, 20)
        XCTAssertTrue(info.hasAlpha)
    }

    func testATooWideBitmapIsRefusedByName() throws {
        let bitmap = try Bitmap(width: 16385, height: 1)
        XCTAssertThrowsError(try WebPLosslessEncoder().encode(bitmap)) { error in
            let codec = error as? ImageCodecError
            XCTAssertEqual(codec?.kind, .tooLarge)
            XCTAssertTrue(codec?.message.contains("16384") ?? false, "\(error)")
        }
    }

    func testMapLikePicturesComeBackExactAtEveryEffort() throws {
        let bitmap = try mapLike(width: 150, height: 90)
        for effort in [2, 4, 6, 9] { _ = try assertRoundTrip(bitmap, effort: effort) }
    }

    /// The parse by cost (libwebp's idea of tracing the cheapest path back)
    /// codes a map's rows in fewer bits than copies of the longest match do.
    func testTheCostParseCodesAMapSmallerThanLongestMatches() throws {
        let bitmap = try mapLike(width: 300, height: 200)
        let argb = (0..<(bitmap.width * bitmap.height)).map { index -> UInt32 in
            let p = Array(bitmap.pixels[(4 * index)..<(4 * index + 4)])
            return UInt32(p[3]) << 24 | UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
        }
        func bytes(byCost: Bool) -> Int {
            let writer = VP8LImageWriter(references: VP8LBackwardReferences(chainLength: 48), searchesCacheSizes: true, groupBits: 4,
                                         parsesByCost: byCost)
            var bits = BitWriter(capacity: argb.count)
            writer.write(argb, width: bitmap.width, isMain: true, into: &bits)
            bits.alignToByte()
            return bits.bytes.count
        }
        let longest = bytes(byCost: false), cheapest = bytes(byCost: true)
        XCTAssertLessThan(Double(cheapest), 0.97 * Double(longest), "cost parse \(cheapest) B, longest matches \(longest) B")
    }

    func testLengthAndDistancePrefixesInvertTheDecoders() {
        for value in [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 100, 4096, 1 << 20 - 1] {
            let prefix = VP8LToken.prefix(value)
            // The decoder's reading (RFC 9649 §5.2.2).
            let decoded: Int
            if prefix.symbol < 4 {
                decoded = prefix.symbol + 1
            } else {
                let extraBits = (prefix.symbol - 2) >> 1
                XCTAssertEqual(extraBits, prefix.extraBitCount)
                decoded = ((2 + (prefix.symbol & 1)) << extraBits) + prefix.extraBits + 1
            }
            XCTAssertEqual(decoded, value)
        }
    }

    func testDistancesNameTheirNeighbourhoodCode() {
        // The pixel above is code 1, the one to the left code 2 (RFC 9649 §5.2.2).
        XCTAssertEqual(VP8LBackwardReferences.distanceCode(100, width: 100), 1)
        XCTAssertEqual(VP8LBackwardReferences.distanceCode(1, width: 100), 2)
        XCTAssertEqual(VP8LBackwardReferences.distanceCode(5000, width: 100), 5120)
    }

    /// libwebp's own decoder reads what we write, to the same pixels.
    func testLibwebpDecodesOurFilesExactly() throws {
        for (name, bitmap) in [("photo", try photoLike(width: 37, height: 29, alpha: true)), ("flat", try flat(width: 50, height: 20, colors: 5)),
                               ("many", try flat(width: 31, height: 40, colors: 200)), ("map", try mapLike(width: 130, height: 70))] {
            guard let pixels = try Dwebp.decode(WebPLosslessEncoder().encode(bitmap), name: name) else { continue }
            XCTAssertTrue(pixels == bitmap.pixels, "dwebp decodes \(name).webp to other pixels")
        }
    }
}
