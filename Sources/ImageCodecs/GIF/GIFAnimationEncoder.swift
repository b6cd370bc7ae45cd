import Foundation
import Raster

/// Writes animated GIFs (GIF89a) one composited frame at a time, each frame
/// with its own palette.
///
///     var encoder = try GIFAnimationEncoder(width: 320, height: 240, loopCount: 0)
///     for frame in frames { try encoder.add(frame.bitmap, delay: frame.delay) }
///     let gif = try encoder.finish()
///
/// Each frame stores only the bounding box of the pixels that changed since
/// the frame before, drawn over it (disposal "none"), with the unchanged
/// pixels inside the box as the transparent index so LZW codes them as long
/// runs. GIF has no way to draw transparency over a pixel, so when a frame
/// turns shown pixels transparent the frame before is stored with disposal
/// "restore to background" over a box grown to cover them, which clears it
/// first; that frame is held back until the next arrives to choose. Alpha is
/// cut at 128: below is transparent, above opaque. Colours are kept exactly
/// when a frame's box draws at most 255 (256 without transparency), and
/// reduced by `GIFColorQuantizer` (median cut, optionally dithered) otherwise.
///
/// The loop count follows `AnimatedImage.loopCount`: plays in all, 0 forever;
/// 1 writes no NETSCAPE2.0 block. Delays are stored in hundredths of a second.
public struct GIFAnimationEncoder: AnimationEncoding {
    /// Always `.gif`.
    public var format: ImageFormat { .gif }
    /// The widest or tallest canvas GIF stores.
    public static let maximumDimension = 65_535

    /// The canvas size.
    public let width: Int, height: Int
    /// Whether colours beyond the palette are dithered (Floyd–Steinberg).
    public var dithers: Bool
    /// The frame count and file size at which `add` throws.
    public var limits: AnimationEncodingLimits

    /// A frame whose disposal waits for the next: its canvas (alpha cut to
    /// 0 or 255), the canvas it is drawn over, its box and delay.
    private struct Pending: Sendable {
        var canvas: [UInt32], base: [UInt32], rect: FrameRect, centiseconds: Int
    }
    private var pending: Pending?
    private var file = Data()
    private var frameCount = 0

    /// An encoder of a `width` × `height` canvas played `loopCount` times in
    /// all (0 forever). Throws `ImageCodecError` (detail `GIFError.unencodableSize`)
    /// for a side of 0 or over 65,535.
    public init(width: Int, height: Int, loopCount: Int = 0, dithers: Bool = false, limits: AnimationEncodingLimits = AnimationEncodingLimits()) throws {
        guard (1...Self.maximumDimension).contains(width), (1...Self.maximumDimension).contains(height) else {
            throw ImageCodecError(GIFError.unencodableSize(width: width, height: height, canvas: "each side must be 1 to 65535 pixels"))
        }
        self.width = width
        self.height = height
        self.dithers = dithers
        self.limits = limits
        file.append(contentsOf: Array("GIF89a".utf8))
        appendUInt16(width)
        appendUInt16(height)
        file.append(contentsOf: [0x00, 0, 0])  // no global colour table, background 0, square pixels
        if loopCount != 1 {
            // NETSCAPE2.0 stores the repeats after the first play; 0 is forever.
            file.append(contentsOf: [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1])
            appendUInt16(loopCount == 0 ? 0 : min(loopCount - 1, 65_535))
            file.append(0)
        }
    }

    /// Adds the next canvas, shown for `delay` seconds (rounded to hundredths).
    public mutating func add(_ frame: Bitmap, delay: Double) throws {
        guard frame.width == width, frame.height == height else {
            throw ImageCodecError(GIFError.unencodableSize(width: frame.width, height: frame.height,
                                                           canvas: "the animation's canvas is \(width)×\(height)"))
        }
        try limits.check(frames: frameCount + 1, bytes: file.count)
        frameCount += 1
        // Alpha cut at 128: a pixel is its opaque colour or 0 (transparent).
        let canvas = FrameRect.words(frame.pixels).map { $0 >> 24 >= 128 ? $0 | 0xFF00_0000 : 0 }
        let centiseconds = delay.isFinite ? max(0, min(65_535, Int((delay * 100).rounded()))) : 0
        guard var previous = pending else {
            let blank = [UInt32](repeating: 0, count: width * height)
            pending = Pending(canvas: canvas, base: blank, rect: Self.rect(canvas, blank, width, height), centiseconds: centiseconds)
            return
        }
        // Shown pixels this frame turns transparent: only disposal can clear them.
        let cleared = FrameRect.bounds(width: width, height: height) { canvas[$0] == 0 && previous.canvas[$0] != 0 }
        var base = previous.canvas
        if let cleared {
            previous.rect = previous.rect.union(cleared)
            write(previous, disposal: 2)
            for y in previous.rect.y..<previous.rect.y + previous.rect.height {
                for x in previous.rect.x..<previous.rect.x + previous.rect.width { base[y * width + x] = 0 }
            }
        } else {
            write(previous, disposal: 1)
        }
        pending = Pending(canvas: canvas, base: base, rect: Self.rect(canvas, base, width, height), centiseconds: centiseconds)
        try limits.check(frames: frameCount, bytes: file.count)
    }

    /// The finished file. Throws `ImageCodecError` when no frame was added.
    public mutating func finish() throws -> Data {
        guard let last = pending else {
            throw ImageCodecError(GIFError.unencodableSize(width: 0, height: 0, canvas: "the animation has no frame"))
        }
        write(last, disposal: 1)
        pending = nil
        file.append(0x3B)
        try limits.check(frames: frameCount, bytes: file.count)
        return file
    }

    /// The box of what changed, or one pixel when nothing did (a frame must draw something to carry its delay).
    private static func rect(_ canvas: [UInt32], _ base: [UInt32], _ width: Int, _ height: Int) -> FrameRect {
        FrameRect.changed(canvas, base, width: width, height: height) ?? FrameRect(x: 0, y: 0, width: 1, height: 1)
    }

    /// Writes `frame`'s graphic control extension, descriptor, palette and
    /// LZW data; `disposal` is GIF's code (1 keep, 2 restore to background).
    private mutating func write(_ frame: Pending, disposal: UInt8) {
        let rect = frame.rect
        let pixels = rect.pixels(of: frame.canvas, canvasWidth: width)
        let base = rect.pixels(of: frame.base, canvasWidth: width)
        // Drawn: what differs from what is shown beneath; the rest keeps it.
        let drawn = zip(pixels, base).map { $0 != $1 }
        let keeps = drawn.contains(false)
        let colors = zip(pixels, drawn).compactMap { $1 ? $0 : nil }
        let quantizer = colors.withUnsafeBufferPointer { GIFColorQuantizer($0, maximumColors: keeps ? 255 : 256) }
        let transparent = quantizer.palette.count
        var indices = [UInt8](repeating: UInt8(truncatingIfNeeded: transparent), count: pixels.count)
        pixels.withUnsafeBufferPointer { pixels in
            drawn.withUnsafeBufferPointer { drawn in
                indices.withUnsafeMutableBufferPointer { indices in
                    quantizer.map(pixels, drawn: drawn, width: rect.width, dithers: dithers, into: indices)
                }
            }
        }
        let entries = quantizer.palette.count + (keeps ? 1 : 0)
        let codeSize = GIFLZWEncoder.minimumCodeSize(forColorCount: entries)
        let tableBits = codeSize  // 2^tableBits entries (at least 4): every index the codes can name
        // Graphic control: disposal, transparency, delay.
        file.append(contentsOf: [0x21, 0xF9, 4, disposal << 2 | (keeps ? 1 : 0)])
        appendUInt16(frame.centiseconds)
        file.append(contentsOf: [keeps ? UInt8(transparent) : 0, 0])
        // Image descriptor with a local colour table.
        file.append(0x2C)
        appendUInt16(rect.x)
        appendUInt16(rect.y)
        appendUInt16(rect.width)
        appendUInt16(rect.height)
        file.append(0x80 | UInt8(tableBits - 1))
        for entry in 0..<1 << tableBits {
            let color = entry < quantizer.palette.count ? quantizer.palette[entry] : 0
            file.append(contentsOf: [UInt8(color & 0xFF), UInt8(color >> 8 & 0xFF), UInt8(color >> 16 & 0xFF)])
        }
        file.append(UInt8(codeSize))
        let data = indices.withUnsafeBufferPointer { GIFLZWEncoder(minimumCodeSize: codeSize).encode($0) }
        var start = 0
        while start < data.count {
            let end = min(start + 255, data.count)
            file.append(UInt8(end - start))
            file.append(contentsOf: data[start..<end])
            start = end
        }
        file.append(0)
    }

    private mutating func appendUInt16(_ value: Int) {
        file.append(UInt8(value & 0xFF))
        file.append(UInt8(value >> 8 & 0xFF))
    }
}
