import Foundation
import XCTest
@testable import ImageCodecs
import Raster

/// Malformed input must throw a named error: never trap, hang or allocate without bound.
final class JPEGHostileInputTests: XCTestCase {
    func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: JPEGDecoderTests.fixtures.appendingPathComponent(name)))
    }

    func testEveryTruncationThrowsOrDecodes() throws {
        for name in ["s420.jpg", "progressive420.jpg", "restart420.jpg"] {
            let bytes = try fixture(name)
            var errors = 0
            for length in 0..<bytes.count {
                do { _ = try JPEGDecoder().decode(Data(bytes[0..<length])) } catch { errors += 1 }
            }
            // Cutting into the headers must fail; only cuts late in the scan data may still decode.
            XCTAssertGreaterThan(errors, bytes.count / 3, name)
        }
    }

    func testRandomCorruptionNeverTraps() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for name in ["s420.jpg", "progressive444.jpg", "cmyk.jpg", "restart420.jpg"] {
            let original = try fixture(name)
            for _ in 0..<150 {
                var bytes = original
                for _ in 0..<(1 + next() % 4) {
                    bytes[next() % bytes.count] = UInt8(truncatingIfNeeded: next())
                }
                _ = try? JPEGDecoder().decode(Data(bytes))
                _ = try? JPEGDecoder().decode(Data(bytes), scale: .quarter)
            }
        }
    }

    func testHugeDimensionsAreRefusedBeforeAllocation() throws {
        var bytes = try fixture("s420.jpg")
        let sof = try XCTUnwrap((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 5] = 0xFF; bytes[sof + 6] = 0xFF  // height 65535
        bytes[sof + 7] = 0xFF; bytes[sof + 8] = 0xFF  // width 65535
        XCTAssertThrowsError(try JPEGDecoder().decode(Data(bytes))) { error in
            XCTAssertEqual(error.jpegError, .tooManyPixels(width: 65535, height: 65535, limit: defaultMaximumPixelCount))
        }
        XCTAssertThrowsError(try JPEGDecoder(maximumPixelCount: 100).readInfo(Data(try fixture("s420.jpg"))))
    }

    func testOversubscribedHuffmanTableIsRefused() throws {
        var bytes = try fixture("s420.jpg")
        let dht = try XCTUnwrap((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC4 })
        // First table (standard DC luminance: 0,1,5,...): three codes of length 1 cannot exist;
        // take three from length 3 so the symbol count still matches.
        XCTAssertEqual(Array(bytes[(dht + 5)...(dht + 7)]), [0, 1, 5])
        bytes[dht + 5] = 3
        bytes[dht + 7] = 2
        XCTAssertThrowsError(try JPEGDecoder().decode(Data(bytes))) { error in
            XCTAssertTrue("\(error)".contains("Huffman"), "\(error)")
        }
    }

    func testNotJPEGAndEmptyData() {
        XCTAssertThrowsError(try JPEGDecoder().decode(Data())) { XCTAssertEqual($0.jpegError, .notJPEG) }
        XCTAssertThrowsError(try JPEGDecoder().readInfo(Data([0x89, 0x50, 0x4E, 0x47]))) { XCTAssertEqual($0.jpegError, .notJPEG) }
    }

    /// A file cut in the middle of its scan is an error, not an image whose
    /// lower part is invented grey.
    func testAScanCutShortThrowsTruncated() throws {
        for name in ["s420.jpg", "progressive420.jpg", "restart420.jpg"] {
            let bytes = try fixture(name)
            XCTAssertThrowsError(try JPEGDecoder().decode(Data(bytes[0..<(bytes.count * 2 / 3)])), name) { error in
                guard case .some(.truncated) = error.jpegError else { return XCTFail("\(name): \(error)") }
            }
        }
    }

    /// Each restart interval may pad its lookahead past the marker: thousands
    /// of intervals must not add up to a "truncated" verdict.
    func testThousandsOfRestartIntervalsDecode() throws {
        var bitmap = try Bitmap(width: 512, height: 256)
        for y in 0..<256 { for x in 0..<512 { bitmap[x, y] = RGBA(UInt8(x / 2), UInt8(y), UInt8((x ^ y) & 255)) } }
        let plain = try JPEGDecoder().decode(JPEGEncoder(quality: 80).encode(bitmap))
        let restarted = try JPEGDecoder().decode(JPEGEncoder(quality: 80, restartInterval: 1).encode(bitmap))
        XCTAssertEqual(restarted, plain)
    }
}

/// Files that are small but would cost much: many scans, scans that do not
/// follow each other, frames the data could never fill.
final class JPEGResourceBudgetTests: XCTestCase {
    /// 1,024 × 1,024 grey: 16,384 blocks, whose DC scan needs 2 KiB of data.
    private func progressiveWithDC() -> SyntheticJPEG {
        var file = SyntheticJPEG(width: 1024, height: 1024, progressive: true)
        file.scan(ss: 0, se: 0, ah: 0, al: 0, data: [UInt8](repeating: 0, count: 16384 / 8))
        return file
    }

    func testAValidProgressiveSuccessionDecodes() throws {
        var file = progressiveWithDC()
        let run = SyntheticJPEG.endOfBandRuns(blocks: 16384)
        file.scan(ss: 1, se: 63, ah: 0, al: 2, data: run)
        file.scan(ss: 1, se: 63, ah: 2, al: 1, data: run)
        file.scan(ss: 1, se: 63, ah: 1, al: 0, data: run)
        let bitmap = try JPEGDecoder().decode(file.data)
        XCTAssertEqual(bitmap.width, 1024)
    }

    func testMoreScansThanTheLimitAreRefused() throws {
        var file = progressiveWithDC()
        for band in 1...63 { file.scan(ss: band, se: band, ah: 0, al: 0, data: SyntheticJPEG.endOfBandRuns(blocks: 16384)) }
        XCTAssertNoThrow(try JPEGDecoder(maximumScanCount: 64).decode(file.data))
        XCTAssertThrowsError(try JPEGDecoder(maximumScanCount: 63).decode(file.data)) { error in
            XCTAssertEqual(error.jpegError, .tooManyScans(limit: 63))
        }
    }

    func testARepeatedFirstScanIsRefused() throws {
        var file = progressiveWithDC()
        let run = SyntheticJPEG.endOfBandRuns(blocks: 16384)
        file.scan(ss: 1, se: 63, ah: 0, al: 0, data: run)
        file.scan(ss: 1, se: 63, ah: 0, al: 0, data: run)
        XCTAssertThrowsError(try JPEGDecoder().decode(file.data)) { error in
            XCTAssertEqual(error.jpegError, .invalidSegment("scan of component 1, coefficient 1 with Ah=0 after a scan that left Al=0"))
        }
    }

    func testRefinementsMustFollowTheirFirstScan() throws {
        let run = SyntheticJPEG.endOfBandRuns(blocks: 16384)
        var skipped = progressiveWithDC()
        skipped.scan(ss: 1, se: 63, ah: 0, al: 3, data: run)
        skipped.scan(ss: 1, se: 63, ah: 2, al: 1, data: run)  // Ah must be 3
        XCTAssertThrowsError(try JPEGDecoder().decode(skipped.data)) { error in
            XCTAssertEqual(error.jpegError, .invalidSegment("scan of component 1, coefficient 1 with Ah=2 after a scan that left Al=3"))
        }
        var early = SyntheticJPEG(width: 1024, height: 1024, progressive: true)
        early.scan(ss: 1, se: 63, ah: 0, al: 0, data: run)
        XCTAssertThrowsError(try JPEGDecoder().decode(early.data)) { error in
            XCTAssertEqual(error.jpegError, .invalidSegment("AC scan of component 1 before its DC scan"))
        }
        var jump = progressiveWithDC()
        jump.scan(ss: 0, se: 0, ah: 3, al: 1, data: [UInt8](repeating: 0, count: 16384 / 8))
        XCTAssertThrowsError(try JPEGDecoder().decode(jump.data)) { error in
            XCTAssertEqual(error.jpegError, .invalidSegment("refinement scan Ah=3 Al=1: Al must be Ah - 1"))
        }
    }

    func testAFrameTheDataCannotFillIsRefusedBeforeAllocating() throws {
        // 8,192 × 8,192 (a million blocks, 128 MiB of coefficients) and a 100-byte scan.
        for progressive in [true, false] {
            var file = SyntheticJPEG(width: 8192, height: 8192, progressive: progressive)
            file.scan(ss: 0, se: progressive ? 0 : 63, ah: 0, al: 0, data: [UInt8](repeating: 0, count: 100))
            XCTAssertLessThan(file.bytes.count, 300)
            XCTAssertThrowsError(try JPEGDecoder().decode(file.data)) { error in
                guard case .truncated(let what)? = error.jpegError else { return XCTFail("\(error)") }
                XCTAssertTrue(what.hasPrefix("a scan of 1048576 blocks"), what)
            }
        }
    }

    func testRestartMarkersDoNotStandInForData() throws {
        // 1,024 blocks in intervals of 16, all but the first empty: their
        // blocks would decode from the reader's zero padding alone.
        var file = SyntheticJPEG(width: 256, height: 256, progressive: true)
        file.segment(0xDD, [0, 16])
        var data: [UInt8] = [0, 0]  // the first interval's 16 bits
        for index in 1..<64 { data += [0xFF, UInt8(0xD0 + (index - 1) % 8)] }
        file.scan(ss: 0, se: 0, ah: 0, al: 0, data: data)
        XCTAssertThrowsError(try JPEGDecoder().decode(file.data)) { error in
            XCTAssertEqual(error.jpegError, .truncated("scan 1 (entropy-coded scan data)"))
        }
    }

    func testCancellationStopsTheDecodeWithinARowOfMCUs() throws {
        struct Stop: Error {}
        for name in ["s420.jpg", "progressive420.jpg"] {
            let data = try Data(contentsOf: JPEGDecoderTests.fixtures.appendingPathComponent(name))
            var calls = 0
            XCTAssertThrowsError(try JPEGDecoder().decodeImage(data) {
                calls += 1
                if calls == 3 { throw Stop() }
            }, name) { XCTAssertTrue($0 is Stop) }
            XCTAssertEqual(calls, 3, name)
        }
    }
}
