import XCTest
import Synchronization
import ImageCodecs
@testable import URLSchemeKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads over their environment's `ResourceBudget` fail fast with a `URLError` naming the limit.
final class ResourceBudgetTests: XCTestCase {
    private func budget(_ change: (inout ResourceBudget) -> Void) -> ResourceBudget {
        var budget = ResourceBudget()
        change(&budget)
        return budget
    }

    func testARenderPastItsDeadlineFailsTimedOut() async throws {
        let session = makePatternSession(cache: nil, budget: budget { $0.renderDeadline = 0.2 })
        let start = Date()
        do {
            _ = try await session.data(from: XCTUnwrap(URL(string: "pattern://?seed=1&size=10&delay=5000")))
            XCTFail("loaded")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .timedOut)
            XCTAssertEqual(error.localizedDescription, "the render took longer than its deadline of 0.2 s (ResourceBudget.renderDeadline)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
    }

    func testAFullRenderQueueRefusesAtOnce() throws {
        let queue = RenderQueue(maximumConcurrentRenders: 1)
        let release = DispatchSemaphore(value: 0)
        let ran = Atomic<Int>(0)
        let done = DispatchGroup()
        for _ in 0..<3 {
            done.enter()
            try queue.submit(cancellation: RenderCancellation(), pendingLimit: 2) {
                release.wait()
                ran.add(1, ordering: .relaxed)
                done.leave()
            }
        }
        XCTAssertThrowsError(try queue.submit(cancellation: RenderCancellation(), pendingLimit: 2) { XCTFail("a refused render ran") }) { error in
            XCTAssertEqual((error as? URLError)?.code, .resourceUnavailable)
            XCTAssertEqual(error.localizedDescription, "too many renders are waiting (2, ResourceBudget.pendingRenders); try again later")
        }
        for _ in 0..<3 { release.signal() }
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(ran.load(ordering: .relaxed), 3)
    }

    func testRotationAndOutputAreHeldToProducedPixels() async throws {
        let (store, source) = try makeAssetStore()
        let id = try store.add(AssetFixtures.data("photo.jpg"))  // 96 × 64
        let session = makeSchemeSession(source, budget: budget { $0.producedPixels = 64 * 96 })
        let plain = try await loadImage(session, "asset://?id=\(id)").bitmap
        XCTAssertEqual(plain.width, 96)
        let rotated = await loadError(session, "asset://?id=\(id)&rotate=45")
        XCTAssertEqual(rotated?.code, .badURL)
        XCTAssertTrue(rotated?.localizedDescription.hasSuffix("parameter 'rotate' makes a 114×114 image; at most 6144 pixels are allowed (ResourceBudget.producedPixels); give 'width' or 'height'") == true,
                      rotated?.localizedDescription ?? "")
        // Decoded at a reduced scale for a 20-pixel result, the rotation stays within the budget.
        let small = try await loadImage(session, "asset://?id=\(id)&rotate=45&width=20").bitmap
        XCTAssertEqual(small.width, 20)
        let big = await loadError(session, "asset://?id=\(id)&width=100&height=100&mode=fill")
        XCTAssertTrue(big?.localizedDescription.hasSuffix("parameter 'width' makes a 100×100 image; at most 6144 pixels are allowed (ResourceBudget.producedPixels)") == true,
                      big?.localizedDescription ?? "")
    }

    func testAPhotoOverTheDecodeBudgetIsRefusedNamingTheLimit() async throws {
        let (store, source) = try makeAssetStore()
        let id = try store.add(AssetFixtures.data("photo.jpg"))
        let error = await loadError(makeSchemeSession(source, budget: budget { $0.decodedPixels = 1000 }), "asset://?id=\(id)&width=20")
        XCTAssertEqual(error?.code, .cannotDecodeContentData)
        XCTAssertTrue(error?.localizedDescription.contains("JPEG image 96×64 exceeds the limit of 1000 pixels") == true, error?.localizedDescription ?? "")
    }
}

/// Requests for one photo share its decode, its failure included, and a
/// waiting request can be cancelled.
final class DecodedImageCacheSharingTests: XCTestCase {
    struct Poison: Error {}

    func testManyRequestsForAPoisonedPhotoDecodeItOnce() {
        let cache = DecodedImageCache()
        let decodes = Atomic<Int>(0), failures = Atomic<Int>(0)
        // Eight threads of their own (a thread pool might run them two at a time).
        let done = DispatchGroup()
        let threads = (0..<8).map { _ in Thread {
            defer { done.leave() }
            do {
                _ = try cache.image(for: "poison", maximumReduction: 1) { _ in
                    decodes.add(1, ordering: .relaxed)
                    usleep(300_000)
                    throw Poison()
                }
            } catch is Poison {
                failures.add(1, ordering: .relaxed)
            } catch {
                XCTFail("\(error)")
            }
        } }
        for thread in threads {
            done.enter()
            thread.start()
        }
        done.wait()
        XCTAssertEqual(failures.load(ordering: .relaxed), 8)
        XCTAssertEqual(decodes.load(ordering: .relaxed), 1)
    }

    func testAWaiterForAnotherThreadsDecodeCanBeCancelled() throws {
        let cache = DecodedImageCache()
        let started = DispatchSemaphore(value: 0), finish = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? cache.image(for: "slow", maximumReduction: 1) { _ in
                started.signal()
                finish.wait()
                throw Poison()
            }
        }
        started.wait()
        let cancellation = RenderCancellation()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { cancellation.cancel() }
        let start = Date()
        XCTAssertThrowsError(try cache.image(for: "slow", maximumReduction: 1, cancellation: cancellation) { _ in
            XCTFail("the waiter decoded")
            throw Poison()
        }) { XCTAssertTrue($0 is CancellationError, "\($0)") }
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.1 + 0.05, "the waiter returned within 50 ms of its cancellation")
        finish.signal()
    }
}
