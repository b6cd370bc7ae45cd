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
}
