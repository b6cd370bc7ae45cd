import Foundation
import Raster

/// The one entry point for decoding an image: the format is sniffed from the
/// bytes (PNG, JPEG, GIF, WebP), the EXIF orientation applied (a JPEG's APP1,
/// a PNG's `eXIf`, a WebP's `EXIF`), and a JPEG (or a GIF's first frame) wanted smaller than it is decoded at 1/2, 1/4 or 1/8
/// scale instead of in full. An animation decodes to its first frame here;
/// `animation(_:options:)` gives every frame, one at a time.
///
///     let image = try ImageDecoder.decode(data, options: .init(targetSize: (256, 256)))
///     image.bitmap          // upright, each side at least 256 (unless the file is smaller)
///
/// Everything it throws for bad bytes is an `ImageCodecError`; see its `Kind`
/// for the cases to match on.
public enum ImageDecoder {
    /// How `decode` and `readInfo` treat a file.
    public struct Options: Sendable {
        /// Whether the pixels are turned upright as the file's orientation
        /// says (the default); false returns them as stored.
        public var appliesOrientation: Bool
        /// The smallest size the caller needs, in the orientation of the
        /// result (upright unless `appliesOrientation` is false). A JPEG (or
        /// a GIF's first frame, box-averaged) is decoded at the coarsest of
        /// 1/1, 1/2, 1/4 and 1/8 scale whose output
        /// still covers it in both dimensions; nothing is resized, so the
        /// result may be larger than this. Nil decodes at full size. For a
        /// result that must fit a box, pass the fitted size, not the box.
        public var targetSize: (width: Int, height: Int)?
        /// The scale a JPEG or a GIF's first frame is decoded at, for a caller that has chosen it
        /// already (it then need not read the header first to state a target
        /// size); it wins over `targetSize`. Nil lets `targetSize` choose.
        public var jpegScale: JPEGScale?
        /// The largest width × height accepted, checked before any pixels are allocated.
        public var maximumPixelCount: Int
        /// The most scans a JPEG may have (`JPEGDecoder.maximumScanCount`).
        public var maximumScanCount: Int
        /// The most frames `AnimatedImage.nextFrame` returns before it throws
        /// (default `defaultMaximumFrameCount`, 10 000).
        public var maximumFrameCount: Int
        /// The most pixels `AnimatedImage.nextFrame` composites in all, frames
        /// × canvas width × height, before it throws: a bound on the work an
        /// animation costs (default `defaultMaximumAnimationPixelCount`, 2³⁰:
        /// 1 000 frames of 1000×1000, or 500 of 1920×1080).
        public var maximumAnimationPixelCount: Int

        /// The default `maximumFrameCount`: 10 000 frames, over 15 minutes at the 100 ms browsers give a fast frame.
        public static let defaultMaximumFrameCount = 10_000
        /// The default `maximumAnimationPixelCount`: 2³⁰ composited pixels.
        public static let defaultMaximumAnimationPixelCount = 1 << 30

        /// Options; the defaults decode upright, at full size, under the decoders' default limits.
        public init(appliesOrientation: Bool = true, targetSize: (width: Int, height: Int)? = nil,
                    jpegScale: JPEGScale? = nil, maximumPixelCount: Int = defaultMaximumPixelCount,
                    maximumScanCount: Int = JPEGDecoder.defaultMaximumScanCount,
                    maximumFrameCount: Int = defaultMaximumFrameCount,
                    maximumAnimationPixelCount: Int = defaultMaximumAnimationPixelCount) {
            self.appliesOrientation = appliesOrientation
            self.targetSize = targetSize
            self.jpegScale = jpegScale
            self.maximumPixelCount = maximumPixelCount
            self.maximumScanCount = maximumScanCount
            self.maximumFrameCount = maximumFrameCount
            self.maximumAnimationPixelCount = maximumAnimationPixelCount
        }
    }

    /// Decodes a whole PNG, JPEG, GIF or WebP file (an animation's first frame,
    /// composited as `animation` gives it). Throws `ImageCodecError` for bytes
    /// that are no supported image or are damaged, cut short or over the
    /// limits, and whatever `checkCancellation` throws: it is called before
    /// decoding, by the JPEG decoder before each scan and row of MCUs, and
    /// before the orientation is applied.
    public static func decode(_ data: Data, options: Options = Options(),
                              checkCancellation: () throws -> Void = {}) throws -> DecodedImage {
        let format = try sniff(data)
        try checkCancellation()
        let stored: Bitmap, info: ImageInfo, scale: JPEGScale
        var iccProfile: Data?
        switch format {
        case .jpeg:
            let decoder = JPEGDecoder(maximumPixelCount: options.maximumPixelCount, maximumScanCount: options.maximumScanCount)
            info = try decoder.readInfo(data)
            scale = options.jpegScale
                ?? options.targetSize.map { jpegScale(for: info, covering: $0, upright: options.appliesOrientation) } ?? .full
            stored = try decoder.decodeImage(data, scale: scale, checkCancellation: checkCancellation).bitmap
        case .png:
            (stored, info) = try PNGDecoder(maximumPixelCount: options.maximumPixelCount).decodeImage(data)
            scale = .full
        case .gif:
            let decoder = GIFDecoder(maximumPixelCount: options.maximumPixelCount)
            if options.jpegScale == nil, let target = options.targetSize {
                scale = jpegScale(for: try decoder.readInfo(data), covering: target, upright: options.appliesOrientation)
            } else {
                scale = options.jpegScale ?? .full
            }
            (stored, info) = try decoder.decodeImage(data, scale: scale)
        case .webp:
            (stored, info, iccProfile) = try webPDecoder(options).decodeImage(data, checkCancellation: checkCancellation)
            scale = .full
        }
        try checkCancellation()
        let bitmap = options.appliesOrientation ? try stored.upright(from: info.orientation) : stored
        return DecodedImage(bitmap: bitmap, info: info, scale: scale, isUpright: options.appliesOrientation || info.orientation == .up,
                            iccProfile: iccProfile)
    }

    /// What the file's header says (format, stored size, orientation, alpha),
    /// without decoding its pixels. Throws `ImageCodecError` for bytes that are
    /// no supported image, or whose header is damaged or over `options`' limits.
    public static func readInfo(_ data: Data, options: Options = Options()) throws -> ImageInfo {
        switch try sniff(data) {
        case .png:
            return try PNGDecoder(maximumPixelCount: options.maximumPixelCount).readInfo(data)
        case .jpeg:
            return try JPEGDecoder(maximumPixelCount: options.maximumPixelCount, maximumScanCount: options.maximumScanCount).readInfo(data)
        case .gif:
            return try GIFDecoder(maximumPixelCount: options.maximumPixelCount).readInfo(data)
        case .webp:
            return try webPDecoder(options).readInfo(data)
        }
    }

    /// The file's frames, decoded one at a time as `AnimatedImage.nextFrame`
    /// is called: every frame of an animated GIF or WebP, or a still image
    /// (PNG, JPEG, a GIF of one frame, a still WebP) as one frame. The header is read now, and the
    /// canvas checked against `options.maximumPixelCount` before anything is
    /// allocated; `options.maximumFrameCount` and `maximumAnimationPixelCount`
    /// bound the rest. `targetSize` and `jpegScale` are not used: every frame
    /// is the canvas at full size. Throws `ImageCodecError`.
    public static func animation(_ data: Data, options: Options = Options()) throws -> AnimatedImage {
        let decoder: any AnimationFrameDecoding
        switch try sniff(data) {
        case .png, .jpeg:
            decoder = try StillFrameDecoder(data, options: options)
        case .gif:
            decoder = try GIFDecoder(maximumPixelCount: options.maximumPixelCount).frames(data)
        case .webp:
            decoder = try webPDecoder(options).animationDecoder(data)
        }
        return AnimatedImage(decoder, options: options)
    }

    /// The WebP decoder under `options`' limits.
    private static func webPDecoder(_ options: Options) -> WebPDecoder {
        WebPDecoder(maximumPixelCount: options.maximumPixelCount, maximumFrameCount: options.maximumFrameCount)
    }

    /// The format `data` starts with, or the error naming its first bytes.
    static func sniff(_ data: Data) throws -> ImageFormat {
        let head = data.prefix(ImageFormat.sniffedByteCount)
        guard let format = ImageFormat(sniffing: head) else { throw ImageCodecError.unrecognized(head) }
        return format
    }

    /// The JPEG scale whose output for the image `info` describes is the
    /// smallest that still covers `target` in both dimensions: the coarsest,
    /// except that of two scales giving the same size (a tiny image) the finer
    /// is kept. `.full` when even full size does not cover it. `target` is
    /// upright when `upright` is true, else as stored.
    public static func jpegScale(for info: ImageInfo, covering target: (width: Int, height: Int), upright: Bool = true) -> JPEGScale {
        let swaps = upright && info.orientation.swapsDimensions
        let width = swaps ? target.height : target.width, height = swaps ? target.width : target.height
        let covering = JPEGScale.allCases.filter { $0.scaled(info.width) >= width && $0.scaled(info.height) >= height }
        return covering.min { ($0.scaled(info.width), $0.scaled(info.height), $0.rawValue) < ($1.scaled(info.width), $1.scaled(info.height), $1.rawValue) } ?? .full
    }
}
