import XCTest
import Raster
@testable import ImageCodecs

/// Animated WebPs made by Scripts/make_webp_animations.py (webpmux with every
/// blend and disposal combination, img2webp), each composited frame checked
/// against Pillow's (libwebp's WebPAnimDecoder), with its duration and the loop count.
final class WebPAnimationTests: XCTestCase {
    struct ExpectedFrame {
        var index: Int
        var width: Int
        var height: Int
        var milliseconds: Int
        var loopCount: Int
        var rgba: String
    }

    static func expectations() throws -> [String: [ExpectedFrame]] {
        let table = try String(contentsOf: WebPDecoderTests.fixtures.appendingPathComponent("anim_expectations.tsv"), encoding: .utf8)
        var result: [String: [ExpectedFrame]] = [:]
        for line in table.split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: "\t").map(String.init)
            result[f[0], default: []].append(ExpectedFrame(index: Int(f[1])!, width: Int(f[2])!, height: Int(f[3])!,
                                                           milliseconds: Int(f[4])!, loopCount: Int(f[5])!, rgba: f[6]))
        }
        return result
    }

    private func checkEveryFrame(of name: String) throws {
        let expected = try XCTUnwrap(Self.expectations()[name])
        var animation = try ImageDecoder.animation(WebPDecoderTests.data(name))
        XCTAssertEqual(animation.info.format, .webp)
        XCTAssertEqual(animation.loopCount, expected[0].loopCount, name)
        var count = 0
        while let frame = try animation.nextFrame() {
            let reference = expected[count]
            XCTAssertEqual(frame.index, reference.index)
            XCTAssertEqual(frame.bitmap.width, reference.width)
            XCTAssertEqual(frame.bitmap.height, reference.height)
            XCTAssertEqual(WebPDecoderTests.fnv1a64(frame.bitmap.pixels), reference.rgba, "\(name) frame \(count) differs from Pillow's")
            XCTAssertEqual(frame.delay, AnimationFrame.browserDelay(milliseconds: reference.milliseconds), "\(name) frame \(count)")
            count += 1
        }
        XCTAssertEqual(count, expected.count, "\(name): frame count")
        XCTAssertNil(try animation.nextFrame())
    }

    func testFramesBlendedAndDisposedEveryWayEqualLibwebps() throws {
        try checkEveryFrame(of: "anim_mux.webp")
    }

    func testImg2webpSubframesEqualLibwebps() throws {
        try checkEveryFrame(of: "anim_img2webp.webp")
    }

    func testLossyFramesWithAlphaEqualLibwebps() throws {
        try checkEveryFrame(of: "anim_lossy.webp")
    }

    func testAZeroDurationShowsForABrowsersHundredMilliseconds() throws {
        var animation = try ImageDecoder.animation(WebPDecoderTests.data("anim_mux.webp"))
        for _ in 0..<3 { _ = try animation.nextFrame() }
        XCTAssertEqual(try animation.nextFrame()?.delay, 0.1)
    }

    func testAStillDecodeOfAnAnimationIsItsFirstFrame() throws {
        let data = try WebPDecoderTests.data("anim_mux.webp")
        let still = try ImageDecoder.decode(data)
        var animation = try ImageDecoder.animation(data)
        XCTAssertEqual(still.bitmap, try animation.nextFrame()?.bitmap)
        XCTAssertEqual(try ImageDecoder.readInfo(data), ImageInfo(format: .webp, width: 48, height: 40, hasAlpha: true))
    }

    func testAStillWebPIsOneFrame() throws {
        var animation = try ImageDecoder.animation(WebPDecoderTests.data("lossless_vec_1_0.webp"))
        XCTAssertEqual(animation.loopCount, 1)
        XCTAssertNotNil(try animation.nextFrame())
        XCTAssertNil(try animation.nextFrame())
    }

    func testBlendingFollowsLibwebpsIntegerArithmetic() {
        // Half-transparent red over opaque blue, and over transparent (where
        // libwebp's scale loses a step), worked by hand from BlendPixelNonPremult.
        let red: UInt32 = 0x80_00_00_FF, blue: UInt32 = 0xFF_FF_00_00
        // dst factor (255 × 128) >> 8 = 127; alpha 255; scale 2^24 / 255 = 65793.
        // red: 255·128·65793 >> 24 = 127; blue: 255·127·65793 >> 24 = 126.
        XCTAssertEqual(WebPAnimationDecoder.blend(red, over: blue), 0xFF_7E_00_7F)
        XCTAssertEqual(WebPAnimationDecoder.blend(0x00_12_34_56, over: blue), blue)
        // Alpha 100 over transparent: scale 2^24 / 100 = 167772; red 255·100·167772 >> 24 = 254.
        XCTAssertEqual(WebPAnimationDecoder.blend(0x64_00_00_FF, over: 0), 0x64_00_00_FE)
    }
}

