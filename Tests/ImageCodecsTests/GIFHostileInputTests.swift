import Foundation
import XCTest
import Raster
@testable import ImageCodecs

/// Damaged, cut-short and hostile GIFs: a clear `ImageCodecError` or the
/// frames a browser would show, never a crash, a hang or an allocation the
/// header did not pass.
final class GIFHostileInputTests: XCTestCase {
    // MARK: Building small GIFs by hand

    /// LZW data that sends a clear code before every literal, so no table
    /// entry is ever made: codes of `codeSize + 1` bits, trivially right.
    static func literalLZW(_ indices: [UInt8], codeSize: Int) -> [UInt8] {
        let clear = 1 << codeSize, width = codeSize + 1
        var codes: [Int] = []
        for index in indices { codes += [clear, Int(index)] }
        codes.append(clear + 1)
        return pack(codes, width: width)
    }

    static func pack(_ codes: [Int], width: Int) -> [UInt8] {
        var out: [UInt8] = [], accumulator = 0, bits = 0
        for code in codes {
            accumulator |= code << bits
            bits += width
            while bits >= 8 { out.append(UInt8(accumulator & 0xFF)); accumulator >>= 8; bits -= 8 }
        }
        if bits > 0 { out.append(UInt8(accumulator & 0xFF)) }
        return out
    }

    static func subBlocks(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < data.count {
            let n = min(255, data.count - i)
            out += [UInt8(n)] + data[i..<i + n]
            i += n
        }
        return out + [0]
    }

    static func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

    /// Header, logical screen and (optionally) a global palette of 4 colours.
    static func header(width: Int, height: Int, globalPalette: Bool = true) -> [UInt8] {
        Array("GIF89a".utf8) + u16(width) + u16(height) + [globalPalette ? 0x81 : 0, 0, 0]
            + (globalPalette ? [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255] : [])
    }

    static func control(transparent: Int? = nil, disposal: Int = 0, delay: Int = 10) -> [UInt8] {
        [0x21, 0xF9, 4, UInt8(disposal << 2 | (transparent == nil ? 0 : 1))] + u16(delay) + [UInt8(transparent ?? 0), 0]
    }

    static func image(_ rect: (Int, Int, Int, Int), localPalette: [UInt8]? = nil, codeSize: Int = 2, data: [UInt8]) -> [UInt8] {
        var flags: UInt8 = 0
        if let localPalette { flags = 0x80 | UInt8((localPalette.count / 3).trailingZeroBitCount - 1) }
        return [0x2C] + u16(rect.0) + u16(rect.1) + u16(rect.2) + u16(rect.3) + [flags] + (localPalette ?? [])
            + [UInt8(codeSize)] + subBlocks(data)
    }

    func codecError(_ body: () throws -> Any, file: StaticString = #filePath, line: UInt = #line) -> ImageCodecError? {
        do {
            _ = try body()
            XCTFail("no error", file: file, line: line)
        } catch let error as ImageCodecError {
            return error
        } catch {
            XCTFail("not an ImageCodecError: \(error)", file: file, line: line)
        }
        return nil
    }

    // MARK: Limits, before allocating

    func testA65535SquareScreenIsRefusedAtTheHeader() throws {
        // 13 bytes: nothing after the screen descriptor, so the refusal cannot come from reading on.
        let bomb = Data(Self.header(width: 65535, height: 65535, globalPalette: false))
        for body in [{ try ImageDecoder.readInfo(bomb) as Any }, { try ImageDecoder.decode(bomb) }, { try ImageDecoder.animation(bomb) }] {
            let error = codecError(body)
            XCTAssertEqual(error?.kind, .tooLarge)
            XCTAssertEqual(error?.detail, .gif(.tooManyPixels(width: 65535, height: 65535, limit: defaultMaximumPixelCount)))
        }
    }

    func testAFirstFrameThatEnlargesTheCanvasPastTheLimitIsRefused() {
        let file = Data(Self.header(width: 1, height: 1) + Self.image((0, 0, 60000, 60000), data: Self.literalLZW([1], codeSize: 2)) + [0x3B])
        XCTAssertEqual(codecError { try ImageDecoder.readInfo(file) }?.detail,
                       .gif(.tooManyPixels(width: 60000, height: 60000, limit: defaultMaximumPixelCount)))
        // A later frame that large is over the limit too, though it would be clipped.
        let later = Data(Self.header(width: 2, height: 2) + Self.image((0, 0, 2, 2), data: Self.literalLZW([1, 1, 1, 1], codeSize: 2))
                         + Self.image((0, 0, 60000, 60000), data: Self.literalLZW([2], codeSize: 2)) + [0x3B])
        XCTAssertEqual(codecError { try GIFHostileInputTests.frames(later) }?.kind, .tooLarge)
    }

    static func frames(_ data: Data, options: ImageDecoder.Options = .init()) throws -> [AnimationFrame] {
        try GIFDecoderTests.allFrames(data, options: options).1
    }

    func testAFrameCountBombStopsAtTheLimits() throws {
        var bytes = Self.header(width: 10, height: 10)
        for i in 0..<50 { bytes += Self.control(delay: 0) + Self.image((i % 10, 0, 1, 1), data: Self.literalLZW([UInt8(i % 4)], codeSize: 2)) }
        let file = Data(bytes + [0x3B])
        XCTAssertEqual(try Self.frames(file).count, 50)
        var animation = try ImageDecoder.animation(file, options: .init(maximumFrameCount: 20))
        for _ in 0..<20 { XCTAssertNotNil(try animation.nextFrame()) }
        XCTAssertEqual(codecError { try animation.nextFrame() as Any }?.detail, .animation(.tooManyFrames(limit: 20)))
        animation = try ImageDecoder.animation(file, options: .init(maximumAnimationPixelCount: 1000))
        for _ in 0..<10 { XCTAssertNotNil(try animation.nextFrame()) }
        XCTAssertEqual(codecError { try animation.nextFrame() as Any }?.detail,
                       .animation(.tooManyPixels(frames: 11, canvasPixels: 100, limit: 1000)))
    }

    /// The frames are counted from the blocks when the file is opened, so a
    /// caller that decodes them all refuses the file before decoding one; a
    /// file cut inside its last frame counts that frame, one cut inside a
    /// descriptor does not.
    func testTheFrameCountIsKnownBeforeAnyFrameIsDecoded() throws {
        var bytes = Self.header(width: 10, height: 10)
        for i in 0..<50 { bytes += Self.control(delay: 0) + Self.image((i % 10, 0, 1, 1), data: Self.literalLZW([UInt8(i % 4)], codeSize: 2)) }
        let file = Data(bytes + [0x3B])
        let animation = try ImageDecoder.animation(file, options: .init(maximumFrameCount: 20))
        XCTAssertEqual(animation.storedFrameCount, 50)
        XCTAssertEqual(codecError { try animation.checkLimits() }?.detail, .animation(.tooManyFrames(limit: 20)))
        XCTAssertEqual(animation.frameCount, 0, "nothing decoded")
        let pixels = try ImageDecoder.animation(file, options: .init(maximumAnimationPixelCount: 4999))
        XCTAssertEqual(codecError { try pixels.checkLimits() }?.detail, .animation(.tooManyPixels(frames: 50, canvasPixels: 100, limit: 4999)))
        XCTAssertNoThrow(try ImageDecoder.animation(file, options: .init(maximumFrameCount: 50, maximumAnimationPixelCount: 5000)).checkLimits())
        XCTAssertEqual(try ImageDecoder.animation(file.prefix(file.count - 3)).storedFrameCount, 50, "cut in the last frame's data")
        XCTAssertEqual(try ImageDecoder.animation(file.prefix(file.count - 12)).storedFrameCount, 49, "cut in the last descriptor")
    }

    // MARK: Damaged data

    func testACodeBeyondTheTableIsCorrupt() {
        // Code size 2: 3-bit codes. Clear (4), then 7 where the next code would be 6.
        let file = Data(Self.header(width: 2, height: 1) + Self.image((0, 0, 2, 1), data: Self.pack([4, 7, 5], width: 3)) + [0x3B])
        let error = codecError { try ImageDecoder.decode(file) }
        XCTAssertEqual(error?.kind, .corrupt)
        XCTAssertEqual(error?.detail, .gif(.badLZWCode(code: 7, next: 6, frame: 0)))
        // The first code after a clear must be a literal: 6 (next) is not one yet.
        let early = Data(Self.header(width: 2, height: 1) + Self.image((0, 0, 2, 1), data: Self.pack([4, 6, 5], width: 3)) + [0x3B])
        XCTAssertEqual(codecError { try ImageDecoder.decode(early) }?.detail, .gif(.badLZWCode(code: 6, next: 6, frame: 0)))
    }

    func testCodeSizesTheDecoderCannotUseAreCorrupt() {
        for size in [0, 12, 255] {
            let file = Data(Self.header(width: 1, height: 1) + Self.image((0, 0, 1, 1), codeSize: size, data: [0]) + [0x3B])
            XCTAssertEqual(codecError { try ImageDecoder.readInfo(file) }?.kind, .corrupt, "code size \(size)")
        }
    }

    func testAFileWithNoImageIsCorruptAndNotAGIFIsUnsupported() {
        XCTAssertEqual(codecError { try ImageDecoder.decode(Data(Self.header(width: 4, height: 4) + [0x3B])) }?.detail,
                       .gif(.invalid("the file holds no image")))
        XCTAssertEqual(codecError { try GIFDecoder().decode(Data("GIF88a and more".utf8)) }?.detail, .gif(.notGIF))
        XCTAssertEqual(codecError { try GIFDecoder().decode(Data([0xFF, 0xD8, 0xFF])) }?.kind, .unsupported)
        XCTAssertEqual(codecError { try GIFDecoder().decode(Data("GIF8".utf8)) }?.kind, .truncated)
    }

    // MARK: Cut short, as browsers show it

    /// Every prefix of an animation: before the first image's pixel data it
    /// is `.truncated` (too short to sniff: `.unsupported`); after it, the
    /// frames the prefix holds, every one but the last exactly the reference,
    /// and never more frames than the whole file.
    func testEveryPrefixShowsTheFramesItHolds() throws {
        for name in ["disposal_previous", "interlaced", "local_palettes"] {
            let whole = try GIFDecoderTests.gif(name)
            let (_, references) = try GIFDecoderTests.expected(name)
            var parser = try GIFParser(whole)
            _ = try parser.nextImage()
            let firstData = parser.position
            for length in 0..<whole.count {
                let prefix = whole.prefix(length)
                if length < 6 {
                    XCTAssertEqual(codecError { try ImageDecoder.decode(prefix) }?.kind, .unsupported)
                    continue
                }
                if length < firstData {
                    XCTAssertEqual(codecError { try ImageDecoder.decode(prefix) }?.kind, .truncated, "\(name) cut at \(length)")
                    continue
                }
                let frames = try Self.frames(prefix)
                XCTAssertGreaterThanOrEqual(frames.count, 1, "\(name) cut at \(length)")
                XCTAssertLessThanOrEqual(frames.count, references.count)
                for frame in frames.dropLast() {
                    XCTAssertEqual(GIFDecoderTests.normalized(frame.bitmap), references[frame.index], "\(name) cut at \(length)")
                }
            }
        }
    }

    func testAFrameCutShortKeepsWhatWasUnderTheRest() throws {
        // A 4×1 frame over a canvas of colour 2; its data stops after two pixels (and the file there).
        let base = Self.header(width: 4, height: 1) + Self.image((0, 0, 4, 1), data: Self.literalLZW([2, 2, 2, 2], codeSize: 2))
        let codes = Self.pack([4, 0, 4, 1, 4], width: 3)  // two literals, no end code; 15 bits, so no code in the padding
        let cut = Data(base + [0x2C] + Self.u16(0) + Self.u16(0) + Self.u16(4) + Self.u16(1) + [0, 2, UInt8(codes.count)] + codes)
        let frames = try Self.frames(cut)
        XCTAssertEqual(frames.count, 2)
        XCTAssertEqual((0..<4).map { frames[1].bitmap[$0, 0] }, [RGBA(255, 0, 0), RGBA(0, 255, 0), RGBA(0, 0, 255), RGBA(0, 0, 255)])
    }

    // MARK: Odd files, read as Chromium reads them

    func testAFrameWithoutAnyPaletteDrawsNothing() throws {
        var bytes = Self.header(width: 2, height: 1, globalPalette: false)
        bytes += Self.image((0, 0, 2, 1), data: Self.literalLZW([1, 1], codeSize: 2))
        bytes += Self.image((1, 0, 1, 1), localPalette: [9, 8, 7, 6, 5, 4], codeSize: 2, data: Self.literalLZW([1], codeSize: 2))
        let frames = try Self.frames(Data(bytes + [0x3B]))
        XCTAssertEqual(frames.count, 2)
        XCTAssertEqual([frames[0].bitmap[0, 0], frames[0].bitmap[1, 0]], [.clear, .clear])
        XCTAssertEqual([frames[1].bitmap[0, 0], frames[1].bitmap[1, 0]], [.clear, RGBA(6, 5, 4)])
        XCTAssertTrue(try ImageDecoder.readInfo(Data(bytes + [0x3B])).hasAlpha)
    }

    func testIndicesPastThePaletteAndAZeroSizeFrame() throws {
        // A 2-colour local palette; indices 2 and 3 are past it: transparent, as in Chromium.
        var bytes = Self.header(width: 3, height: 2)
        bytes += Self.image((0, 0, 0, 0), localPalette: [1, 1, 1, 2, 2, 2], codeSize: 2, data: Self.literalLZW([0, 1, 2, 3, 1, 0], codeSize: 2))
        let frame = try XCTUnwrap(try Self.frames(Data(bytes + [0x3B])).first)
        XCTAssertEqual([frame.bitmap.width, frame.bitmap.height], [3, 2], "a 0×0 frame covers the screen")
        XCTAssertEqual([frame.bitmap[0, 0], frame.bitmap[1, 0], frame.bitmap[2, 0], frame.bitmap[0, 1], frame.bitmap[1, 1], frame.bitmap[2, 1]],
                       [RGBA(1, 1, 1), RGBA(2, 2, 2), .clear, .clear, RGBA(2, 2, 2), RGBA(1, 1, 1)])
    }

    func testAZeroScreenTakesTheFirstFramesSizeAndStrayBytesEndTheFile() throws {
        var bytes = Self.header(width: 0, height: 0)
        bytes += Self.image((1, 1, 2, 1), data: Self.literalLZW([0, 1], codeSize: 2))
        bytes += [0x00, 0x42] + Self.image((0, 0, 1, 1), data: Self.literalLZW([2], codeSize: 2))
        let (animation, frames) = try GIFDecoderTests.allFrames(Data(bytes))
        XCTAssertEqual([animation.info.width, animation.info.height], [3, 2])
        XCTAssertEqual(frames.count, 1, "a byte that starts no block ends the file")
        XCTAssertEqual(frames[0].bitmap[1, 1], RGBA(255, 0, 0))
        XCTAssertEqual(frames[0].bitmap[0, 0], .clear)
        XCTAssertEqual(animation.loopCount, 1)
    }
}
