import XCTest
import Synchronization
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

extension RenderCancellationTests {
    /// A 64 MP photo (the hostile corpus's synthetic one) rendered whole: the
    /// JPEG decoder checks cancellation after every row of MCUs, so the
    /// render's thread is back within 50 ms of `cancel()`.
    func testCancellingALongRenderReturnsTheThreadWithin50ms() throws {
        let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Hostile/files/photo-64mp.jpg")
        let store = try FileAssetStore(directory: makeTemporaryDirectory())
        let id = try store.add(Data(contentsOf: photo))
        let renderer = AssetRenderer()
        let cancellation = RenderCancellation()
        let context = RenderContext(environment: URLSchemeKitEnvironment(assets: AssetImageSource(store: store), imageCache: nil, httpCache: nil),
                                    cancellation: cancellation)
        let finished = DispatchSemaphore(value: 0)
        let outcome = Mutex<Error?>(nil)
        Thread {
            do {
                _ = try renderer.render(try AssetURL(id: id, format: .png), in: context)
            } catch {
                outcome.withLock { $0 = error }
            }
            finished.signal()
        }.start()
        usleep(150_000)
        let cancelled = Date()
        cancellation.cancel()
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success)
        let latency = Date().timeIntervalSince(cancelled)
        XCTAssertTrue(outcome.withLock { $0 } is CancellationError, "the render was still running when cancelled: \(String(describing: outcome.withLock { $0 }))")
        XCTAssertLessThan(latency, 0.05, "the thread came back \(Int(latency * 1000)) ms after cancel()")
        print("cancelled render returned in \(String(format: "%.1f", latency * 1000)) ms")
    }
}
