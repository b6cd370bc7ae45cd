/// The chunks of a WebP file's RIFF container, located and checked but not
/// decoded: the still image's bitstream (and its `ALPH` chunk), or the frames
/// of an animation, plus the canvas and the metadata chunks.
///
/// Ranges index the bytes the container was parsed from. Every chunk must lie
/// inside the RIFF size and the data; the canvas and every frame are checked
/// against the pixel limit, and the frame count against the frame limit,
/// before anything is decoded.
struct WebPContainer {
    /// The chunks one picture is decoded from.
    struct Picture: Equatable {
        /// The `VP8 ` or `VP8L` chunk's payload.
        var bitstream: Range<Int>
        var isLossless: Bool
        /// The `ALPH` chunk's payload, for a lossy picture that has one.
        var alpha: Range<Int>?
    }

    /// One `ANMF` chunk: where its picture goes on the canvas and how it is combined.
    struct Frame: Equatable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        /// Milliseconds, as stored.
        var duration: Int
        /// Alpha-blends over the canvas (true) or replaces its rectangle.
        var blends: Bool
        /// Clears its rectangle to transparent before the next frame.
        var disposesToBackground: Bool
        var picture: Picture
    }

    /// The canvas (a still image's size).
    var width: Int
    var height: Int
    /// `VP8X`'s alpha flag, an `ALPH` chunk or the `VP8L` header's alpha hint.
    var hasAlpha: Bool
    /// The still image, or the first frame's picture of an animation.
    var picture: Picture
    /// Empty for a still image.
    var frames: [Frame] = []
    var isAnimated: Bool { !frames.isEmpty }
    /// `ANIM`'s loop count: 0 loops forever.
    var loopCount = 0
    var iccProfile: Range<Int>?
    var exif: Range<Int>?

    static func tag(_ text: StaticString) -> UInt32 {
        let bytes = UnsafeRawBufferPointer(start: text.utf8Start, count: 4)
        return UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
    }

    static let riff = tag("RIFF"), webp = tag("WEBP"), vp8 = tag("VP8 "), vp8l = tag("VP8L"), vp8x = tag("VP8X")
    static let alph = tag("ALPH"), anim = tag("ANIM"), anmf = tag("ANMF"), iccp = tag("ICCP"), exifTag = tag("EXIF")

    /// VP8X flag bits.
    static let animationFlag: UInt8 = 0x02, alphaFlag: UInt8 = 0x10

    /// Whether `bytes` start like a WebP file (`RIFF`, a size, `WEBP`).
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 12 && u32(bytes, 0) == riff && u32(bytes, 8) == webp
    }

    @inline(__always)
    static func u32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    @inline(__always)
    static func u24(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
    }

    static func name(_ tag: UInt32) -> String {
        String(decoding: [UInt8(tag & 0xFF), UInt8(tag >> 8 & 0xFF), UInt8(tag >> 16 & 0xFF), UInt8(tag >> 24)], as: UTF8.self)
    }

    /// The chunks in `range`: tag and payload, padding skipped.
    private static func chunks(in bytes: UnsafeRawBufferPointer, _ range: Range<Int>, inside: String) throws -> [(tag: UInt32, payload: Range<Int>)] {
        var result: [(tag: UInt32, payload: Range<Int>)] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            guard range.upperBound - offset >= 8 else {
                throw WebPError.truncated("\(inside) ends inside a chunk header, at byte \(offset)")
            }
            let tag = u32(bytes, offset), size = Int(u32(bytes, offset + 4))
            let start = offset + 8
            guard size <= range.upperBound - start else {
                throw WebPError.truncated("chunk \(name(tag)) at byte \(offset) claims \(size) bytes, \(range.upperBound - start) remain in \(inside)")
            }
            result.append((tag, start..<start + size))
            // Payloads are padded to an even size; a missing pad byte at the very end is tolerated.
            offset = min(start + size + (size & 1), range.upperBound)
        }
        return result
    }

    /// Locates the chunks of the WebP file in `bytes`. Throws `WebPError`.
    init(parsing bytes: UnsafeRawBufferPointer, maximumPixelCount: Int, maximumFrameCount: Int) throws {
        guard bytes.count >= 12 else {
            let riffPrefix: [UInt8] = Array("RIFF".utf8)
            if bytes.count > 0 && zip(bytes, riffPrefix).allSatisfy({ $0 == $1 }) { throw WebPError.truncated("the RIFF header needs 12 bytes") }
            throw WebPError.notWebP
        }
        guard Self.hasSignature(bytes) else { throw WebPError.notWebP }
        let riffSize = Int(Self.u32(bytes, 4))
        guard riffSize >= 12 else { throw WebPError.invalidContainer("RIFF size \(riffSize) is too small for any chunk") }
        guard riffSize <= bytes.count - 8 else {
            throw WebPError.truncated("RIFF size is \(riffSize) bytes, the data holds \(bytes.count - 8)")
        }
        let top = try Self.chunks(in: bytes, 12..<8 + riffSize, inside: "the RIFF container")
        guard let first = top.first else { throw WebPError.invalidContainer("no chunks") }
        func checkSize(_ width: Int, _ height: Int) throws {
            guard width * height <= maximumPixelCount else {
                throw WebPError.tooManyPixels(width: width, height: height, limit: maximumPixelCount)
            }
        }
        switch first.tag {
        case Self.vp8, Self.vp8l:
            let picture = Picture(bitstream: first.payload, isLossless: first.tag == Self.vp8l, alpha: nil)
            let size = try Self.pictureSize(bytes, picture)
            try checkSize(size.width, size.height)
            (width, height, hasAlpha) = (size.width, size.height, size.hasAlpha)
            self.picture = picture
        case Self.vp8x:
            guard first.payload.count >= 10 else { throw WebPError.invalidContainer("VP8X chunk of \(first.payload.count) bytes; it has 10") }
            let p = first.payload.lowerBound, flags = bytes[p]
            width = Self.u24(bytes, p + 4) + 1
            height = Self.u24(bytes, p + 7) + 1
            try checkSize(width, height)
            hasAlpha = flags & Self.alphaFlag != 0
            iccProfile = top.first { $0.tag == Self.iccp }?.payload
            exif = top.first { $0.tag == Self.exifTag }?.payload
            if flags & Self.animationFlag != 0 {
                guard let anim = top.first(where: { $0.tag == Self.anim }) else {
                    throw WebPError.invalidContainer("the VP8X animation flag is set but there is no ANIM chunk")
                }
                guard anim.payload.count >= 6 else { throw WebPError.invalidContainer("ANIM chunk of \(anim.payload.count) bytes; it has 6") }
                loopCount = Int(bytes[anim.payload.lowerBound + 4]) | Int(bytes[anim.payload.lowerBound + 5]) << 8
                for chunk in top where chunk.tag == Self.anmf {
                    guard frames.count < maximumFrameCount else { throw WebPError.tooManyFrames(limit: maximumFrameCount) }
                    frames.append(try Self.frame(bytes, chunk.payload, canvasWidth: width, canvasHeight: height))
                }
                guard let firstFrame = frames.first else { throw WebPError.invalidContainer("an animation without frames (no ANMF chunk)") }
                picture = firstFrame.picture
            } else {
                picture = try Self.picture(in: top, bytes, inside: "the file")
                if picture.isLossless {
                    let header = try VP8LDecoder.readHeader(UnsafeRawBufferPointer(rebasing: bytes[picture.bitstream]))
                    guard header.width == width && header.height == height else {
                        throw WebPError.invalidContainer("the image is \(header.width)×\(header.height) but VP8X says the canvas is \(width)×\(height)")
                    }
                    hasAlpha = hasAlpha || header.hasAlpha
                } else {
                    // A lossy picture's size is checked against the canvas when it is decoded.
                    hasAlpha = hasAlpha || picture.alpha != nil
                }
            }
        default:
            throw WebPError.invalidContainer("the first chunk is \(Self.name(first.tag)), not VP8, VP8L or VP8X")
        }
    }

    /// The first `VP8 `/`VP8L` chunk among `chunks`, with the `ALPH` chunk before it.
    private static func picture(in chunks: [(tag: UInt32, payload: Range<Int>)], _ bytes: UnsafeRawBufferPointer, inside: String) throws -> Picture {
        var alpha: Range<Int>?
        for chunk in chunks {
            switch chunk.tag {
            case alph where alpha == nil: alpha = chunk.payload
            case vp8: return Picture(bitstream: chunk.payload, isLossless: false, alpha: alpha)
            case vp8l: return Picture(bitstream: chunk.payload, isLossless: true, alpha: nil)
            default: continue
            }
        }
        throw WebPError.invalidContainer("\(inside) has no VP8 or VP8L chunk")
    }

    private static func frame(_ bytes: UnsafeRawBufferPointer, _ payload: Range<Int>, canvasWidth: Int, canvasHeight: Int) throws -> Frame {
        guard payload.count >= 16 else { throw WebPError.invalidContainer("ANMF chunk of \(payload.count) bytes; its header has 16") }
        let p = payload.lowerBound
        let x = u24(bytes, p) * 2, y = u24(bytes, p + 3) * 2
        let width = u24(bytes, p + 6) + 1, height = u24(bytes, p + 9) + 1
        let duration = u24(bytes, p + 12), flags = bytes[p + 15]
        guard x + width <= canvasWidth && y + height <= canvasHeight else {
            throw WebPError.invalidContainer("a \(width)×\(height) frame at (\(x), \(y)) reaches outside the \(canvasWidth)×\(canvasHeight) canvas")
        }
        let picture = try picture(in: try chunks(in: bytes, p + 16..<payload.upperBound, inside: "an ANMF chunk"), bytes, inside: "an ANMF chunk")
        return Frame(x: x, y: y, width: width, height: height, duration: duration,
                     blends: flags & 0x02 == 0, disposesToBackground: flags & 0x01 != 0, picture: picture)
    }

    /// The size a picture's bitstream header states, and whether it has alpha.
    static func pictureSize(_ bytes: UnsafeRawBufferPointer, _ picture: Picture) throws -> (width: Int, height: Int, hasAlpha: Bool) {
        let chunk = UnsafeRawBufferPointer(rebasing: bytes[picture.bitstream])
        if picture.isLossless {
            let header = try VP8LDecoder.readHeader(chunk)
            return (header.width, header.height, header.hasAlpha)
        }
        let size = try WebPPictureDecoder.lossySize(chunk)
        return (size.width, size.height, picture.alpha != nil)
    }
}
