import XCTest
import Foundation
@testable import ImageCodecs
import Raster

/// Animated WebP out: frames, delays and loop count come back exactly through
/// our decoder and libwebp's `webpinfo` accepts the file; frames store only
/// the box that changed, blended when it can be; a pixel turning
/// transparent is written without blending.
final class WebPAnimationEncoderTests: XCTestCase {
    /// Translucent frames: a square moving over a gradient, then a hole cut in it.
    static func frames() throws -> [Bitmap] {
        var frames: [Bitmap] = []
        for step in 0..<3 {
            frames.append(try GIFEncoderTests.bitmap(41, 30) { (x: Int, y: Int) -> RGBA in
                if (step * 7..<step * 7 + 9).contains(x) && (5..<14).contains(y) { return RGBA(250, 10, 10) }
                let r = UInt8(x * 6), g = UInt8(y * 8), a = UInt8(y < 15 ? 255 : 255 - y)
                return RGBA(r, g, 90, a)
            })
        }
        var hole = frames[2]
        for y in 20..<25 { for x in 3..<9 { hole[x, y] = .clear } }
        frames.append(hole)
        frames.append(hole)
        return frames
    }

    func testAnAnimationComesBackExactlyWithItsTiming() throws {
        let frames = try Self.frames()
        let delays = [0.04, 0.1, 0.5, 1.0, 0.25]
        for loopCount in [0, 2] {
            var encoder = try WebPAnimationEncoder(width: 41, height: 30, loopCount: loopCount)
            for (frame, delay) in zip(frames, delays) { try encoder.add(frame, delay: delay) }
            let data = try encoder.finish()
            XCTAssertEqual(ImageFormat(sniffing: data), .webp)
            let decoded = try GIFEncoderTests.decodeAll(data)
            XCTAssertEqual(decoded.frames.count, 5)
            for (index, (got, want)) in zip(decoded.frames, frames).enumerated() { XCTAssertTrue(got == want, "frame \(index)") }
            XCTAssertEqual(decoded.delays, delays)
            XCTAssertEqual(decoded.loopCount, loopCount)
        }
    }

    func testFramesStoreTheChangedBoxBlendedWhenTheyCan() throws {
        var encoder = try WebPAnimationEncoder(width: 41, height: 30)
        for frame in try Self.frames() { try encoder.add(frame, delay: 0.1) }
        let data = try encoder.finish()
        // Each ANMF: x/2, y/2, width-1, height-1, duration (3 bytes each), flags.
        var offset = 12, frames: [[Int]] = []
        let bytes = [UInt8](data)
        func u24(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 }
        while offset + 8 <= bytes.count {
            let tag = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if tag == "ANMF" {
                let p = offset + 8
                frames.append([2 * u24(p), 2 * u24(p + 3), u24(p + 6) + 1, u24(p + 9) + 1, Int(bytes[p + 15])])
            }
            offset += 8 + size + (size & 1)
        }
        XCTAssertEqual(frames.count, 5)
        XCTAssertEqual(frames[0], [0, 0, 41, 30, 2], "the first frame: the whole canvas, translucent, not blended")
        XCTAssertEqual(frames[1], [0, 4, 16, 10, 0], "the moved square's box, from even corners, blended (its pixels are opaque)")
        XCTAssertEqual(frames[3], [2, 20, 7, 5, 2], "a hole cut: not blended")
        XCTAssertEqual(Array(frames[4][2...3]), [1, 1], "an unchanged frame is one pixel")
    }

    func testTheFrameCoderIsASeamAndLimitsAreNamed() throws {
        /// A coder that writes each frame as the lossless encoder at effort 0 would, counting its calls.
        final class Counting: ImageEncoding, @unchecked Sendable {  // @unchecked: used from one test's thread only
            var calls = 0
            var format: ImageFormat { .webp }
            func encode(_ bitmap: Bitmap) throws -> Data { calls += 1; return try WebPLosslessEncoder(effort: 0).encode(bitmap) }
        }
        let coder = Counting()
        var encoder = try WebPAnimationEncoder(width: 41, height: 30, frameEncoder: coder, limits: AnimationEncodingLimits(maximumFrameCount: 3))
        let frames = try Self.frames()
        for frame in frames.prefix(3) { try encoder.add(frame, delay: 0.1) }
        XCTAssertEqual(coder.calls, 3)
        XCTAssertThrowsError(try encoder.add(frames[3], delay: 0.1)) { error in
            XCTAssertEqual((error as? ImageCodecError)?.detail, .animation(.tooManyFrames(limit: 3)))
        }
        let decoded = try GIFEncoderTests.decodeAll(try encoder.finish())
        XCTAssertTrue(decoded.frames[2] == frames[2])
        XCTAssertThrowsError(try WebPAnimationEncoder(width: 20_000, height: 1)) { error in
            XCTAssertEqual("\(error)", "cannot encode a 20000×1 image as WebP: each side must be 1 to 16384 pixels")
        }
    }

    /// libwebp's `webpinfo` checks every chunk of the file.
    func testLibwebpReadsTheFile() throws {
        let webpinfo = try ExternalTool.path("webpinfo", package: "Debian's webp package", requiredBy: "URLSCHEMEKIT_REQUIRE_DWEBP")
        var encoder = try WebPAnimationEncoder(width: 41, height: 30, loopCount: 3)
        for frame in try Self.frames() { try encoder.add(frame, delay: 0.12) }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("webpanim-\(UUID().uuidString).webp")
        try encoder.finish().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process(), pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: webpinfo)
        process.arguments = [file.path]
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, output)
        XCTAssertTrue(output.contains("No error detected."), output)
        XCTAssertTrue(output.contains("Loop count      : 3"), output)
        XCTAssertEqual(output.components(separatedBy: "Duration: 120").count - 1, 5, output)
    }
}
