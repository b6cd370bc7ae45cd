import XCTest
@testable import ImageCodecs

final class ImageFormatTests: XCTestCase {
    func testSniffsSignaturesNotNames() {
        XCTAssertEqual(ImageFormat(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]), .png)
        XCTAssertEqual(ImageFormat(sniffing: [0xFF, 0xD8, 0xFF, 0xE0]), .jpeg)
        XCTAssertNil(ImageFormat(sniffing: [0x89, 0x50, 0x4E]))
        XCTAssertNil(ImageFormat(sniffing: [UInt8]()))
        XCTAssertNil(ImageFormat(sniffing: Array("GIF89a".utf8)))
    }
}
