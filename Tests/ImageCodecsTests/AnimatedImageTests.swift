import XCTest
import Raster
@testable import ImageCodecs

final class AnimatedImageTests: XCTestCase {
    /// A still PNG or JPEG through the animation API is one frame, the image
    /// `decode` gives, shown for the browsers' default 100 ms.
    func testAStillImageIsOneFrame() throws {
        var pixels = try Bitmap(width: 5, height: 3, fill: .clear)
        pixels[2, 1] = RGBA(200, 10, 30, 128)
        for data in [try ImageEncoder.encode(pixels, format: .png), try ImageEncoder.encode(pixels, format: .jpeg)] {
            var animation = try ImageDecoder.animation(data)
            XCTAssertEqual([animation.info.width, animation.info.height], [5, 3])
            XCTAssertEqual(animation.loopCount, 1)
            let frame = try XCTUnwrap(try animation.nextFrame())
            XCTAssertEqual(frame.bitmap, try ImageDecoder.decode(data).bitmap)
            XCTAssertEqual(frame.delay, 0.1)
            XCTAssertEqual(frame.index, 0)
            XCTAssertNil(try animation.nextFrame())
            XCTAssertNil(try animation.nextFrame(), "still nil after the end")
            XCTAssertEqual(animation.frameCount, 1)
        }
    }

    func testTheLimitsApplyToAStillFrameToo() throws {
        let data = try ImageEncoder.encode(try Bitmap(width: 4, height: 4, fill: .white), format: .png)
        var none = try ImageDecoder.animation(data, options: .init(maximumFrameCount: 0))
        XCTAssertThrowsError(try none.nextFrame()) { error in
            XCTAssertEqual((error as? ImageCodecError)?.detail, .animation(.tooManyFrames(limit: 0)))
            XCTAssertEqual((error as? ImageCodecError)?.kind, .tooLarge)
        }
        var small = try ImageDecoder.animation(data, options: .init(maximumAnimationPixelCount: 15))
        XCTAssertThrowsError(try small.nextFrame()) { error in
            XCTAssertEqual((error as? ImageCodecError)?.detail, .animation(.tooManyPixels(frames: 1, canvasPixels: 16, limit: 15)))
        }
        XCTAssertNil(try small.nextFrame(), "an animation that threw is over")
        XCTAssertThrowsError(try ImageDecoder.animation(data, options: .init(maximumPixelCount: 15))) { error in
            XCTAssertEqual((error as? ImageCodecError)?.kind, .tooLarge, "the canvas is checked at the header")
        }
    }

    func testBrowserDelays() {
        XCTAssertEqual(AnimationFrame.browserDelay(milliseconds: nil), 0.1)
        XCTAssertEqual(AnimationFrame.browserDelay(milliseconds: 0), 0.1)
        XCTAssertEqual(AnimationFrame.browserDelay(milliseconds: 10), 0.1)
        XCTAssertEqual(AnimationFrame.browserDelay(milliseconds: 19), 0.1)
        XCTAssertEqual(AnimationFrame.browserDelay(milliseconds: 20), 0.02)
        XCTAssertEqual(AnimationFrame.browserDelay(milliseconds: 1500), 1.5)
    }
}
