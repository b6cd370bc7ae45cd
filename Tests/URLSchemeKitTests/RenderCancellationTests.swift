import XCTest
@testable import URLSchemeKit

final class RenderCancellationTests: XCTestCase {
    func testCheckThrowsOnlyAfterCancel() throws {
        let cancellation = RenderCancellation()
        XCTAssertNoThrow(try cancellation.check())
        cancellation.cancel()
        XCTAssertTrue(cancellation.isCancelled)
        XCTAssertThrowsError(try cancellation.check()) { XCTAssertTrue($0 is CancellationError) }
    }
}
