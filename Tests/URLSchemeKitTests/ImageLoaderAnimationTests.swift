import XCTest
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit

/// `ImageLoader.animation(for:size:priority:)` through a real URLSession
/// against a loopback HTTP origin: every frame equals what gifsicle or
/// libwebp (through Pillow) composites, with the delays browsers show and the
/// loop count; loads are coalesced and cached at the cost of every frame.
/// The references are the codec tests' (`AnimationFixtures`).
final class ImageLoaderAnimationTests: XCTestCase {
    /// A loopback origin serving `files`, and a loader over a plain session.
    private func serve(_ files: [String: Data]) throws -> (LoopbackFileServer, ImageLoader) {
        let root = try makeTemporaryDirectory()
        for (name, data) in files { try data.write(to: root.appendingPathComponent(name)) }
        return (try LoopbackFileServer(root: root, test: self), makeLoader())
    }

    func testAnAnimatedGIFComesBackFrameByFrameAsGifsicleComposesIt() async throws {
        let names = ["disposal_previous", "interlaced"]
        let references = try names.map { try AnimationFixtures.gif($0) }
        let (server, loader) = try serve(Dictionary(uniqueKeysWithValues: zip(names.map { $0 + ".gif" }, references.map(\.file))))
        for (name, reference) in zip(names, references) {
            let animation = try await loader.animation(for: XCTUnwrap(URL(string: server.url("/\(name).gif"))))
            XCTAssertEqual(animation.sourceFormat, .gif)
            XCTAssertEqual(animation.frames.count, reference.frames.count, name)
            XCTAssertTrue(animation.frames.map(\.bitmap) == reference.frames, "\(name): frames differ from gifsicle's")
            XCTAssertEqual(animation.frames.map(\.delay), reference.delays, name)
            XCTAssertEqual(animation.loopCount, reference.loop, name)
            XCTAssertEqual([animation.sourceWidth, animation.sourceHeight], [reference.frames[0].width, reference.frames[0].height])
        }
    }

    func testAnAnimatedWebPComesBackFrameByFrameAsLibwebpComposesIt() async throws {
        let names = ["anim_mux.webp", "anim_lossy.webp"]
        let references = try names.map { try AnimationFixtures.webP($0) }
        let (server, loader) = try serve(Dictionary(uniqueKeysWithValues: zip(names, references.map(\.file))))
        for (name, reference) in zip(names, references) {
            XCTAssertGreaterThan(reference.frames.count, 1, name)
            let animation = try await loader.animation(for: XCTUnwrap(URL(string: server.url("/" + name))))
            XCTAssertEqual(animation.sourceFormat, .webp)
            XCTAssertEqual(animation.frames.count, reference.frames.count, name)
            for (frame, expected) in zip(animation.frames, reference.frames) {
                XCTAssertEqual([frame.bitmap.width, frame.bitmap.height], [expected.width, expected.height])
                XCTAssertEqual(AnimationFixtures.fnv1a64(frame.bitmap.pixels), expected.hash, "\(name): a frame differs from libwebp's")
                XCTAssertEqual(frame.delay, expected.milliseconds < 20 ? 0.1 : Double(expected.milliseconds) / 1000)
            }
            XCTAssertEqual(animation.loopCount, reference.frames[0].loop, name)
        }
    }

    /// Each frame is resized as a still image is: to the reference frame resized the same way.
    func testFramesAreResizedToTheTargetSizeLikeStillImages() async throws {
        let reference = try AnimationFixtures.gif("disposal_previous")  // 24×16
        let (server, loader) = try serve(["a.gif": reference.file])
        let url = try XCTUnwrap(URL(string: server.url("/a.gif")))
        let fit = try await loader.animation(for: url, size: ImageTargetSize(width: 12, height: 12))
        XCTAssertTrue(fit.frames.map(\.bitmap) == (try reference.frames.map { try $0.resized(width: 12, height: 8) }))
        let fill = try await loader.animation(for: url, size: ImageTargetSize(width: 10, height: 10, mode: .fill))
        XCTAssertTrue(fill.frames.map(\.bitmap) == (try reference.frames.map { try $0.resized(width: 10, height: 10, mode: .fill) }))
        // .fit never enlarges, as for still images.
        let large = try await loader.animation(for: url, size: ImageTargetSize(width: 100, height: 100))
        XCTAssertTrue(large.frames.map(\.bitmap) == reference.frames)
        XCTAssertEqual(fit.frames.map(\.delay), reference.delays)
    }

    /// Two requests at once share one load and one decode; the animation is
    /// then held at the cost of every frame, and a third request is a memory hit.
    func testTwoRequestsShareOneLoadAndTheCacheChargesEveryFrame() async throws {
        let reference = try AnimationFixtures.webP("anim_mux.webp")
        let (server, loader) = try serve(["a.webp": reference.file])
        let url = try XCTUnwrap(URL(string: server.url("/a.webp")))
        async let first = loader.animation(for: url)
        async let second = loader.animation(for: url)
        let (a, b) = try await (first, second)
        XCTAssertTrue(a == b)
        XCTAssertEqual(loader.statistics.sessionLoads, 1)
        XCTAssertEqual(loader.statistics.decodes, 1)
        XCTAssertEqual(loader.statistics.joins + loader.statistics.memoryHits, 1, "\(loader.statistics)")
        XCTAssertEqual(server.requests.filter { $0.path == "/a.webp" }.count, 1, "one request reached the origin")

        let frameBytes = reference.frames.reduce(0) { $0 + $1.width * $1.height * 4 }
        XCTAssertEqual(a.cost, frameBytes)
        XCTAssertEqual(loader.memoryCache.totalBytes, frameBytes, "every frame is charged")
        XCTAssertTrue(loader.cachedAnimation(for: url) == a)
        let third = try await loader.animation(for: url)
        XCTAssertTrue(third == a)
        XCTAssertEqual(loader.statistics.sessionLoads, 1, "a memory hit")
        // The still image of the same URL is an entry of its own: the first frame.
        let still = try await loader.image(for: url)
        XCTAssertTrue(still.bitmap == a.frames[0].bitmap)
        XCTAssertEqual(loader.memoryCache.totalBytes, frameBytes + still.cost)
    }

    /// Cancelling the only request for an animation stops its load, as for an image.
    func testCancellingTheLastRequestStopsTheLoad() async throws {
        let (server, loader) = try serve([:])
        let url = try XCTUnwrap(URL(string: server.url("/slow/a.gif")))  // the server never answers in time
        let request = Task { try await loader.animation(for: url) }
        await eventually("the origin got the request") { server.requests.contains { $0.path == "/slow/a.gif" } }
        request.cancel()
        await XCTAssertThrowsErrorAsync(try await request.value) { XCTAssertEqual(($0 as? URLError)?.code, .cancelled) }
        XCTAssertEqual(loader.statistics.cancellations, 1)
        XCTAssertEqual(loader.statistics.decodes, 0)
        XCTAssertNil(loader.cachedAnimation(for: url))
    }

    /// A memory budget smaller than the animation keeps none of it, as for a still image too large.
    func testAnAnimationLargerThanTheMemoryBudgetIsNotKept() async throws {
        let reference = try AnimationFixtures.webP("anim_mux.webp")
        let root = try makeTemporaryDirectory()
        try reference.file.write(to: root.appendingPathComponent("a.webp"))
        let server = try LoopbackFileServer(root: root, test: self)
        let loader = makeLoader(memoryCapacity: 48 * 40 * 4 * 3)  // three frames of eight
        let url = try XCTUnwrap(URL(string: server.url("/a.webp")))
        let animation = try await loader.animation(for: url)
        XCTAssertEqual(animation.frames.count, 8)
        XCTAssertEqual(loader.memoryCache.totalBytes, 0)
        XCTAssertNil(loader.cachedAnimation(for: url))
    }

    func testAStillImageIsOneFrame() async throws {
        let png = try PNGEncoder().encode(Bitmap(width: 5, height: 3, fill: RGBA(10, 20, 30)))
        let (server, loader) = try serve(["still.png": png])
        let url = try XCTUnwrap(URL(string: server.url("/still.png")))
        let animation = try await loader.animation(for: url)
        XCTAssertEqual(animation.frames.count, 1)
        XCTAssertEqual(animation.loopCount, 1)
        XCTAssertEqual(animation.sourceFormat, .png)
        XCTAssertTrue(try animation.frames[0].bitmap == PNGDecoder().decode(png))
        XCTAssertEqual(animation.frames[0].delay, 0.1)
    }

    /// The limits are checked from the file's frame count before any frame is
    /// decoded, and the frames kept at the output size count as well as the
    /// canvases composited.
    func testFrameAndPixelLimitsRefuseTheFileNamingTheLimit() async throws {
        let reference = try AnimationFixtures.webP("anim_mux.webp")  // 8 frames of 48×40
        let (server, plain) = try serve(["a.webp": reference.file])
        let url = try XCTUnwrap(URL(string: server.url("/a.webp")))
        let session = plain.configuration.session

        let fewFrames = ImageLoader(configuration: .init(session: session, maximumFrameCount: 7))
        await XCTAssertThrowsErrorAsync(try await fewFrames.animation(for: url)) { error in
            XCTAssertEqual((error as? URLError)?.code, .cannotDecodeContentData)
            let message = (error as? URLError)?.localizedDescription ?? ""
            XCTAssertTrue(message.contains("WEBP") && message.contains("more than 7 frames"), message)
        }
        // 8 × 48 × 40 = 15,360 composited pixels.
        let fewPixels = ImageLoader(configuration: .init(session: session, maximumAnimationPixelCount: 15_000))
        await XCTAssertThrowsErrorAsync(try await fewPixels.animation(for: url)) { error in
            let message = (error as? URLError)?.localizedDescription ?? ""
            XCTAssertTrue(message.contains("8 frames of 1920 pixels are above the animation's limit of 15000"), message)
        }
        // Composited they fit; kept at 100×100 each (fill enlarges), 80,000 pixels do not.
        let enlarging = ImageLoader(configuration: .init(session: session, maximumAnimationPixelCount: 50_000))
        _ = try await enlarging.animation(for: url)
        await XCTAssertThrowsErrorAsync(try await enlarging.animation(for: url, size: ImageTargetSize(width: 100, height: 100, mode: .fill))) { error in
            let message = (error as? URLError)?.localizedDescription ?? ""
            XCTAssertTrue(message.contains("8 frames of 10000 pixels are above the animation's limit of 50000"), message)
        }
        XCTAssertEqual(fewFrames.memoryCache.totalBytes, 0, "failures are not cached")
    }

    /// By default a loader holds an animation to 2²⁵ pixels: a 15 KB GIF of
    /// 1,024 one-pixel frames on a 1024×1024 screen (2³⁰ composited pixels,
    /// 6.9 s of compositing and up to 4 GiB of frames under the decoders'
    /// default) is refused before a frame is decoded, naming the limit; a
    /// screen of 128×128 (2²⁴) loads.
    func testTheDefaultAnimationBudgetRefusesAThousandFramesOfAMegapixel() async throws {
        let (server, loader) = try serve(["big.gif": HostileAnimations.gifOfManyFrames(count: 1024, screen: 1024),
                                          "small.gif": HostileAnimations.gifOfManyFrames(count: 1024, screen: 128)])
        XCTAssertEqual(loader.configuration.maximumAnimationPixelCount, 1 << 25)
        let started = Date()
        await XCTAssertThrowsErrorAsync(try await loader.animation(for: XCTUnwrap(URL(string: server.url("/big.gif"))),
                                                                   size: ImageTargetSize(width: 64, height: 64))) { error in
            XCTAssertEqual((error as? URLError)?.code, .cannotDecodeContentData)
            let message = (error as? URLError)?.localizedDescription ?? ""
            XCTAssertTrue(message.contains("1024 frames of 1048576 pixels are above the animation's limit of 33554432")
                          && message.contains("ImageLoader.Configuration.maximumFrameCount and maximumAnimationPixelCount"), message)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "refused before any frame is composited")
        let small = try await loader.animation(for: XCTUnwrap(URL(string: server.url("/small.gif"))), size: ImageTargetSize(width: 64, height: 64))
        XCTAssertEqual(small.frames.count, 1024)
    }
}
