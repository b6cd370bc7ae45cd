import XCTest
import Synchronization
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit

/// The loader's memory budget, prefetching, priorities, decoding and errors.
final class ImageLoaderTests: XCTestCase {
    /// 200 concurrent loads of distinct 1 KiB images into a 10 KiB budget: the
    /// limit holds at every delivery, and the least recently used goes first.
    func testTheMemoryLimitHoldsUnderLoadAndEvictsTheLeastRecentlyUsed() throws {
        let loader = makeLoader(memoryCapacity: 10 << 10, renderer: ColorMapRenderer(maximumDelay: 2))
        let over = Atomic<Int>(0)
        let group = DispatchGroup()
        for id in 1...200 {
            group.enter()
            loader.loadImage(for: ColorMapRenderer.url(id)) { result in
                if loader.memoryCache.totalBytes > 10 << 10 { over.add(1, ordering: .relaxed) }
                if case .failure(let error) = result { XCTFail("\(error)") }
                group.leave()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(over.load(ordering: .relaxed), 0)
        XCTAssertEqual(loader.memoryCache.totalBytes, 10 << 10, "ten 1 KiB images")

        loader.memoryCache.removeAll()
        for id in 1...10 { try load(loader, ColorMapRenderer.url(id)) }
        XCTAssertNotNil(loader.cachedImage(for: ColorMapRenderer.url(1)))  // 1 is now the most recent
        try load(loader, ColorMapRenderer.url(11))
        XCTAssertNil(loader.cachedImage(for: ColorMapRenderer.url(2)), "the least recently used left")
        XCTAssertNotNil(loader.cachedImage(for: ColorMapRenderer.url(1)))
        // Prefetching a held image marks it as wanted: 3, now the oldest, stays; 4 goes.
        loader.prefetch([ColorMapRenderer.url(3)])
        try load(loader, ColorMapRenderer.url(12))
        XCTAssertNotNil(loader.cachedImage(for: ColorMapRenderer.url(3)))
        XCTAssertNil(loader.cachedImage(for: ColorMapRenderer.url(4)))
    }

    func testPrefetchThenDisplayIsAMemoryHitOrAJoinNeverASecondRender() async throws {
        let renderer = ColorMapRenderer(maximumDelay: 5)
        let loader = makeLoader(urlCache: nil, renderer: renderer)
        let size = ImageTargetSize(width: 8, height: 8)
        let urls = (1...40).map { ColorMapRenderer.url($0) }
        loader.prefetch(urls, size: size)
        loader.prefetch(urls, size: size)  // already prefetching: nothing new
        for url in urls {
            let image = try await loader.image(for: url, size: size, priority: .high)
            XCTAssertEqual([image.bitmap.width, image.bitmap.height], [8, 8])
        }
        let statistics = loader.statistics
        XCTAssertEqual(renderer.renders.load(ordering: .relaxed), 40)
        XCTAssertEqual(statistics.sessionLoads, 40)
        XCTAssertEqual(statistics.joins + statistics.memoryHits, 40, "\(statistics)")
        XCTAssertEqual(statistics.decodes, 40)
    }

    /// One load at a time: ten prefetches queue behind the first; a display
    /// request for the last one raises it ahead of the others.
    func testADisplayRequestRaisesAQueuedPrefetch() async throws {
        let renderer = ColorMapRenderer(gated: true)
        let loader = makeLoader(maximumConcurrentLoads: 1, renderer: renderer)
        let urls = (1...10).map { ColorMapRenderer.url($0) }
        loader.prefetch(urls)
        await eventually("the first prefetch renders") { renderer.renders.load(ordering: .relaxed) == 1 }
        let wanted = Task { try await loader.image(for: urls[9], priority: .high) }
        await eventually("the display request joined") { loader.statistics.joins == 1 }
        renderer.allow(2)
        await eventually("the next prefetch is held at the gate") { renderer.renders.load(ordering: .relaxed) == 3 }
        guard renderer.started.withLock({ $0.prefix(2) }) == [0.01, 0.1] else {
            renderer.openGate()
            return XCTFail("the raised prefetch did not run second: \(renderer.started.withLock { $0 })")
        }
        _ = try await wanted.value
        loader.cancelPrefetch(urls)
        await eventually("the held render is cancelled") { renderer.cancellationsSeen.load(ordering: .relaxed) == 1 }
        XCTAssertEqual(loader.statistics.cancellations, 8, "one running and seven queued prefetches stopped")
        renderer.openGate()
        try await Task.sleep(nanoseconds: 20_000_000)
        XCTAssertEqual(renderer.renders.load(ordering: .relaxed), 3, "cancelled prefetches rendered: \(renderer.started.withLock { $0 }), \(loader.statistics)")
    }

    func testJPEGsDecodeScaledAndUprightAtTheTargetSize() async throws {
        let root = try makeTemporaryDirectory()
        for name in ["photo-o6.jpg", "photo.jpg"] {
            try AssetFixtures.data(name).write(to: root.appendingPathComponent(name))
        }
        let server = try LoopbackFileServer(root: root, test: self)
        let loader = makeLoader()
        // Orientation 6: stored landscape, shown turned 90° clockwise.
        let rotated = try await loader.image(for: XCTUnwrap(URL(string: server.url("/photo-o6.jpg"))))
        let expected = try PNGDecoder().decode(AssetFixtures.data("expected/orient6.png"))
        XCTAssertEqual([rotated.bitmap.width, rotated.bitmap.height], [expected.width, expected.height])
        XCTAssertGreaterThanOrEqual(AssetFixtures.psnr(rotated.bitmap, expected), 40)
        XCTAssertEqual(rotated.sourceFormat, .jpeg)
        XCTAssertEqual([rotated.sourceWidth, rotated.sourceHeight], [expected.width, expected.height])

        let photo = try XCTUnwrap(URL(string: server.url("/photo.jpg")))
        let full = try JPEGDecoder().decode(AssetFixtures.data("photo.jpg"))
        let thumbnail = try await loader.image(for: photo, size: ImageTargetSize(width: 24, height: 24))
        let fitted = Bitmap.fittedSize(width: full.width, height: full.height, boxWidth: 24, boxHeight: 24)
        XCTAssertEqual([thumbnail.bitmap.width, thumbnail.bitmap.height], [fitted.width, fitted.height])
        let reference = try full.resized(width: fitted.width, height: fitted.height)
        XCTAssertGreaterThanOrEqual(AssetFixtures.psnr(thumbnail.bitmap, reference), 28)
        let filled = try await loader.image(for: photo, size: ImageTargetSize(width: 30, height: 30, mode: .fill))
        XCTAssertEqual([filled.bitmap.width, filled.bitmap.height], [30, 30])
        let bytes = try await loader.data(for: photo)
        XCTAssertEqual(bytes, try AssetFixtures.data("photo.jpg"))
        XCTAssertEqual(loader.statistics.sessionLoads, 4, "each size and the bytes are loads of their own")
    }

    func testErrorsNameTheProblem() async throws {
        // map:// centred on latitude 0.01 answers HTML, 0.02 a truncated PNG, 0.03 a 16×16 PNG.
        let png = try PNGEncoder().encode(Bitmap(width: 16, height: 16, fill: RGBA(1, 2, 3)))
        let loader = makeLoader(renderer: FixedBodyRenderer(bodies: [1: (Data("<html>no map</html>".utf8), "text/html"),
                                                                     2: (png.prefix(40), "image/png"), 3: (png, "image/png")]))
        let session = loader.configuration.session

        // The session's own error reaches the caller unchanged.
        let bad = URL(string: "map://?latitude=95&longitude=0")!
        var sessionError: URLError?
        do { _ = try await session.data(from: bad) } catch { sessionError = error as? URLError }
        await XCTAssertThrowsErrorAsync(try await loader.image(for: bad)) { error in
            XCTAssertEqual((error as? URLError)?.code, .badURL)
            XCTAssertEqual((error as? URLError)?.localizedDescription, sessionError?.localizedDescription)
            XCTAssertEqual((error as? URLError)?.failingURL, bad)
        }

        // A body that is no image names the URL and what came instead.
        let notImage = ColorMapRenderer.url(1)
        await XCTAssertThrowsErrorAsync(try await loader.image(for: notImage)) { error in
            XCTAssertEqual((error as? URLError)?.code, .cannotDecodeContentData)
            let message = (error as? URLError)?.localizedDescription ?? ""
            XCTAssertTrue(message.contains(notImage.absoluteString) && message.contains("Content-Type text/html"), message)
        }
        // A truncated PNG names the URL and the format.
        let truncated = ColorMapRenderer.url(2)
        await XCTAssertThrowsErrorAsync(try await loader.image(for: truncated)) { error in
            XCTAssertEqual((error as? URLError)?.code, .cannotDecodeContentData)
            let message = (error as? URLError)?.localizedDescription ?? ""
            XCTAssertTrue(message.contains("PNG") && message.contains(truncated.absoluteString), message)
        }
        await XCTAssertThrowsErrorAsync(try await loader.image(for: truncated, size: ImageTargetSize(width: 0, height: 10))) { error in
            XCTAssertEqual(error as? ImageLoaderError, .invalidTargetSize(width: 0, height: 10))
        }
        XCTAssertEqual(loader.memoryCache.totalBytes, 0, "failures are not cached")

        // An image above the loader's pixel budget is refused, naming the limit.
        let small = ImageLoader(configuration: .init(session: session, maximumPixelCount: 100))
        await XCTAssertThrowsErrorAsync(try await small.image(for: ColorMapRenderer.url(3))) { error in
            XCTAssertEqual((error as? URLError)?.code, .cannotDecodeContentData)
            let message = (error as? URLError)?.localizedDescription ?? ""
            XCTAssertTrue(message.contains("16") && message.contains("100"), message)
        }
    }

    /// Given the asset source's cache, the loader keeps its images under the
    /// same byte budget as the decoded photos, and neither disturbs the other.
    func testALoaderSharesTheAssetSourcesDecodedImageCache() async throws {
        let (store, source) = try makeAssetStore()
        let id = try store.add(AssetFixtures.data("photo.jpg"))
        let loader = ImageLoader(configuration: .init(session: makeSchemeSession(source), memoryCache: source.cache))
        addTeardownBlock { loader.invalidateAndCancel() }
        let url = try AssetURL(id: id, width: 48).url
        let image = try await loader.image(for: url)
        XCTAssertEqual([image.bitmap.width, image.bitmap.height], [48, 32])
        let photo = try source.image(for: id, fraction: 0.5)
        XCTAssertEqual([source.cache.statistics.hits, source.cache.statistics.decodes], [1, 1], "the photo decoded once, then held")
        XCTAssertEqual(source.cache.totalBytes, photo.bitmap.pixels.count + image.cost)
        XCTAssertEqual(loader.cachedImage(for: url), image)
        source.cache.removeAll()
        XCTAssertNil(loader.cachedImage(for: url))
    }

    /// Invalidating with loads running and queued cancels them all and
    /// creates no task on the dead session (which would be fatal on Linux).
    func testInvalidatingCancelsEveryLoadAndLaterRequestsFail() async throws {
        let renderer = ColorMapRenderer(gated: true)
        let loader = makeLoader(maximumConcurrentLoads: 2, renderer: renderer)
        let urls = (1...6).map { ColorMapRenderer.url($0) }
        let requests = urls.map { url in Task { try await loader.image(for: url) } }
        loader.prefetch((7...12).map { ColorMapRenderer.url($0) })
        await eventually("two renders are held") { renderer.renders.load(ordering: .relaxed) == 2 }
        loader.invalidateAndCancel()
        renderer.openGate()
        for request in requests {
            await XCTAssertThrowsErrorAsync(try await request.value) { XCTAssertEqual(($0 as? URLError)?.code, .cancelled) }
        }
        await XCTAssertThrowsErrorAsync(try await loader.image(for: urls[0])) { error in
            XCTAssertEqual((error as? URLError)?.code, .cancelled)
            XCTAssertTrue((error as? URLError)?.localizedDescription.contains("invalidated") == true)
        }
        try await Task.sleep(nanoseconds: 20_000_000)
        XCTAssertEqual(loader.statistics.sessionLoads, 2)
    }

    /// A loader never invalidates the session it was lent: the README's
    /// pattern (lend a session, stop the loader) used to leave the session
    /// invalidated, and the next task on it was a fatal error on Linux.
    func testStoppingALoaderLeavesTheLentSessionUsable() async throws {
        var renderers = SchemeRenderers()
        renderers.set(ColorMapRenderer())
        let environment = URLSchemeKitEnvironment(imageCache: QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0),
                                                  httpCache: nil, renderers: renderers)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(environment)
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        let loader = ImageLoader(configuration: .init(session: session))
        _ = try await loader.image(for: ColorMapRenderer.url(1))
        loader.invalidateAndCancel()
        let (data, response) = try await session.data(from: ColorMapRenderer.url(2))
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertFalse(data.isEmpty, "the session still loads")
    }

    /// Issue 29's crash as a user met it, in a child process (this same test
    /// with `URLSCHEMEKIT_CHILD_TEST` set), since the crash kills the process:
    /// the documented pattern lends the loader a session and stops the loader
    /// with `invalidateAndCancel()`, then uses the session again. When the
    /// loader invalidated what it was lent, that was `Fatal error: Session
    /// invalidated` (SIGILL); the child must exit 0.
    func testTheDocumentedStopPatternDoesNotCrashAChildProcess() async throws {
        if isChildTest {
            var renderers = SchemeRenderers()
            renderers.set(ColorMapRenderer())
            let environment = URLSchemeKitEnvironment(assets: AssetImageSource(store: try FileAssetStore(directory: try makeTemporaryDirectory())),
                                                      imageCache: QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0),
                                                      httpCache: nil, renderers: renderers)
            let configuration = URLSessionConfiguration.ephemeral
            configuration.installURLSchemeKit(environment)
            let session = URLSession(configuration: configuration)
            let loader = ImageLoader(configuration: .init(session: session, memoryCache: environment.assets!.cache))
            _ = try await loader.image(for: ColorMapRenderer.url(1))
            loader.invalidateAndCancel()
            let (data, _) = try await session.data(from: ColorMapRenderer.url(2))
            print("URLSchemeKit child: the lent session loaded \(data.count) bytes after the loader stopped")
            session.invalidateAndCancel()
            return
        }
        let child = try runInChildProcess(timeout: 60)
        XCTAssertTrue(child.exited, "the child was killed or hung: \(child.output.suffix(400))")
        XCTAssertEqual(child.status, 0, "the child failed: \(child.output.suffix(400))")
        XCTAssertTrue(child.output.contains("the lent session loaded"), child.output.suffix(400).description)
        XCTAssertFalse(child.output.contains("Session invalidated"), child.output.suffix(400).description)
    }

    private func load(_ loader: ImageLoader, _ url: URL) throws {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<LoadedImage, Error>?>(nil)
        loader.loadImage(for: url) { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        _ = try XCTUnwrap(result.withLock { $0 }).get()
    }
}

/// Answers a `map://` URL centred on latitude `n`/100 with body `n`.
struct FixedBodyRenderer: Renderer {
    var bodies: [Int: (data: Data, mimeType: String)]
    func render(_ request: MapURL, in context: RenderContext) throws -> RenderedImage {
        let body = try XCTUnwrap(bodies[Int((request.options.camera.centerLatitude * 100).rounded())])
        return RenderedImage(data: body.data, mimeType: body.mimeType)
    }
}

/// What the loader asks an origin for.
final class ImageLoaderAcceptTests: XCTestCase {
    /// The `Accept` field names exactly what the decoders read, so a server
    /// that negotiates never answers with a format they cannot (AVIF).
    func testLoadsAcceptExactlyTheFormatsTheDecodersRead() async throws {
        let origin = try OriginServer(test: self)
        try origin.route("/negotiated", headers: ["Cache-Control": "no-store", "Content-Type": "text/plain"], body: "not an image")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0),
                                                                  httpCache: nil))
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        let loader = ImageLoader(configuration: .init(session: session))
        _ = try? await loader.image(for: origin.url("/negotiated"))
        XCTAssertEqual(try origin.stats("/negotiated").lastHeaders["Accept"], "image/png,image/jpeg,image/gif,image/webp")
    }
}
