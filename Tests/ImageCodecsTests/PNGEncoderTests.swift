import XCTest
import Raster
@testable import ImageCodecs

final class PNGEncoderTests: XCTestCase {
    /// A bitmap whose pixels exercise every filter: gradients, edges and noise.
    private func bitmap(width: Int, height: Int, gray: Bool, alpha: Bool, seed: UInt64 = 1) throws -> Bitmap {
        var random = seed &* 0x9E37_79B9_7F4A_7C15
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                random ^= random << 13; random ^= random >> 7; random ^= random << 17
                let noise = UInt8(truncatingIfNeeded: random) & 0x0F
                let r = UInt8(truncatingIfNeeded: x * 5 + y + Int(noise))
                let g = gray ? r : UInt8(truncatingIfNeeded: y * 9 &+ Int(noise) * 3)
                let b = gray ? r : UInt8(truncatingIfNeeded: (x ^ y) * 3)
                let a = alpha ? UInt8(truncatingIfNeeded: 255 - x * 3 - Int(noise)) : 255
                pixels += [r, g, b, a]
            }
        }
        return try Bitmap(width: width, height: height, rgba: pixels)
    }

    func testEveryColourTypeRoundTripsExactlyThroughAnIndependentDecoder() throws {
        var cases: [(String, Bitmap, PNGEncoder, PNGColorType)] = []
        for (w, h) in [(1, 1), (37, 23), (64, 3)] {
            cases.append(("gray \(w)×\(h)", try bitmap(width: w, height: h, gray: true, alpha: false), PNGEncoder(), .gray))
            cases.append(("gray+alpha \(w)×\(h)", try bitmap(width: w, height: h, gray: true, alpha: true), PNGEncoder(), .grayAlpha))
            cases.append(("rgb \(w)×\(h)", try bitmap(width: w, height: h, gray: false, alpha: false), PNGEncoder(), .rgb))
            cases.append(("rgba \(w)×\(h)", try bitmap(width: w, height: h, gray: false, alpha: true), PNGEncoder(), .rgba))
        }
        let photo = try bitmap(width: 50, height: 40, gray: false, alpha: false, seed: 9)
        cases.append(("forced rgba", photo, PNGEncoder(colorType: .rgba), .rgba))
        cases.append(("level 0", photo, PNGEncoder(level: 0), .rgb))
        cases.append(("level 9", photo, PNGEncoder(level: 9), .rgb))

        let files = try cases.map { try $0.2.encode($0.1) }
        let decoded = try IndependentDecoder.pngDecode(files)
        for (i, (name, bitmap, _, type)) in cases.enumerated() {
            XCTAssertEqual(files[i][25], type.rawValue, "\(name): colour type in IHDR")
            let result = try XCTUnwrap(decoded[i], "\(name): the independent decoder refused the file")
            XCTAssertEqual(result.width, bitmap.width, name)
            XCTAssertEqual(result.height, bitmap.height, name)
            XCTAssertEqual(result.rgba, bitmap.pixels, name)
        }
        XCTAssertEqual(ImageFormat(sniffing: files[0]), .png)
    }

    func testEmptyBitmapsAreAnErrorThatSaysSo() throws {
        XCTAssertThrowsError(try PNGEncoder().encode(Bitmap(width: 0, height: 3))) { error in
            XCTAssertEqual(error.pngError, .emptyImage(width: 0, height: 3))
            XCTAssertTrue("\(error)".contains("empty image"))
        }
    }

    func testFlatImagesCompressWell() throws {
        let flat = try Bitmap(width: 300, height: 200, fill: RGBA(170, 211, 223))
        // Pillow (zlib level 6) writes this image in 639 bytes.
        XCTAssertLessThanOrEqual(try PNGEncoder().encode(flat).count, 639)
    }
}

extension PNGEncoderTests {
    func testEncodersStopWhenCancelled() throws {
        struct Stop: Error {}
        var image = try Bitmap(width: 512, height: 512, fill: .white)
        for y in 0..<512 { for x in 0..<512 { image[x, y] = RGBA(UInt8(truncatingIfNeeded: x &* 7 &+ y), UInt8(truncatingIfNeeded: y &* 13), UInt8(truncatingIfNeeded: x ^ y)) } }
        var calls = 0
        let stopAtThird = { calls += 1; if calls == 3 { throw Stop() } }  // PNG (in parts): before filtering, before the round, at the end
        XCTAssertThrowsError(try PNGEncoder().encode(image, checkCancellation: stopAtThird)) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(calls, 3)
        calls = 0
        XCTAssertThrowsError(try JPEGEncoder().encode(image, checkCancellation: stopAtThird)) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(calls, 3)
        XCTAssertEqual(try PNGEncoder().encode(image, checkCancellation: {}), try PNGEncoder().encode(image))
    }
}

extension PNGEncoderTests {
    /// An image with 256 KiB or more of filtered rows is filtered and
    /// compressed in parts of whole rows: python3's zlib and hand-written
    /// filters, and our decoder, give back every pixel; its IDAT data differs
    /// from the whole-input stream (the parted path was taken) but inflates to
    /// the serial path's filtered bytes (level 0 is never parted), so parts
    /// choose the same filters. Run in order on the caller's thread, as on a
    /// one-core machine, the file is byte for byte the same.
    func testLargeImagesCompressedInPartsRoundTripExactlyAndAreTheSameOnAnyMachine() throws {
        let image = try bitmap(width: 420, height: 330, gray: false, alpha: true, seed: 4)
        let filteredCount = (420 * 4 + 1) * 330  // 554,730 bytes: four parts of 83 rows (the last 81)
        XCTAssertEqual(PNGEncoder.partRows(rowBytes: 420 * 4, height: 330), 83)
        let file = try PNGEncoder().encode(image)
        let decoded = try XCTUnwrap(try IndependentDecoder.pngDecode([file])[0], "the independent decoder refused the file")
        XCTAssertEqual(decoded.rgba, image.pixels)
        XCTAssertEqual(try PNGDecoder().decode(file).pixels, image.pixels)

        let idat = Self.idatData(file)
        let filtered = try Inflater.zlibDecompress(idat, limit: filteredCount)
        XCTAssertNotEqual(idat, DeflateEncoder(level: PNGEncoder.defaultLevel).zlibCompress(filtered), "compressed in parts")
        let serial = try PNGEncoder(level: 0).encode(image)
        XCTAssertEqual(try Inflater.zlibDecompress(Self.idatData(serial), limit: filteredCount), filtered)

        var oneCore = PNGEncoder()
        oneCore.concurrentParts = false
        XCTAssertEqual(try oneCore.encode(image), file)
    }

    /// In parts, cancellation is checked on the caller's thread only: before
    /// filtering, before the round of parts, and at the end.
    func testPartedEncodesCheckCancellationOnTheCallersThread() throws {
        let image = try bitmap(width: 420, height: 330, gray: false, alpha: true, seed: 2)
        let caller = pthread_self()
        var calls = 0, otherThread = false
        _ = try PNGEncoder().encode(image) {
            calls += 1
            if pthread_equal(pthread_self(), caller) == 0 { otherThread = true }
        }
        XCTAssertEqual(calls, 3)
        XCTAssertFalse(otherThread)
    }

    /// The IDAT chunks' data, concatenated.
    private static func idatData(_ file: Data) -> [UInt8] {
        let bytes = [UInt8](file)
        var position = 8, data: [UInt8] = []
        while position + 12 <= bytes.count {
            let length = bytes[position..<position + 4].reduce(0) { $0 << 8 | Int($1) }
            if bytes[position + 4..<position + 8].elementsEqual("IDAT".utf8) { data += bytes[position + 8..<position + 8 + length] }
            position += 12 + length
        }
        return data
    }
}
