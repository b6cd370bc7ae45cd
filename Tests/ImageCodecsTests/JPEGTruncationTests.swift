import Foundation
import XCTest
@testable import ImageCodecs
import Raster

/// A file cut short is refused, wherever the cut falls: inside a scan, between
/// the scans of a progressive file, or a few bytes before the end of the only
/// scan. Only a file whose data is complete and that lacks just its EOI marker
/// decodes (as libjpeg-turbo decodes it, with a warning).
final class JPEGTruncationTests: XCTestCase {
    private func ijg(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: JPEGDecoderTests.ijgImages.appendingPathComponent(name)))
    }

    private func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: JPEGDecoderTests.fixtures.appendingPathComponent(name)))
    }

    /// Offsets of the markers that end a scan's entropy-coded data (the next
    /// DHT or SOS after the first SOS), not counting the EOI.
    private func scanEnds(_ bytes: [UInt8]) -> [Int] {
        guard let firstScan = (0..<(bytes.count - 1)).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }) else { return [] }
        return ((firstScan + 2)..<(bytes.count - 1)).filter { i in
            bytes[i] == 0xFF && [0xC4, 0xDA, 0xDB, 0xDD].contains(bytes[i + 1])
        }
    }

    private func assertTruncated(_ bytes: ArraySlice<UInt8>, scale: JPEGScale, _ message: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try JPEGDecoder().decode(Data(bytes), scale: scale), "\(message) at 1/\(scale.rawValue)",
                             file: file, line: line) { error in
            guard case .truncated? = error.jpegError else {
                return XCTFail("\(message) at 1/\(scale.rawValue): \(error)", file: file, line: line)
            }
        }
    }

    /// Cut where a scan ends (12 %, 23 %, 38 %... of the file): the scans
    /// before decode cleanly, but the picture is a blurred preview, not the image.
    func testAProgressiveFileCutAtTheEndOfAScanIsRefused() throws {
        for name in ["testprog.jpg"] {
            let bytes = try ijg(name)
            let ends = scanEnds(bytes)
            XCTAssertGreaterThanOrEqual(ends.count, 5, name)
            for end in ends {
                for scale in JPEGScale.allCases {
                    assertTruncated(bytes[0..<end], scale: scale, "\(name) cut at \(end) of \(bytes.count)")
                }
            }
        }
        let small = try fixture("progressive420.jpg")
        for end in scanEnds(small) { assertTruncated(small[0..<end], scale: .full, "progressive420.jpg cut at \(end)") }
    }

    /// The bit reader may feed zeros past the end of the data for its
    /// lookahead; they must never stand in for the last blocks' bits.
    func testABaselineFileMissingItsLastBytesIsRefused() throws {
        for name in ["testorig.jpg", "testimgint.jpg"] {
            let bytes = try ijg(name)
            for missing in 3...40 {
                for scale in JPEGScale.allCases {
                    assertTruncated(bytes[0..<(bytes.count - missing)], scale: scale, "\(name) missing \(missing) bytes")
                }
            }
        }
        for name in ["s420.jpg", "s422.jpg", "restart420.jpg", "gray.jpg"] {
            let bytes = try fixture(name)
            for missing in 3...20 { assertTruncated(bytes[0..<(bytes.count - missing)], scale: .full, "\(name) missing \(missing) bytes") }
        }
    }

    /// The whole image is there and only the EOI marker is missing: a
    /// sequential file decodes, identical to the complete file (libjpeg-turbo
    /// does the same, with a warning). A progressive one is refused at every
    /// scale: at 1/8 its AC scans are skipped unread, so nothing shows its
    /// last scan is whole.
    func testCompleteDataWithoutEOI() throws {
        for bytes in [try ijg("testorig.jpg"), try ijg("testimgint.jpg"), try fixture("restart420.jpg"), try fixture("gray.jpg")] {
            XCTAssertEqual(Array(bytes.suffix(2)), [0xFF, 0xD9])
            for scale in JPEGScale.allCases {
                let whole = try JPEGDecoder().decode(Data(bytes), scale: scale)
                XCTAssertEqual(try JPEGDecoder().decode(Data(bytes.dropLast(2)), scale: scale), whole)
                XCTAssertEqual(try JPEGDecoder().decode(Data(bytes.dropLast(1)), scale: scale), whole)
            }
        }
        for bytes in [try ijg("testprog.jpg"), try fixture("progressive420.jpg")] {
            for scale in JPEGScale.allCases {
                XCTAssertThrowsError(try JPEGDecoder().decode(Data(bytes.dropLast(2)), scale: scale)) { error in
                    XCTAssertTrue("\(error)".hasSuffix("before its EOI marker (after scan 10)"), "\(error)")
                }
            }
        }
    }

    /// The error names where the data ended.
    func testTheErrorSaysWhereTheDataEnded() throws {
        let progressive = try ijg("testprog.jpg")
        let lastScan = try XCTUnwrap(scanEnds(progressive).last)
        XCTAssertThrowsError(try JPEGDecoder().decode(Data(progressive[0..<lastScan]))) { error in
            XCTAssertTrue("\(error)".contains("before the last scan"), "\(error)")
        }
        XCTAssertThrowsError(try JPEGDecoder().decode(Data(progressive[0..<(lastScan + 200)]))) { error in
            XCTAssertTrue("\(error)".contains("scan 10"), "\(error)")
        }
        let baseline = try ijg("testorig.jpg")
        XCTAssertThrowsError(try JPEGDecoder().decode(Data(baseline.dropLast(12)))) { error in
            XCTAssertTrue("\(error)".contains("scan 1"), "\(error)")
        }
    }
}
