import Foundation
import XCTest
import Raster
@testable import ImageCodecs

/// GIFs made by `Scripts/make_gif_fixtures.py`, each decoded frame by frame
/// and compared, pixel for pixel, with the frames gifsicle (`--unoptimize
/// --explode`) and Pillow composite from it, with their delays and loop count.
final class GIFDecoderTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/gif")
    static let names = ["disposal_keep", "disposal_background", "disposal_previous", "disposal_previous_first",
                        "disposal_unspecified", "interlaced", "local_palettes", "still87a", "deferred_clear",
                        "outside_canvas", "gifsicle_o3", "pillow_written"]

    struct Expected: Decodable {
        var width: Int, height: Int, frames: Int
        var delays_ms: [Int]
        var loop: Int?
    }

    static func gif(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name + ".gif"))
    }

    /// The reference: the frames, each as RGBA bytes with transparent pixels
    /// 0,0,0,0, and the stored delays and loop count.
    static func expected(_ name: String) throws -> (Expected, [[UInt8]]) {
        let facts = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: fixtures.appendingPathComponent(name + ".json")))
        let strip = try PNGDecoder().decode(Data(contentsOf: fixtures.appendingPathComponent(name + ".png")))
        let frameBytes = facts.width * facts.height * 4
        let frames = (0..<facts.frames).map { Array(strip.pixels[$0 * frameBytes..<($0 + 1) * frameBytes]) }
        return (facts, frames)
    }

    /// RGBA bytes with every transparent pixel's colour set to 0, as the references are.
    static func normalized(_ bitmap: Bitmap) -> [UInt8] {
        var bytes = bitmap.pixels
        for i in stride(from: 0, to: bytes.count, by: 4) where bytes[i + 3] == 0 {
            bytes[i] = 0; bytes[i + 1] = 0; bytes[i + 2] = 0
        }
        return bytes
    }

    static func allFrames(_ data: Data, options: ImageDecoder.Options = .init()) throws -> (AnimatedImage, [AnimationFrame]) {
        var animation = try ImageDecoder.animation(data, options: options)
        var frames: [AnimationFrame] = []
        while let frame = try animation.nextFrame() { frames.append(frame) }
        return (animation, frames)
    }

    func testEveryFixtureMatchesTheReferenceFrameByFrame() throws {
        for name in Self.names {
            let (expected, references) = try Self.expected(name)
            let (animation, frames) = try Self.allFrames(try Self.gif(name))
            XCTAssertEqual(animation.info, ImageInfo(format: .gif, width: expected.width, height: expected.height,
                                                     hasAlpha: animation.info.hasAlpha), name)
            XCTAssertEqual(frames.count, expected.frames, name)
            for (frame, reference) in zip(frames, references) {
                XCTAssertEqual([frame.bitmap.width, frame.bitmap.height], [expected.width, expected.height], name)
                let got = Self.normalized(frame.bitmap)
                if got != reference {
                    let first = zip(got, reference).enumerated().first { $0.element.0 != $0.element.1 }.map { $0.offset / 4 } ?? -1
                    XCTFail("\(name) frame \(frame.index) differs first at pixel (\(first % expected.width), \(first / expected.width))")
                }
            }
            // Browsers show a delay under 20 ms (or none) for 100 ms.
            XCTAssertEqual(frames.map(\.delay), expected.delays_ms.map { $0 < 20 ? 0.1 : Double($0) / 1000 }, name)
            XCTAssertEqual(frames.map(\.index), Array(0..<frames.count), name)
            // A stored count of N repeats N times after the first play; 0 is forever; none plays once.
            XCTAssertEqual(animation.loopCount, expected.loop.map { $0 == 0 ? 0 : $0 + 1 } ?? 1, name)
        }
    }

    func testDecodeGivesTheFirstFrameAndReadInfoTheCanvas() throws {
        for name in Self.names {
            let data = try Self.gif(name)
            let (expected, references) = try Self.expected(name)
            let decoded = try ImageDecoder.decode(data)
            XCTAssertEqual(Self.normalized(decoded.bitmap), references[0], name)
            XCTAssertEqual(decoded.info.format, .gif)
            XCTAssertEqual(try ImageDecoder.readInfo(data), decoded.info, name)
            XCTAssertEqual(try GIFDecoder().readInfo(data), decoded.info, name)
            XCTAssertEqual([decoded.info.width, decoded.info.height], [expected.width, expected.height], name)
            XCTAssertEqual(try GIFDecoder().decode(data), decoded.bitmap, name)
            XCTAssertEqual(try ImageDecoder.decode((Data([1, 2, 3]) + data).dropFirst(3)).bitmap, decoded.bitmap, "\(name) in a slice")
        }
        // The first frame of these covers the canvas with no transparent index in use: opaque, as stored.
        XCTAssertFalse(try ImageDecoder.readInfo(try Self.gif("still87a")).hasAlpha)
        XCTAssertTrue(try ImageDecoder.readInfo(try Self.gif("disposal_keep")).hasAlpha, "a transparent index")
    }

    /// At a reduced scale the first frame is composited straight at that
    /// size: each pixel the box average of the reference's (the colour over
    /// its opaque pixels, alpha the opaque share), edges averaging fewer.
    func testAReducedFirstFrameIsTheBoxAverageOfTheFullOne() throws {
        for name in Self.names {
            let (expected, references) = try Self.expected(name)
            let full = references[0], (width, height) = (expected.width, expected.height)
            for scale in [JPEGScale.half, .quarter, .eighth] {
                let f = scale.rawValue
                let decoded = try ImageDecoder.decode(try Self.gif(name), options: .init(jpegScale: scale))
                XCTAssertEqual(decoded.scale, scale, name)
                XCTAssertEqual([decoded.bitmap.width, decoded.bitmap.height], [scale.scaled(width), scale.scaled(height)], name)
                var box = [UInt8]()
                for oy in 0..<scale.scaled(height) {
                    for ox in 0..<scale.scaled(width) {
                        var sums = [0, 0, 0], opaque = 0, area = 0
                        for y in oy * f..<min(oy * f + f, height) {
                            for x in ox * f..<min(ox * f + f, width) {
                                area += 1
                                let at = (y * width + x) * 4
                                guard full[at + 3] == 255 else { continue }
                                opaque += 1
                                for c in 0..<3 { sums[c] += Int(full[at + c]) }
                            }
                        }
                        box += opaque == 0 ? [0, 0, 0, 0] : sums.map { UInt8(($0 + opaque / 2) / opaque) } + [UInt8((255 * opaque + area / 2) / area)]
                    }
                }
                XCTAssertEqual(Self.normalized(decoded.bitmap), box, "\(name) at 1/\(f)")
            }
        }
    }

    /// The frames a caller does not keep are not kept: the decoder reuses one
    /// canvas, so each frame handed out stays as it was when the next is drawn.
    func testFramesHandedOutDoNotChangeAfterwards() throws {
        let (_, references) = try Self.expected("disposal_previous")
        var animation = try ImageDecoder.animation(try Self.gif("disposal_previous"))
        var kept: [Bitmap] = []
        while let frame = try animation.nextFrame() { kept.append(frame.bitmap) }
        XCTAssertEqual(kept.map(Self.normalized), references)
    }
}
