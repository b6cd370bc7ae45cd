import XCTest
@testable import URLSchemeKit

final class ImageTargetSizeTests: XCTestCase {
    /// What the loader asks `ImageDecoder` for: the fitted size for `.fit`,
    /// the covering one for `.fill`, the box for `.stretch`, rounded up.
    func testTheDecoderIsAskedForNoMoreThanTheTargetNeeds() {
        let cases: [(ImageTargetSize, [Int])] = [
            (ImageTargetSize(width: 240, height: 240), [240, 180]),
            (ImageTargetSize(width: 240, height: 240, mode: .fill), [320, 240]),
            (ImageTargetSize(width: 240, height: 240, mode: .stretch), [240, 240]),
            (ImageTargetSize(width: 100, height: 100), [100, 75]),
            (ImageTargetSize(width: 7, height: 100), [7, 6]),  // 3000 × 7 / 4000 = 5.25, rounded up
        ]
        for (size, expected) in cases {
            let covering = size.coveringSize(ofWidth: 4000, height: 3000)
            XCTAssertEqual([covering.width, covering.height], expected, "\(size)")
        }
        let tall = ImageTargetSize(width: 240, height: 240).coveringSize(ofWidth: 500, height: 4000)
        XCTAssertEqual([tall.width, tall.height], [30, 240])
    }
}
