import XCTest
@testable import ImageCodecs

final class InflaterGzipTests: XCTestCase {
    private let inputs: [[UInt8]] = [[], Array("hello, gzip".utf8),
                                     Array(String(repeating: "Helsinki Kaisaniemi Töölö ", count: 2_000).utf8),
                                     (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }]

    func testMembersMadeByPythonGzipDecode() throws {
        for level in [1, 9] {
            for (input, member) in zip(inputs, try IndependentDecoder.gzipCompress(inputs, level: level)) {
                XCTAssertEqual(member[3] & 0x08, 0x08, "python wrote a file name")
                XCTAssertEqual(try Inflater.gzipDecompress(member, limit: 1 << 20), input, "\(input.count) bytes at level \(level)")
            }
        }
    }

    /// Cut inside the deflate data, the inflater may first meet the zero bits
    /// past the end as a bad code (corrupt); cut in the header or trailer, truncated.
    func testTruncatedMembersAreErrorsAtEveryLength() throws {
        let member = try IndependentDecoder.gzipCompress([inputs[2]], level: 6)[0]
        for cut in 0..<member.count {
            XCTAssertThrowsError(try Inflater.gzipDecompress(Array(member.prefix(cut)), limit: 1 << 20), "cut at \(cut)") { error in
                let kind = (error as? ImageCodecError)?.kind
                XCTAssertTrue(kind == .truncated || kind == .corrupt, "cut at \(cut): \(error)")
                if cut < 10 || cut > member.count - 8 { XCTAssertEqual(kind, .truncated, "cut at \(cut)") }
            }
        }
    }

    func testAWrongChecksumOrLengthIsCorrupt() throws {
        let member = try IndependentDecoder.gzipCompress([inputs[1]], level: 6)[0]
        for offset in [member.count - 8, member.count - 4] {
            var damaged = member
            damaged[offset] ^= 1
            XCTAssertThrowsError(try Inflater.gzipDecompress(damaged, limit: 1 << 20)) { error in
                XCTAssertEqual((error as? ImageCodecError)?.kind, .corrupt)
                XCTAssertTrue("\(error)".contains("gzip"), "\(error)")
            }
        }
        var badMagic = member
        badMagic[1] = 0
        XCTAssertThrowsError(try Inflater.gzipDecompress(badMagic, limit: 1 << 20)) { error in
            XCTAssertTrue("\(error)".contains("gzip magic"), "\(error)")
        }
    }

    /// A megabyte of zeros in about a kilobyte stops at the limit.
    func testABombStopsAtTheLimit() throws {
        let member = try IndependentDecoder.gzipCompress([[UInt8](repeating: 0, count: 1 << 20)], level: 9)[0]
        XCTAssertLessThan(member.count, 2_000)
        XCTAssertThrowsError(try Inflater.gzipDecompress(member, limit: 100_000)) { error in
            XCTAssertEqual((error as? ImageCodecError)?.kind, .tooLarge)
        }
    }

    /// A prefix inflates the start and stops: of each member (Python's), the
    /// first bytes asked for, or the whole when shorter; of a bomb, its first
    /// bytes without inflating the megabyte.
    func testAPrefixIsTheStartOfTheDataAndStopsThere() throws {
        for (input, member) in zip(inputs, try IndependentDecoder.gzipCompress(inputs, level: 9)) {
            for count in [1, 10, 300] {
                let prefix = try Inflater.gzipPrefix(member, count: count)
                XCTAssertGreaterThanOrEqual(prefix.count, min(count, input.count))
                XCTAssertLessThanOrEqual(prefix.count, count + 258)
                XCTAssertEqual(prefix, Array(input.prefix(prefix.count)), "\(input.count) bytes, prefix of \(count)")
            }
        }
        let bomb = try IndependentDecoder.gzipCompress([[UInt8](repeating: 7, count: 1 << 20)], level: 9)[0]
        let prefix = try Inflater.gzipPrefix(bomb, count: 10)
        XCTAssertTrue((10...268).contains(prefix.count), "\(prefix.count)")
        XCTAssertEqual(Set(prefix), [7])
    }
}
