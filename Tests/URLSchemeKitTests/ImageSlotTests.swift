import XCTest
import Synchronization
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit

/// A slot shows the image of its current URL and nothing else, however
/// loads, cancellations and deliveries interleave.
final class ImageSlotTests: XCTestCase {
    /// 10,000 random reassignments across 50 slots, from four threads at once,
    /// over 300 URLs whose renders take 0–3 ms, with a memory cache too small
    /// to hold them all: every handler checks, while it runs, that its image is
    /// of its slot's current URL (by URL and by pixel colour), and every slot
    /// ends showing its last URL. `URLSCHEMEKIT_STRESS_ROUNDS` sets the rounds
    /// (`.ci/run` runs 20 in a release build, with `StressTests`).
    func testRandomReassignmentsNeverDeliverAStaleImage() throws {
        let rounds = ProcessInfo.processInfo.environment["URLSCHEMEKIT_STRESS_ROUNDS"].flatMap(Int.init) ?? 1
        for _ in 0..<rounds { try reassignRandomly() }
    }

    private func reassignRandomly() throws {
        // 16×16 images are 1 KiB: the memory cache holds 64 of the 300.
        let loader = makeLoader(memoryCapacity: 64 << 10, maximumConcurrentLoads: 8, renderer: ColorMapRenderer(maximumDelay: 3))
        let delivery = DispatchQueue(label: "ImageSlotTests.delivery", attributes: .concurrent)
        let slots = (0..<50).map { _ in ImageSlot(loader: loader, queue: delivery) }
        let shown = Mutex([URL?](repeating: nil, count: 50))
        let stale = Atomic<Int>(0), wrongPixels = Atomic<Int>(0), delivered = Atomic<Int>(0)
        let errors = Mutex<[String]>([])

        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            var random = SystemRandomNumberGenerator()
            for _ in 0..<2_500 {
                let index = Int.random(in: 0..<50, using: &random)
                let id = Int.random(in: 1...300, using: &random)
                let slot = slots[index]
                slot.load(ColorMapRenderer.url(id)) { result in
                    switch result {
                    case .success(let image):
                        delivered.add(1, ordering: .relaxed)
                        if slot.url != image.url { stale.add(1, ordering: .relaxed) }
                        if image.bitmap[0, 0] != ColorMapRenderer.color(latitude: Double(id) / 100) || image.url != ColorMapRenderer.url(id) {
                            wrongPixels.add(1, ordering: .relaxed)
                        }
                        shown.withLock { $0[index] = image.url }
                    case .failure(let error):
                        errors.withLock { $0.append("\(error)") }
                    }
                }
                if Int.random(in: 0..<4, using: &random) == 0 { usleep(UInt32.random(in: 0...300, using: &random)) }
            }
        }
        waitUntil("every slot shows its last URL") {
            // Read outside `shown`'s lock: a handler holds its slot's lock while it takes `shown`'s.
            let current = slots.map(\.url)
            return shown.withLock { $0 == current }
        }
        XCTAssertEqual(stale.load(ordering: .relaxed), 0, "handlers ran for a URL that was not their slot's")
        XCTAssertEqual(wrongPixels.load(ordering: .relaxed), 0, "images did not match their URL")
        XCTAssertEqual(errors.withLock { Array($0.prefix(3)) }, [])
        XCTAssertLessThanOrEqual(loader.memoryCache.totalBytes, 64 << 10)
        let statistics = loader.statistics
        XCTAssertGreaterThan(statistics.cancellations, 0, "superseded loads were cancelled: \(statistics)")
        XCTAssertGreaterThan(delivered.load(ordering: .relaxed), 50)
    }

    func testResetDropsTheLoadAndAHandlerMayReloadItsOwnSlot() throws {
        let renderer = ColorMapRenderer(gated: true)
        let loader = makeLoader(renderer: renderer)
        let slot = ImageSlot(loader: loader, queue: DispatchQueue(label: "ImageSlotTests.serial"))
        let calls = Mutex<[URL]>([])
        slot.load(ColorMapRenderer.url(1)) { _ in calls.withLock { $0.append(ColorMapRenderer.url(1)) } }
        waitUntil("the render started") { renderer.renders.load(ordering: .relaxed) == 1 }
        slot.reset()
        XCTAssertNil(slot.url)
        waitUntil("the renderer saw the cancellation") { renderer.cancellationsSeen.load(ordering: .relaxed) == 1 }
        renderer.openGate()

        let done = DispatchSemaphore(value: 0)
        slot.load(ColorMapRenderer.url(2)) { _ in
            calls.withLock { $0.append(ColorMapRenderer.url(2)) }
            // Reentrant: a handler may point its own slot elsewhere.
            slot.load(ColorMapRenderer.url(3)) { result in
                calls.withLock { $0.append((try? result.get())?.url ?? URL(string: "error:")!) }
                done.signal()
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(calls.withLock { $0 }, [ColorMapRenderer.url(2), ColorMapRenderer.url(3)])
        XCTAssertEqual(slot.url, ColorMapRenderer.url(3))
    }
    /// Swift concurrency (issue 29, point 2): a `@MainActor` cell awaits
    /// `image(for:)` and shows what it returns with no `Sendable` capture or
    /// hop. A load superseded while its render is held ends in
    /// `URLError(.cancelled)` and is never shown; the current one is.
    @MainActor
    func testAMainActorCellShowsOnlyItsCurrentURL() async throws {
        let renderer = ColorMapRenderer(gated: true)
        let cell = MainActorCell(loader: makeLoader(renderer: renderer))
        let first = Task { await cell.configure(ColorMapRenderer.url(1)) }
        try await until("the first render started") { renderer.renders.load(ordering: .relaxed) == 1 }
        let second = Task { await cell.configure(ColorMapRenderer.url(2)) }
        try await until("the second load took the slot") { cell.slot.url == ColorMapRenderer.url(2) }
        renderer.openGate()
        await first.value
        await second.value
        XCTAssertEqual(cell.shown, [ColorMapRenderer.url(2)])
        XCTAssertEqual(cell.cancelled, 1, "the superseded load ended in URLError(.cancelled)")
        XCTAssertEqual(cell.failures, [])
        XCTAssertEqual(cell.pixel, ColorMapRenderer.color(latitude: 0.02))
    }

    /// Cancelling the awaiting `Task` cancels the slot's load and frees the slot;
    /// a `reset()` while a load is awaited ends it with `.cancelled` too.
    @MainActor
    func testCancellingTheAwaitingTaskOrResettingEndsTheLoad() async throws {
        let renderer = ColorMapRenderer(gated: true)
        let cell = MainActorCell(loader: makeLoader(renderer: renderer))
        let waiting = Task { await cell.configure(ColorMapRenderer.url(1)) }
        try await until("the render started") { renderer.renders.load(ordering: .relaxed) == 1 }
        waiting.cancel()
        await waiting.value
        XCTAssertNil(cell.slot.url, "the cancelled caller's load left the slot")
        try await until("the renderer saw the cancellation") { renderer.cancellationsSeen.load(ordering: .relaxed) == 1 }

        let reset = Task { await cell.configure(ColorMapRenderer.url(2)) }
        try await until("the second render started") { renderer.renders.load(ordering: .relaxed) == 2 }
        cell.slot.reset()
        await reset.value
        renderer.openGate()
        XCTAssertEqual(cell.shown, [])
        XCTAssertEqual(cell.cancelled, 2)
        await cell.configure(ColorMapRenderer.url(3))
        XCTAssertEqual(cell.shown, [ColorMapRenderer.url(3)], "the slot still loads")
    }

    @MainActor
    private func until(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            guard Date() < deadline else { return XCTFail("timed out waiting until \(what)") }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }
}

/// A UI cell as Swift 6 apps write one: main-actor isolated, not `Sendable`.
@MainActor
final class MainActorCell {
    let slot: ImageSlot
    private(set) var shown: [URL] = []
    private(set) var pixel: RGBA?
    private(set) var cancelled = 0
    private(set) var failures: [String] = []

    init(loader: ImageLoader) {
        slot = ImageSlot(loader: loader)
    }

    func configure(_ url: URL) async {
        do {
            let image = try await slot.image(for: url)
            show(image)
        } catch let error as URLError where error.code == .cancelled {
            cancelled += 1
        } catch {
            failures.append("\(error)")
        }
    }

    private func show(_ image: LoadedImage) {
        XCTAssertEqual(slot.url, image.url, "shown while still the slot's URL")
        shown.append(image.url)
        pixel = image.bitmap[0, 0]
    }
}

