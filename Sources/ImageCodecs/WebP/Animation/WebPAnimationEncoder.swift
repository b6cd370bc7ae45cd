import Foundation
import Raster

/// Writes animated WebP files (`VP8X`, `ANIM`, one `ANMF` per frame) one
/// composited frame at a time.
///
///     var encoder = try WebPAnimationEncoder(width: 320, height: 240, loopCount: 0)
///     for frame in frames { try encoder.add(frame.bitmap, delay: frame.delay) }
///     let webp = try encoder.finish()
///
/// Each frame stores only the bounding box of the pixels that changed since
/// the frame before (its corner moved to even coordinates, as `ANMF`
/// requires), and is never disposed. When every changed pixel is opaque the
/// frame is alpha-blended and its unchanged pixels are stored fully
/// transparent, which the coder packs into long runs; otherwise it replaces
/// its box without blending, which is how a pixel turns transparent.
///
/// Each frame's box is coded by `frameEncoder`, any `ImageEncoding` that
/// writes a still WebP (by default `WebPLosslessEncoder` at
/// `defaultFrameEffort`, every pixel exact; a lossy encoder plugs in the
/// same way): its `ALPH`, `VP8 ` or `VP8L`
/// chunks become the frame's. The loop count follows `AnimatedImage.loopCount`
/// (0 forever); delays are stored in milliseconds.
public struct WebPAnimationEncoder: AnimationEncoding {
    /// Always `.webp`.
    public var format: ImageFormat { .webp }
    /// The canvas size.
    public let width: Int, height: Int
    /// The lossless effort frames are coded at by default: 2, shorter match
    /// searches and no colour cache search, since an animation codes many
    /// pictures where a still codes one.
    public static let defaultFrameEffort = 2
    /// How many times the animation plays, 0 forever (`ANIM` stores up to 65,535).
    public let loopCount: Int
    /// The coder of each frame's box.
    public let frameEncoder: any ImageEncoding
    /// The frame count and file size at which `add` throws.
    public var limits: AnimationEncodingLimits

    /// The canvas as shown after the last frame.
    private var shown: [UInt32]
    /// The `ANMF` chunks so far.
    private var frames = Data()
    private var frameCount = 0
    private var hasAlpha = false

    /// An encoder of a `width` × `height` canvas played `loopCount` times in
    /// all (0 forever), coding each frame with `frameEncoder`. Throws
    /// `ImageCodecError` (detail `WebPError.unencodableSize`) for a side of 0 or over 16,384.
    public init(width: Int, height: Int, loopCount: Int = 0, frameEncoder: any ImageEncoding = WebPLosslessEncoder(effort: defaultFrameEffort),
                limits: AnimationEncodingLimits = AnimationEncodingLimits()) throws {
        let sides = 1...WebPLosslessEncoder.maximumDimension
        guard sides.contains(width), sides.contains(height) else {
            throw ImageCodecError(WebPError.unencodableSize(width: width, height: height, maximum: WebPLosslessEncoder.maximumDimension))
        }
        self.width = width
        self.height = height
        self.loopCount = max(0, min(loopCount, 65_535))
        self.frameEncoder = frameEncoder
        self.limits = limits
        shown = [UInt32](repeating: 0, count: width * height)
    }

    /// Adds the next canvas, shown for `delay` seconds (rounded to milliseconds).
    public mutating func add(_ frame: Bitmap, delay: Double) throws {
        guard frame.width == width, frame.height == height else {
            throw ImageCodecError(WebPError.unencodableSize(width: frame.width, height: frame.height, maximum: WebPLosslessEncoder.maximumDimension))
        }
        try limits.check(frames: frameCount + 1, bytes: frames.count)
        let canvas = FrameRect.words(frame.pixels)
        if !hasAlpha { hasAlpha = canvas.contains { $0 >> 24 != 0xFF } }
        var rect = FrameRect.changed(canvas, shown, width: width, height: height) ?? FrameRect(x: 0, y: 0, width: 1, height: 1)
        // ANMF stores the corner halved: move it to even coordinates.
        rect.width += rect.x & 1
        rect.height += rect.y & 1
        rect.x &= ~1
        rect.y &= ~1
        var pixels = rect.pixels(of: canvas, canvasWidth: width)
        let below = rect.pixels(of: shown, canvasWidth: width)
        let changed = zip(pixels, below).map { $0 != $1 }
        let blends = zip(pixels, changed).allSatisfy { !$1 || $0 >> 24 == 0xFF }
        if blends {
            // Over the canvas, a transparent pixel leaves what is there.
            for i in pixels.indices where !changed[i] { pixels[i] = 0 }
        }
        let bytes = pixels.map(\.littleEndian).withUnsafeBytes { Array($0) }
        let still = try frameEncoder.encode(try Bitmap(width: rect.width, height: rect.height, rgba: bytes))
        let imageChunks = try Self.imageChunks(of: still)
        let milliseconds = delay.isFinite ? max(0, min(0xFF_FFFF, Int((delay * 1000).rounded()))) : 0
        var payload = Data()
        Self.append24(rect.x / 2, to: &payload)
        Self.append24(rect.y / 2, to: &payload)
        Self.append24(rect.width - 1, to: &payload)
        Self.append24(rect.height - 1, to: &payload)
        Self.append24(milliseconds, to: &payload)
        payload.append(blends ? 0 : 0b10)  // bit 1: do not blend; bit 0 clear: no disposal
        payload.append(imageChunks)
        Self.appendChunk("ANMF", payload, to: &frames)
        for row in rect.y..<rect.y + rect.height {
            for column in rect.x..<rect.x + rect.width { shown[row * width + column] = canvas[row * width + column] }
        }
        frameCount += 1
        try limits.check(frames: frameCount, bytes: frames.count)
    }

    /// The finished file. Throws `ImageCodecError` when no frame was added.
    public mutating func finish() throws -> Data {
        guard frameCount > 0 else { throw ImageCodecError(WebPError.unencodableSize(width: 0, height: 0, maximum: WebPLosslessEncoder.maximumDimension)) }
        var body = Data("WEBP".utf8)
        var header = Data([hasAlpha ? 0x12 : 0x02, 0, 0, 0])  // animation, and alpha when any frame has it
        Self.append24(width - 1, to: &header)
        Self.append24(height - 1, to: &header)
        Self.appendChunk("VP8X", header, to: &body)
        var anim = Data([0, 0, 0, 0])  // background: transparent
        anim.append(UInt8(loopCount & 0xFF))
        anim.append(UInt8(loopCount >> 8))
        Self.appendChunk("ANIM", anim, to: &body)
        body.append(frames)
        var file = Data("RIFF".utf8)
        withUnsafeBytes(of: UInt32(body.count).littleEndian) { file.append(contentsOf: $0) }
        file.append(body)
        try limits.check(frames: frameCount, bytes: file.count)
        return file
    }

    /// The `ALPH`, `VP8 ` and `VP8L` chunks of a still WebP file, headers
    /// included: what an `ANMF` frame holds.
    static func imageChunks(of file: Data) throws -> Data {
        let bytes = [UInt8](file)
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) else {
            throw ImageCodecError(WebPError.invalidContainer("the frame encoder did not write a WebP file"))
        }
        var chunks = Data(), offset = 12
        while offset + 8 <= bytes.count {
            let tag = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            let end = min(bytes.count, offset + 8 + size + (size & 1))
            if ["ALPH", "VP8 ", "VP8L"].contains(tag) { chunks.append(contentsOf: bytes[offset..<end]) }
            offset = end
        }
        return chunks
    }

    private static func appendChunk(_ tag: String, _ payload: Data, to data: inout Data) {
        data.append(contentsOf: Array(tag.utf8))
        withUnsafeBytes(of: UInt32(payload.count).littleEndian) { data.append(contentsOf: $0) }
        data.append(payload)
        if payload.count & 1 == 1 { data.append(0) }
    }

    private static func append24(_ value: Int, to data: inout Data) {
        data.append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)])
    }
}
