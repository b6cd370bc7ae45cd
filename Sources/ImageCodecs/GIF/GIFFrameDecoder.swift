import Foundation
import Raster

/// A GIF's frames, one composited canvas per call: `GIFParser` finds each
/// image, `GIFLZWDecoder` turns its data into palette indices, and
/// `GIFFrameCompositor` disposes of the last frame and draws this one.
///
/// The canvas is the logical screen, enlarged to hold the first frame when
/// that reaches past it (as Chromium does, which also rescues files whose
/// screen is stored as 0×0); later frames are clipped to it. A frame stored
/// as 0 wide or high covers the canvas, also as in Chromium.
///
/// A file cut short shows what it holds, as browsers do: the frame whose
/// data is cut is drawn as far as its data goes (the pixels it does not reach
/// keep what was under them), and the animation ends after it; a file that
/// ends between frames, or inside a later frame's descriptor or palette, ends
/// the animation there. Only a file cut before its first image's pixel data
/// is `GIFError.truncated`. An LZW code the table does not hold is
/// `GIFError.badLZWCode`: the frames before it were shown, that one is not.
struct GIFFrameDecoder: AnimationFrameDecoding {
    let info: ImageInfo
    /// Browsers play a GIF without a NETSCAPE2.0 block once, and one with a
    /// stored count N, N + 1 times (the count is of repeats); 0 is forever.
    var loopCount: Int { parser.storedLoopCount.map { $0 == 0 ? 0 : $0 + 1 } ?? 1 }
    /// The image descriptors in the file, counted at the header by hopping
    /// over the blocks (a step per sub-block, no LZW decoding).
    let storedFrameCount: Int

    private var parser: GIFParser
    /// The first image's descriptor, read at the header to size the canvas.
    private var firstImage: GIFImageDescriptor?
    private var compositor: GIFFrameCompositor?
    private var lzw = GIFLZWDecoder()
    /// One frame's palette indices, reused from frame to frame.
    private var indices: [UInt8] = []
    private var frameIndex = 0
    private var isFinished = false
    private let maximumPixelCount: Int

    /// Reads the header up to the first image's LZW data, checking the
    /// screen against `maximumPixelCount` before reading on, and the canvas
    /// (the screen enlarged to the first frame) after. Allocates nothing of
    /// the canvas's size: that waits for the first `nextFrame`.
    init(_ data: Data, maximumPixelCount: Int) throws {
        parser = try GIFParser(data)
        self.maximumPixelCount = maximumPixelCount
        try Self.check(width: parser.screenWidth, height: parser.screenHeight, limit: maximumPixelCount)
        guard let first = try parser.nextImage() else { throw GIFError.invalid("the file holds no image") }
        let width = max(parser.screenWidth, first.left + first.width), height = max(parser.screenHeight, first.top + first.height)
        try Self.check(width: width, height: height, limit: maximumPixelCount)
        guard width > 0, height > 0 else { throw GIFError.invalid("the screen and the first image are 0×0") }
        firstImage = first
        storedFrameCount = parser.countImages()
        let covers = first.left == 0 && first.top == 0 && (first.width == 0 || first.width >= width) && (first.height == 0 || first.height >= height)
        let colors = first.palette.map { $0.count / 3 } ?? 0
        let transparent = first.transparentIndex.map { $0 < colors } ?? false
        info = ImageInfo(format: .gif, width: width, height: height, hasAlpha: transparent || colors == 0 || !covers)
    }

    private static func check(width: Int, height: Int, limit: Int) throws {
        let limit = min(limit, Bitmap.maximumPixelCount)
        guard width * height <= limit else { throw GIFError.tooManyPixels(width: width, height: height, limit: limit) }
    }

    /// The first frame as `nextFrame` would composite it, at 1/`factor` of
    /// each side (`GIFReducedFrame`), without a canvas of the full size; for
    /// a decoder that has not returned a frame yet.
    mutating func firstFrame(reducedBy factor: Int) throws -> Bitmap {
        guard var frame = firstImage else { throw GIFError.invalid("the file holds no image") }
        firstImage = nil
        isFinished = true
        if frame.width == 0 || frame.height == 0 {
            frame.width = info.width
            frame.height = info.height
        }
        try Self.check(width: frame.width, height: frame.height, limit: maximumPixelCount)
        var reduced = GIFReducedFrame(canvasWidth: info.width, canvasHeight: info.height, factor: factor)
        let x0 = min(frame.left, info.width), x1 = max(x0, min(frame.left + frame.width, info.width))
        let y1 = min(frame.top + frame.height, info.height)
        let rows = frame.isInterlaced ? frame.height : min(frame.height, max(0, y1 - frame.top))
        let wanted = frame.palette == nil || x1 <= x0 || y1 <= frame.top ? 0 : frame.width * rows
        guard wanted > 0, let palette = frame.palette else { return try reduced.bitmap(canvasWidth: info.width, canvasHeight: info.height) }
        indices = [UInt8](repeating: 0, count: wanted)
        let (data, _) = parser.imageData()
        let codeSize = frame.minimumCodeSize
        let count = try data.withUnsafeBufferPointer { data in
            try indices.withUnsafeMutableBufferPointer { indices in
                try lzw.decode(data, minimumCodeSize: codeSize, into: indices, frame: 0).count
            }
        }
        let colors = GIFFrameCompositor.colors(parser.bytes[palette], transparentIndex: frame.transparentIndex)
        colors.withUnsafeBufferPointer { colors in
            indices.withUnsafeBufferPointer { indices in
                for row in 0..<(count + frame.width - 1) / frame.width {
                    let y = frame.top + (frame.isInterlaced ? GIFFrameCompositor.interlacedRow(row, height: frame.height) : row)
                    guard y < y1 else { continue }
                    let start = row * frame.width + (x0 - frame.left), end = min(row * frame.width + (x1 - frame.left), count)
                    guard start < end else { continue }
                    reduced.add(row: y, from: x0, indices: UnsafeBufferPointer(rebasing: indices[start..<end]), colors: colors)
                }
            }
        }
        indices = []
        return try reduced.bitmap(canvasWidth: info.width, canvasHeight: info.height)
    }

    mutating func nextFrame() throws -> (canvas: Bitmap, milliseconds: Int?)? {
        guard !isFinished else { return nil }
        var frame: GIFImageDescriptor
        if let first = firstImage {
            frame = first
            firstImage = nil
        } else {
            do {
                guard let next = try parser.nextImage() else {
                    isFinished = true
                    return nil
                }
                frame = next
            } catch let error as GIFError where error.kind == .truncated {
                isFinished = true
                return nil
            }
        }
        if frame.width == 0 || frame.height == 0 {
            frame.width = info.width
            frame.height = info.height
        }
        try Self.check(width: frame.width, height: frame.height, limit: maximumPixelCount)
        if compositor == nil { compositor = try GIFFrameCompositor(width: info.width, height: info.height) }
        guard let rect = compositor?.clipped(frame) else { return nil }

        let (data, isComplete) = parser.imageData()
        // Rows below the canvas are never shown: stop decoding at the last
        // visible row, unless interlacing spreads the rows over the image.
        let rows = frame.isInterlaced ? frame.height : min(frame.height, rect.y1 - frame.top)
        let wanted = frame.palette == nil || rect.x1 <= rect.x0 || rect.y1 <= rect.y0 ? 0 : frame.width * max(0, rows)
        if indices.count < wanted { indices = [UInt8](repeating: 0, count: wanted) }
        var decoded = (count: 0, outcome: GIFLZWDecoder.Outcome.finished)
        if wanted > 0 {
            let index = frameIndex, codeSize = frame.minimumCodeSize
            decoded = try data.withUnsafeBufferPointer { data in
                try indices.withUnsafeMutableBufferPointer { indices in
                    try lzw.decode(data, minimumCodeSize: codeSize, into: UnsafeMutableBufferPointer(rebasing: indices[0..<wanted]), frame: index)
                }
            }
        }
        guard var compositor else { return nil }
        self.compositor = nil  // drawn in place, without a copy of the canvas
        indices.withUnsafeBufferPointer { indices in
            compositor.draw(frame, indices: indices, count: decoded.count, paletteBytes: parser.bytes)
        }
        self.compositor = compositor
        if !isComplete { isFinished = true }  // the file ends inside this frame's data
        frameIndex += 1
        return (compositor.canvas, frame.delayCentiseconds.map { $0 * 10 })
    }
}
