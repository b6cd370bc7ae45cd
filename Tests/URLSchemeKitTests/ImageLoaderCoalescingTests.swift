import XCTest
import Synchronization
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit

/// Many requests for one URL and size share one session task, one render and
/// one decode; the shared work stops only when every requester has cancelled.
final class ImageLoaderCoalescingTests: XCTestCase {
    private let size = ImageTargetSize(width: 120, height: 120)
    private let mapURL = URL(string: "map://?latitude=59.93&longitude=30.33&zoom=5&width=60&height=60&scale=2")!

    /// 1,000 concurrent requests for `mapURL` at `size`, once all of them wait on one held render.
    private func thousandRequestsWaitingOnOneRender(realMap: Bool = false) async
        -> (ColorMapRenderer, ImageLoader, [Task<LoadedImage, Error>]) {
        let renderer = ColorMapRenderer(gated: true, realMap: realMap)
        let loader = makeLoader(renderer: renderer)
        let (url, size) = (mapURL, size)
        let requests = (0..<1_000).map { _ in Task { try await loader.image(for: url, size: size) } }
        await eventually("all requests wait on one render") {
            renderer.renders.load(ordering: .relaxed) == 1 && loader.statistics.joins == 999
        }
        return (renderer, loader, requests)
    }

    func testAThousandConcurrentRequestsForOneUncachedMapRenderOnceAndGetOneResult() async throws {
        let (renderer, loader, requests) = await thousandRequestsWaitingOnOneRender(realMap: true)
        let url = mapURL
        renderer.openGate()
        var results: [LoadedImage] = []
        for request in requests { results.append(try await request.value) }

        XCTAssertEqual(renderer.renders.load(ordering: .relaxed), 1)
        XCTAssertEqual(loader.statistics.sessionLoads, 1)
        XCTAssertEqual(loader.statistics.decodes, 1)
        XCTAssertEqual(results.count, 1_000)
        XCTAssertTrue(results.allSatisfy { $0 == results[0] }, "every requester gets the same image")
        XCTAssertEqual([results[0].bitmap.width, results[0].bitmap.height], [120, 120])
        XCTAssertEqual(results[0].sourceFormat, .png)
        // The image is the map the session answers for this URL, decoded.
        let (body, _) = try await loader.configuration.session.data(from: url)
        XCTAssertEqual(results[0].bitmap, try PNGDecoder().decode(body))
    }

    func testCancellingEveryRequestCancelsTheRender() async throws {
        let (renderer, loader, requests) = await thousandRequestsWaitingOnOneRender()
        for request in requests { request.cancel() }
        await eventually("the renderer sees the cancellation") { renderer.cancellationsSeen.load(ordering: .relaxed) == 1 }
        for request in requests {
            do {
                _ = try await request.value
                XCTFail("a cancelled request returned an image")
            } catch let error as URLError {
                XCTAssertEqual(error.code, .cancelled)
            }
        }
        XCTAssertEqual(loader.statistics.cancellations, 1)
        XCTAssertEqual(loader.statistics.decodes, 0)
    }

    func testCancellingAllButOneRequestLetsTheRenderFinishForTheLastOne() async throws {
        let (renderer, loader, requests) = await thousandRequestsWaitingOnOneRender()
        for request in requests.dropLast() { request.cancel() }
        for request in requests.dropLast() {
            await XCTAssertThrowsErrorAsync(try await request.value) { XCTAssertEqual(($0 as? URLError)?.code, .cancelled) }
        }
        renderer.openGate()
        let image = try await requests[999].value
        XCTAssertEqual(image.bitmap[0, 0], ColorMapRenderer.color(latitude: 59.93))
        XCTAssertEqual(renderer.cancellationsSeen.load(ordering: .relaxed), 0)
        XCTAssertEqual(renderer.renders.load(ordering: .relaxed), 1)
        XCTAssertEqual(loader.statistics.cancellations, 0)
    }

    func testDifferentSpellingsOfOneURLShareALoadAndSizesDoNot() async throws {
        let renderer = ColorMapRenderer(gated: true)
        let loader = makeLoader(renderer: renderer)
        let first = URL(string: "map://?latitude=12&longitude=10&zoom=3&width=40&height=30")!
        let reordered = URL(string: "map://?height=30&width=40&zoom=3&longitude=10&latitude=12")!
        let small = ImageTargetSize(width: 20, height: 20)
        async let a = loader.image(for: first)
        async let b = loader.image(for: reordered)
        async let c = loader.image(for: first, size: small)
        await eventually("three requests are in") { loader.statistics.joins + loader.statistics.sessionLoads == 3 }
        renderer.openGate()
        let (imageA, imageB, imageC) = try await (a, b, c)
        XCTAssertEqual(imageA.bitmap, imageB.bitmap)
        XCTAssertEqual(imageB.url, reordered, "each caller sees the URL it asked for")
        XCTAssertEqual([imageC.bitmap.width, imageC.bitmap.height], [20, 15], "fit keeps the 4:3 ratio")
        XCTAssertEqual([imageC.sourceWidth, imageC.sourceHeight], [40, 30])
        XCTAssertEqual(loader.statistics.joins, 1)
        XCTAssertEqual(loader.statistics.decodes, 2)
    }

    func testAMemoryHitNeverTouchesTheSession() async throws {
        let renderer = ColorMapRenderer()
        let loader = makeLoader(urlCache: nil, renderer: renderer)
        let url = ColorMapRenderer.url(4_200)
        let first = try await loader.image(for: url)
        let second = try await loader.image(for: url)
        XCTAssertEqual(first, second)
        XCTAssertEqual(loader.statistics.sessionLoads, 1)
        XCTAssertEqual(loader.statistics.memoryHits, 1)
        XCTAssertEqual(renderer.renders.load(ordering: .relaxed), 1)
        XCTAssertEqual(loader.cachedImage(for: url), first)
    }
}

/// `XCTAssertThrowsError` for an async expression.
func XCTAssertThrowsErrorAsync<T>(_ expression: @autoclosure () async throws -> T, file: StaticString = #filePath, line: UInt = #line,
                                  _ check: (Error) -> Void = { _ in }) async {
    do {
        _ = try await expression()
        XCTFail("no error thrown", file: file, line: line)
    } catch {
        check(error)
    }
}
