import XCTest
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// Animated GIFs and WebPs in the asset store, through a real URLSession:
/// `asset://` edits the first frame or the one `frame` names (counted from
/// 1, as `poll://`'s `chosen`), and `avatar://` draws their first frames.
/// References: gifsicle's composited frames and libwebp's (`AnimationFixtures`).
final class AssetAnimationTests: XCTestCase {
    func testAssetShowsTheFirstFrameOrTheOneFrameNames() async throws {
        let reference = try AnimationFixtures.gif("disposal_previous")  // 5 frames of 24×16
        let (store, source) = try makeAssetStore()
        let id = try store.add(reference.file)
        XCTAssertEqual(try store.metadata(for: id).format, .gif)
        let session = makeSchemeSession(source)
        defer { session.invalidateAndCancel() }

        let (first, type) = try await loadImage(session, "asset://?id=\(id)&format=png")
        XCTAssertEqual(type, "image/png")
        XCTAssertTrue(first == reference.frames[0], "the first frame, as gifsicle composes it")
        for frame in 1...5 {
            let (image, _) = try await loadImage(session, "asset://?id=\(id)&frame=\(frame)&format=png")
            XCTAssertTrue(image == reference.frames[frame - 1], "frame=\(frame) is gifsicle's frame \(frame)")
        }
        // Edits apply to the chosen frame as to a still photo.
        let (flipped, _) = try await loadImage(session, "asset://?id=\(id)&frame=3&flip=h&width=12&format=png")
        XCTAssertTrue(flipped == (try reference.frames[2].flipped(.horizontal).resized(width: 12, height: 8)))

        let past = await loadError(session, "asset://?id=\(id)&frame=6")
        XCTAssertEqual(past?.code, .badURL)
        XCTAssertTrue(past?.localizedDescription.hasSuffix("parameter 'frame' asks for frame 6, but it has 5 frames (frame=1 to frame=5)") == true, past?.localizedDescription ?? "")
        let zero = await loadError(session, "asset://?id=\(id)&frame=0")
        XCTAssertTrue(zero?.localizedDescription.hasSuffix("parameter 'frame' must be a whole number from 1 to 10000, got '0'") == true, zero?.localizedDescription ?? "")
    }

    func testAnAnimatedWebPAssetAndAStillPhotoWithAFrame() async throws {
        let reference = try AnimationFixtures.webP("anim_mux.webp")  // 8 frames of 48×40
        let (store, source) = try makeAssetStore()
        let id = try store.add(reference.file)
        let still = try store.add(PNGEncoder().encode(Bitmap(width: 4, height: 4, fill: RGBA(1, 2, 3))))
        let session = makeSchemeSession(source)
        defer { session.invalidateAndCancel() }
        for frame in [1, 4, 8] {
            let (image, _) = try await loadImage(session, "asset://?id=\(id)&frame=\(frame)&format=png")
            XCTAssertEqual(AnimationFixtures.fnv1a64(image.pixels), reference.frames[frame - 1].hash, "frame=\(frame) differs from libwebp's")
        }
        let (first, _) = try await loadImage(session, "asset://?id=\(id)&format=png")
        XCTAssertEqual(AnimationFixtures.fnv1a64(first.pixels), reference.frames[0].hash)
        // Each frame is held once decoded, as photos are.
        let decodes = source.cache.statistics.decodes
        _ = try await loadImage(session, "asset://?id=\(id)&frame=4&format=png&width=20")
        XCTAssertEqual(source.cache.statistics.decodes, decodes)

        let (one, _) = try await loadImage(session, "asset://?id=\(still)&frame=1&format=png")
        XCTAssertEqual([one.width, one.height], [4, 4])
        let past = await loadError(session, "asset://?id=\(still)&frame=2")
        XCTAssertTrue(past?.localizedDescription.hasSuffix("parameter 'frame' asks for frame 2, but it has one frame (frame=1)") == true, past?.localizedDescription ?? "")
    }

    /// Removing an animated asset drops every frame it held.
    func testRemovingAnAssetDropsEveryFrame() async throws {
        let reference = try AnimationFixtures.gif("disposal_previous")
        let (store, source) = try makeAssetStore()
        let id = try store.add(reference.file)
        _ = try source.image(for: id)
        _ = try source.image(for: id, frameIndex: 3)
        XCTAssertEqual(source.cache.totalBytes, 2 * 24 * 16 * 4)
        let environment = URLSchemeKitEnvironment(assets: source)
        try environment.removeAsset(id)
        XCTAssertEqual(source.cache.totalBytes, 0)
    }

    /// An avatar of GIF and WebP photos is the avatar of their first frames
    /// (gifsicle's, and libwebp's as checked by hash) stored as PNGs.
    func testAvatarsTakeGIFAndWebPPhotos() async throws {
        let gif = try AnimationFixtures.gif("disposal_previous")
        let webP = try AnimationFixtures.webP("anim_mux.webp")
        let (store, source) = try makeAssetStore()
        let gifID = try store.add(gif.file), webPID = try store.add(webP.file)
        let webPFirst = try ImageDecoder.decode(webP.file).bitmap
        XCTAssertEqual(AnimationFixtures.fnv1a64(webPFirst.pixels), webP.frames[0].hash, "the first frame is libwebp's")
        let gifPNG = try store.add(PNGEncoder().encode(gif.frames[0])), webPPNG = try store.add(PNGEncoder().encode(webPFirst))
        let session = makeSchemeSession(source)
        defer { session.invalidateAndCancel() }

        let (animated, type) = try await loadImage(session, "avatar://?id=\(gifID)&id=\(webPID)&size=64&format=png")
        let (stills, _) = try await loadImage(session, "avatar://?id=\(gifPNG)&id=\(webPPNG)&size=64&format=png")
        XCTAssertEqual(type, "image/png")
        XCTAssertEqual([animated.width, animated.height], [64, 64])
        XCTAssertTrue(animated == stills)
    }

    /// The body and media type `url` answers with.
    private func loadBody(_ session: URLSession, _ url: String) async throws -> (data: Data, mimeType: String?) {
        let (data, response) = try await session.data(from: XCTUnwrap(URL(string: url)))
        return (data, response.mimeType)
    }

    /// Every frame of an animation as our decoder composites it, its delays and loop count.
    private func frames(of data: Data) throws -> (frames: [Bitmap], delays: [Double], loop: Int) {
        var animation = try ImageDecoder.animation(data)
        var frames: [Bitmap] = [], delays: [Double] = []
        while let frame = try animation.nextFrame() {
            frames.append(frame.bitmap)
            delays.append(frame.delay)
        }
        return (frames, delays, animation.loopCount)
    }

    /// An animated GIF on disk, edited through a real session, stays
    /// animated: as GIF (its own format, or `format=gif`) and as WebP, with
    /// every frame edited, the same delays and loop count; `frame=N` and
    /// `format=png` still give one frame.
    func testAnAnimatedGIFStaysAnimatedThroughEdits() async throws {
        let reference = try AnimationFixtures.gif("disposal_previous")  // 5 frames of 24×16
        let (store, source) = try makeAssetStore()
        let id = try store.add(reference.file)
        let session = makeSchemeSession(source)
        defer { session.invalidateAndCancel() }

        let flipped = try await loadBody(session, "asset://?id=\(id)&flip=h")
        XCTAssertEqual(flipped.mimeType, "image/gif", "an animated GIF stays GIF")
        let gif = try frames(of: flipped.data)
        XCTAssertEqual(gif.frames.count, 5)
        XCTAssertEqual(gif.delays, reference.delays)
        XCTAssertEqual(gif.loop, reference.loop)
        for (index, frame) in gif.frames.enumerated() {
            XCTAssertTrue(frame == reference.frames[index].flipped(.horizontal), "frame \(index + 1) is gifsicle's, flipped")
        }

        let resized = try await loadBody(session, "asset://?id=\(id)&width=12&format=gif")
        let small = try frames(of: resized.data)
        XCTAssertEqual(small.frames.map { [$0.width, $0.height] }, Array(repeating: [12, 8], count: 5))
        XCTAssertEqual(small.delays, reference.delays)

        let webP = try await loadBody(session, "asset://?id=\(id)&rotate=90&filter=invert&format=webp&lossless=true")
        XCTAssertEqual(webP.mimeType, "image/webp")
        XCTAssertEqual(ImageFormat(sniffing: webP.data), .webp)
        let rotated = try frames(of: webP.data)
        XCTAssertEqual(rotated.frames.count, 5)
        XCTAssertEqual(rotated.delays, reference.delays)
        XCTAssertEqual(rotated.loop, reference.loop)
        for (index, frame) in rotated.frames.enumerated() {
            let expected = try reference.frames[index].rotated(by: 90).applying(.invert)
            XCTAssertTrue(frame == expected, "frame \(index + 1) rotated and inverted, exactly (lossless frames)")
        }

        let one = try await loadBody(session, "asset://?id=\(id)&frame=3&format=gif")
        let third = try frames(of: one.data)
        XCTAssertEqual(third.frames.count, 1)
        XCTAssertTrue(third.frames[0] == reference.frames[2])
        let (png, type) = try await loadImage(session, "asset://?id=\(id)&flip=h&format=png")
        XCTAssertEqual(type, "image/png")
        XCTAssertTrue(png == reference.frames[0].flipped(.horizontal), "PNG holds no animation: the first frame")
    }

    /// An animated WebP stays an animated WebP, its frames resized, with libwebp's delays.
    func testAnAnimatedWebPStaysAnimated() async throws {
        let reference = try AnimationFixtures.webP("anim_mux.webp")  // 8 frames of 48×40
        let (store, source) = try makeAssetStore()
        let id = try store.add(reference.file)
        let session = makeSchemeSession(source)
        defer { session.invalidateAndCancel() }
        let body = try await loadBody(session, "asset://?id=\(id)&width=24")
        XCTAssertEqual(body.mimeType, "image/webp")
        let animation = try frames(of: body.data)
        XCTAssertEqual(animation.frames.count, 8)
        XCTAssertEqual(animation.frames.map { [$0.width, $0.height] }, Array(repeating: [24, 20], count: 8))
        XCTAssertEqual(animation.delays, reference.frames.map { $0.milliseconds < 20 ? 0.1 : Double($0.milliseconds) / 1000 })
        XCTAssertEqual(animation.loop, reference.frames[0].loop)
        let gif = try await loadBody(session, "asset://?id=\(id)&width=24&format=gif")
        XCTAssertEqual(try frames(of: gif.data).frames.count, 8)
        // Frames are lossy (VP8 in each ANMF) by default, lossless (VP8L) with lossless=true.
        let lossless = try await loadBody(session, "asset://?id=\(id)&width=24&lossless=true&format=webp")
        XCTAssertEqual(try frames(of: lossless.data).frames.count, 8)
        let chunks = { (data: Data) in Set(Self.frameChunkNames(data)) }
        XCTAssertEqual(chunks(body.data).subtracting(["ALPH"]), ["VP8 "])
        XCTAssertEqual(chunks(lossless.data), ["VP8L"])
        let stillLossy = try await loadImage(session, "asset://?id=\(id)&width=24&frame=1&format=webp").bitmap
        let stillExact = try await loadImage(session, "asset://?id=\(id)&width=24&frame=1&format=png").bitmap
        // 24×20 frames of fine detail: a still lossy WebP of frame 1 reaches 23.4 dB;
        // the animation's frames, coded the same way, must come as close.
        let stillPSNR = AssetFixtures.psnr(stillLossy, stillExact)
        for (index, (lossy, exact)) in zip(animation.frames, try frames(of: lossless.data).frames).enumerated() {
            XCTAssertGreaterThanOrEqual(AssetFixtures.psnr(lossy, exact), min(stillPSNR, 30) - 1.5, "frame \(index + 1): as close as a still lossy WebP")
        }
    }

    /// The four-letter names of the image chunks inside each `ANMF` chunk of an animated WebP.
    private static func frameChunkNames(_ data: Data) -> [String] {
        let bytes = [UInt8](data)
        func size(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        var names: [String] = [], offset = 12
        while offset + 8 <= bytes.count {
            let name = String(decoding: bytes[offset..<offset + 4], as: UTF8.self), length = size(offset + 4)
            if name == "ANMF" {
                var inner = offset + 8 + 16
                while inner + 8 <= min(bytes.count, offset + 8 + length) {
                    names.append(String(decoding: bytes[inner..<inner + 4], as: UTF8.self))
                    inner += 8 + size(inner + 4) + (size(inner + 4) & 1)
                }
            }
            offset += 8 + length + (length & 1)
        }
        return names
    }

    /// Each animation limit refuses the URL before a frame is decoded, naming
    /// the `ResourceBudget` field; `frame` still takes one frame.
    func testAnimationBudgetsNameTheirLimits() async throws {
        let reference = try AnimationFixtures.gif("disposal_previous")  // 5 frames of 24×16
        var budget = ResourceBudget()
        budget.animationFrames = 4
        let (store, source) = try makeAssetStore()
        let id = try store.add(reference.file)
        let session = makeSchemeSession(source, budget: budget)
        defer { session.invalidateAndCancel() }
        let frames = await loadError(session, "asset://?id=\(id)&format=gif")
        XCTAssertEqual(frames?.code, .badURL)
        XCTAssertTrue(frames?.localizedDescription.hasSuffix("parameter 'frame' is not given, so the animation's 5 frames would all be kept; at most 4 are (ResourceBudget.animationFrames): give 'frame' for one frame, or 'format=png' or 'jpeg'") == true, frames?.localizedDescription ?? "")
        let (one, _) = try await loadImage(session, "asset://?id=\(id)&frame=5&format=gif")
        XCTAssertTrue(one == reference.frames[4])

        budget = ResourceBudget()
        budget.animationPixels = 5 * 24 * 16 - 1
        let pixels = makeSchemeSession(source, budget: budget)
        defer { pixels.invalidateAndCancel() }
        let large = await loadError(pixels, "asset://?id=\(id)")
        XCTAssertTrue(large?.localizedDescription.hasSuffix("parameter 'width' makes 5 frames of 24×16; at most 1919 pixels in all are allowed (ResourceBudget.animationPixels): ask for a smaller size, or give 'frame' for one frame, or 'format=png' or 'jpeg'") == true, large?.localizedDescription ?? "")
        _ = try await loadBody(pixels, "asset://?id=\(id)&width=12")

        budget = ResourceBudget()
        budget.animationBytes = 100
        let bytes = makeSchemeSession(source, budget: budget)
        defer { bytes.invalidateAndCancel() }
        let big = await loadError(bytes, "asset://?id=\(id)&format=webp")
        XCTAssertTrue(big?.localizedDescription.hasSuffix("parameter 'format' makes an animation over 100 bytes (ResourceBudget.animationBytes): ask for a smaller size, or give 'frame' for one frame") == true, big?.localizedDescription ?? "")
    }

    /// `format=gif` through each scheme that makes images answers a GIF that
    /// decodes to what the PNG of the same URL shows (exactly, for pictures
    /// of at most 256 colours; within median cut's error for more).
    func testEverySchemeAnswersFormatGIF() async throws {
        let (store, source) = try makeAssetStore()
        let photo = try store.add(PNGEncoder().encode(Bitmap(width: 8, height: 6, fill: RGBA(200, 40, 10))))
        let session = makeSchemeSession(source)
        defer { session.invalidateAndCancel() }
        for url in ["asset://?id=\(photo)&width=4", "avatar://?id=\(photo)&size=32",
                    "poll://?question=Q&option=a&option=b&votes=1,2&width=160"] {
            let (gif, type) = try await loadImage(session, url + "&format=gif")
            XCTAssertEqual(type, "image/gif", url)
            let (png, _) = try await loadImage(session, url + "&format=png")
            XCTAssertEqual([gif.width, gif.height], [png.width, png.height], url)
            XCTAssertGreaterThan(AssetFixtures.psnr(gif, png, opaqueOnly: true), 30, url)  // GIF cuts alpha at 128
        }
    }
}
