import XCTest
import Foundation
@testable import ImageCodecs
import Raster

/// The GIF encoder: LZW round trips through our decoder, exact colours for
/// frames of up to 256, median cut (optionally dithered) beyond, transparency,
/// the loop count and delays, sub-rectangle frames with disposal chosen per
/// frame; and gifsicle reads what it writes (required where
/// `URLSCHEMEKIT_REQUIRE_CLI` is set, as in CI).
final class GIFEncoderTests: XCTestCase {
    /// Every frame as our decoder composites it, with its delay, and the loop count.
    static func decodeAll(_ data: Data) throws -> (frames: [Bitmap], delays: [Double], loopCount: Int) {
        var animation = try ImageDecoder.animation(data)
        var frames: [Bitmap] = [], delays: [Double] = []
        while let frame = try animation.nextFrame() {
            frames.append(frame.bitmap)
            delays.append(frame.delay)
        }
        return (frames, delays, animation.loopCount)
    }

    /// A bitmap whose pixel (x, y) is `color(x, y)`.
    static func bitmap(_ width: Int, _ height: Int, _ color: (Int, Int) -> RGBA) throws -> Bitmap {
        var bitmap = try Bitmap(width: width, height: height)
        for y in 0..<height { for x in 0..<width { bitmap[x, y] = color(x, y) } }
        return bitmap
    }

    /// A moving square over a striped background, then a frame that clears
    /// part of the canvas to transparent, then one the same as before.
    static func movingSquare() throws -> [Bitmap] {
        let palette = (0..<40).map { (i: Int) -> RGBA in
            let r = UInt8(i * 6), g = UInt8(255 - i * 5), b = UInt8(i * 3)
            return RGBA(r, g, b)
        }
        var frames: [Bitmap] = []
        for step in 0..<4 {
            frames.append(try bitmap(37, 23) { x, y in
                if (step * 5..<step * 5 + 8).contains(x) && (3..<11).contains(y) { return RGBA(255, 0, 0) }
                return palette[(x / 3 + y) % palette.count]
            })
        }
        frames.append(try bitmap(37, 23) { x, y in x > 20 && y > 10 ? .clear : palette[(x / 3 + y) % palette.count] })
        frames.append(frames[4])
        return frames
    }

    func testAStillImageOfFewColoursComesBackExactly() throws {
        // Random indices of 200 colours, plus transparency: LZW's table fills and clears many times.
        var random = SystemRandomNumberGenerator()
        let colors = (0..<200).map { (_: Int) -> RGBA in
            let word = UInt32.random(in: 0...0xFF_FFFF, using: &random)
            return RGBA(UInt8(word & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word >> 16))
        }
        for (width, height, choices) in [(1, 1, 1), (3, 2, 2), (300, 200, 200), (511, 7, 3)] {
            let image = try Self.bitmap(width, height) { x, y in (x * 7 + y * 3) % 11 == 0 ? .clear : colors[Int.random(in: 0..<choices)] }
            let data = try GIFEncoder().encode(image)
            XCTAssertEqual(ImageFormat(sniffing: data), .gif)
            let decoded = try ImageDecoder.decode(data).bitmap
            XCTAssertTrue(decoded == image, "\(width)×\(height) of \(choices) colours")
        }
    }

    func testTheLZWCodesWidenAndClearAsTheDecoderExpects() throws {
        // Every code width from 3 to 12 bits and several table resets, for each minimum code size.
        for bits in 2...8 {
            let count = 1 << bits
            var state: UInt32 = 12345
            let indices = (0..<20_000).map { i -> UInt8 in
                state = state &* 1_103_515_245 &+ 12345
                return i % 3 == 0 ? UInt8(i % count) : UInt8(Int(state >> 16) % count)
            }
            let codes = indices.withUnsafeBufferPointer { GIFLZWEncoder(minimumCodeSize: bits).encode($0) }
            var decoder = GIFLZWDecoder()
            var output = [UInt8](repeating: 0, count: indices.count)
            let result = try codes.withUnsafeBufferPointer { codes in
                try output.withUnsafeMutableBufferPointer { try decoder.decode(codes, minimumCodeSize: bits, into: $0, frame: 0) }
            }
            XCTAssertEqual(result.count, indices.count)
            XCTAssertEqual(output, indices, "minimum code size \(bits)")
        }
    }

    func testAnAnimationKeepsItsFramesDelaysAndLoopCount() throws {
        let frames = try Self.movingSquare()
        let delays = [0.05, 0.1, 0.25, 1.5, 0.07, 0.03]
        for loopCount in [0, 1, 3] {
            var encoder = try GIFAnimationEncoder(width: 37, height: 23, loopCount: loopCount)
            for (frame, delay) in zip(frames, delays) { try encoder.add(frame, delay: delay) }
            let data = try encoder.finish()
            let decoded = try Self.decodeAll(data)
            XCTAssertEqual(decoded.frames.count, frames.count)
            for (index, (got, want)) in zip(decoded.frames, frames).enumerated() {
                XCTAssertTrue(got == want, "frame \(index) differs")
            }
            XCTAssertEqual(decoded.delays, delays)
            XCTAssertEqual(decoded.loopCount, loopCount)
        }
    }

    func testFramesStoreOnlyWhatChanged() throws {
        let frames = try Self.movingSquare()
        var encoder = try GIFAnimationEncoder(width: 37, height: 23)
        for frame in frames { try encoder.add(frame, delay: 0.1) }
        let data = try encoder.finish()
        var parser = try GIFParser(data)
        var descriptors: [GIFImageDescriptor] = []
        while let frame = try parser.nextImage() {
            descriptors.append(frame)
            _ = parser.imageData()
        }
        XCTAssertEqual(descriptors.count, 6)
        XCTAssertEqual([descriptors[0].width, descriptors[0].height], [37, 23], "the first frame draws the whole canvas")
        // The square moves 5 pixels: the box of old and new squares, 13×8.
        XCTAssertEqual([descriptors[1].left, descriptors[1].top, descriptors[1].width, descriptors[1].height], [0, 3, 13, 8])
        XCTAssertEqual(descriptors[2].disposal, .keep)
        // Frame 5 clears pixels to transparent: frame 4 is disposed to background.
        XCTAssertEqual(descriptors[3].disposal, .background)
        XCTAssertEqual([descriptors[5].width, descriptors[5].height], [1, 1], "an unchanged frame is one pixel")
    }

    func testManyColoursAreReducedByMedianCutAndCanBeDithered() throws {
        let gradient = try Self.bitmap(128, 96) { (x: Int, y: Int) -> RGBA in
            let r = UInt8(x * 2), g = UInt8(y * 2 + 40), b = UInt8((x + y) % 256)
            return RGBA(r, g, b)
        }
        for dithers in [false, true] {
            let data = try GIFEncoder(dithers: dithers).encode(gradient)
            let decoded = try ImageDecoder.decode(data).bitmap
            var total = 0, worst = 0
            for (a, b) in zip(decoded.pixels, gradient.pixels) {
                total += abs(Int(a) - Int(b))
                worst = max(worst, abs(Int(a) - Int(b)))
            }
            let mean = Double(total) / Double(gradient.pixels.count)
            XCTAssertLessThan(mean, 4, "mean channel error with dithering \(dithers)")
            XCTAssertLessThan(worst, 48)
        }
        let plain = try GIFEncoder().encode(gradient), dithered = try GIFEncoder(dithers: true).encode(gradient)
        XCTAssertNotEqual(plain, dithered)
    }

    func testLimitsAndBadSizesAreRefusedNamingThem() throws {
        XCTAssertThrowsError(try GIFAnimationEncoder(width: 0, height: 4)) { error in
            XCTAssertEqual((error as? ImageCodecError)?.kind, .unsupported)
            XCTAssertEqual("\(error)", "cannot encode a 0×4 image as GIF: each side must be 1 to 65535 pixels")
        }
        var encoder = try GIFAnimationEncoder(width: 4, height: 4, limits: AnimationEncodingLimits(maximumFrameCount: 2))
        let frame = try Bitmap(width: 4, height: 4, fill: RGBA(1, 2, 3))
        XCTAssertThrowsError(try encoder.add(Bitmap(width: 5, height: 4), delay: 0.1)) { error in
            XCTAssertEqual("\(error)", "cannot encode a 5×4 image as GIF: the animation's canvas is 4×4")
        }
        try encoder.add(frame, delay: 0.1)
        try encoder.add(frame, delay: 0.1)
        XCTAssertThrowsError(try encoder.add(frame, delay: 0.1)) { error in
            XCTAssertEqual((error as? ImageCodecError)?.detail, .animation(.tooManyFrames(limit: 2)))
        }
        var small = try GIFAnimationEncoder(width: 64, height: 64, limits: AnimationEncodingLimits(maximumEncodedBytes: 200))
        let noise = try Self.bitmap(64, 64) { (x: Int, y: Int) -> RGBA in
            let r = UInt8(x * 37 % 256), g = UInt8(y * 91 % 256), b = UInt8(x * y % 256)
            return RGBA(r, g, b)
        }
        XCTAssertThrowsError(try { try small.add(noise, delay: 0.1); try small.add(noise.flipped(.horizontal), delay: 0.1) }()) { error in
            guard case .animation(.tooManyEncodedBytes(_, 200))? = (error as? ImageCodecError)?.detail else { return XCTFail("\(error)") }
        }
    }

    /// gifsicle, an independent reader, takes every file: the frame count,
    /// the loop count and the delays are what was asked.
    func testGifsicleReadsTheFiles() throws {
        let gifsicle = try ExternalTool.path("gifsicle", package: "Debian's gifsicle", requiredBy: "URLSCHEMEKIT_REQUIRE_CLI")
        var encoder = try GIFAnimationEncoder(width: 37, height: 23, loopCount: 4, dithers: true)
        for frame in try Self.movingSquare() { try encoder.add(frame, delay: 0.2) }
        let colourful = try Self.bitmap(37, 23) { (x: Int, y: Int) -> RGBA in
            let r = UInt8(x * 6), g = UInt8(y * 11), b = UInt8(x * y % 256)
            return RGBA(r, g, b)
        }
        try encoder.add(colourful, delay: 0.5)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gifencoder-\(UUID().uuidString).gif")
        try encoder.finish().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process(), pipe = Pipe(), errors = Pipe()
        process.executableURL = URL(fileURLWithPath: gifsicle)
        process.arguments = ["--info", file.path]
        process.standardOutput = pipe
        process.standardError = errors
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaints = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, complaints)
        XCTAssertEqual(complaints, "", "gifsicle warns")
        XCTAssertTrue(output.contains("7 images"), output)
        XCTAssertTrue(output.contains("loop count 3"), output)
        XCTAssertEqual(output.components(separatedBy: "delay 0.20s").count - 1, 6, output)
        XCTAssertTrue(output.contains("delay 0.50s"), output)
    }
}
