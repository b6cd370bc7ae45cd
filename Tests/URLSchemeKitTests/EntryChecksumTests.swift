import Foundation
import XCTest
@testable import URLSchemeKit

/// A spooled body's checksum is taken chunk by chunk as it arrives; the entry
/// file is checked against it later in one piece. Both must agree.
final class EntryChecksumTests: XCTestCase {
    private let body = Data((0..<10_007).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 7) })

    func testChunksOfAnySizeGiveTheChecksumOfTheWhole() {
        let whole = EntryChecksum(body).finish()
        for size in [1, 7, 63, 64, 65, 1_000, 4_096] {
            var chunked = EntryChecksum()
            var offset = 0
            while offset < body.count {
                let end = min(offset + size, body.count)
                chunked.add(body.subdata(in: offset..<end))
                offset = end
            }
            XCTAssertEqual(chunked.finish(), whole, "chunks of \(size) bytes")
        }
    }

    func testAFlippedBitATruncationOrAnAddedZeroChangesIt() {
        let whole = EntryChecksum(body).finish()
        for index in [0, 63, 64, 5_000, body.count - 1] {
            var flipped = body
            flipped[index] ^= 0x10
            XCTAssertNotEqual(EntryChecksum(flipped).finish(), whole, "bit flipped at \(index)")
        }
        XCTAssertNotEqual(EntryChecksum(body.dropLast()).finish(), whole, "one byte short")
        XCTAssertNotEqual(EntryChecksum(body + [0]).finish(), whole, "one zero byte more")
        XCTAssertNotEqual(EntryChecksum(Data(count: 64)).finish(), EntryChecksum(Data(count: 128)).finish(), "zeros of two lengths")
    }
}
