import Foundation
import Raster

/// Writes bitmaps as lossy WebP files (a `VP8 ` key frame, RFC 6386), the
/// way `cwebp` does at its default effort: Y′CbCr 4:2:0, each macroblock
/// predicted by whichever 16×16, 4×4 and chroma modes cost least in
/// rate–distortion terms, DCT/WHT residuals quantised at the step the
/// quality maps to (as libwebp maps it), tokens coded with probabilities
/// fitted to the picture, and the loop filter set from the step.
///
/// Alpha, when any pixel is not opaque, goes losslessly into an `ALPH`
/// chunk (coded by `WebPLosslessEncoder`) beside the colour, in a `VP8X` file.
///
/// Stages, one per file: `VP8SourcePicture` (RGB to Y′CbCr),
/// `VP8SegmentAnalysis` (macroblocks grouped into four segments by how
/// much quantisation shows), `VP8EncodingParameters` (quality and segments
/// to quantisers, `VP8SegmentParameters`), `VP8MacroblockEncoder`
/// (mode decision, transforms, `VP8QuantizerMatrix`), `VP8FrameWriter`
/// (probabilities, header, partitions) over `VP8TokenWriter` and `VP8BoolEncoder`.
public struct WebPLossyEncoder: ImageEncoding {
    /// 1 (smallest) to 100 (best), as `cwebp -q` counts.
    public var quality: Int

    /// 75, `cwebp`'s default.
    public static let defaultQuality = 75

    /// The widest or tallest picture VP8 stores (14 bits).
    public static let maximumDimension = 16383

    /// The most pixels one lossy encode takes (4096 × 4096): the encoder keeps
    /// every macroblock's decisions (about 1 KB each) until the probabilities
    /// are known, so 16 Mpx cost about 70 MB on top of the picture's planes.
    /// Larger pictures are refused by name (`lossless=true` takes them).
    public static let maximumPixelCount = 4096 * 4096

    /// Always `.webp`.
    public var format: ImageFormat { .webp }

    /// An encoder at `quality` (clamped to 1…100).
    public init(quality: Int = WebPLossyEncoder.defaultQuality) {
        self.quality = min(max(quality, 1), 100)
    }

    /// The WebP file for `bitmap`. Throws `ImageCodecError` (detail a
    /// `WebPError`) for a side over 16,383 pixels or more than
    /// ``maximumPixelCount`` pixels.
    public func encode(_ bitmap: Bitmap) throws -> Data {
        try encode(bitmap, checkCancellation: {})
    }

    /// Encodes `bitmap`, calling `checkCancellation` on the caller's thread
    /// once per macroblock row; whatever it throws ends the encode.
    public func encode(_ bitmap: Bitmap, checkCancellation: () throws -> Void) throws -> Data {
        let width = bitmap.width, height = bitmap.height
        guard (1...Self.maximumDimension).contains(width), (1...Self.maximumDimension).contains(height) else {
            throw ImageCodecError(WebPError.unencodableSize(width: width, height: height, maximum: Self.maximumDimension))
        }
        guard width * height <= Self.maximumPixelCount else {
            throw ImageCodecError(WebPError.unencodableLossy("\(width)×\(height) is over the lossy encoder's limit of \(Self.maximumPixelCount) pixels (WebPLossyEncoder.maximumPixelCount); ask for a smaller image or lossless=true"))
        }
        let source = VP8SourcePicture(bitmap)
        let analysis = VP8SegmentAnalysis(source)
        let parameters = VP8EncodingParameters(quality: quality, analysis: analysis,
                                               macroblockCount: source.macroblockColumns * source.macroblockRows)
        let encoder = VP8MacroblockEncoder(source: source, parameters: parameters)
        let columns = source.macroblockColumns
        var macroblocks = [VP8EncodedMacroblock](repeating: VP8EncodedMacroblock(), count: columns * source.macroblockRows)
        // The rates follow the picture: every eighth of the macroblocks (at
        // least 96) the tokens so far give the probabilities the frame would
        // code with, and the mode search costs levels under those, as libwebp does.
        var statistics = VP8TokenStatistics()
        var contexts = VP8TokenContexts(columns: columns)
        let refreshInterval = max(macroblocks.count >> 3, 96)
        var untilRefresh = refreshInterval
        try VP8Tables.defaultCoefficientProbabilities.withUnsafeBufferPointer { defaults in
            for y in 0..<source.macroblockRows {
                try checkCancellation()
                encoder.startRow(y)
                for x in 0..<columns {
                    encoder.encode(x: x, y: y, into: &macroblocks[y * columns + x])
                    contexts.put(macroblocks[y * columns + x], x: x, skips: true, probabilities: defaults.baseAddress!,
                                 into: &statistics)
                    untilRefresh -= 1
                    if untilRefresh == 0 {
                        encoder.useProbabilities(statistics.updatedProbabilities())
                        untilRefresh = refreshInterval
                    }
                }
            }
        }
        try checkCancellation()
        let frame: [UInt8]
        do {
            frame = try VP8FrameWriter(width: width, height: height, columns: columns, parameters: parameters).frame(macroblocks)
        } catch let error as WebPError {
            throw ImageCodecError(error)
        }
        guard !bitmap.isOpaque else { return WebPFileWriter.file([(WebPContainer.vp8, frame)]) }
        let alpha = try alphaChunk(bitmap, checkCancellation: checkCancellation)
        return WebPFileWriter.file([
            (WebPContainer.vp8x, WebPFileWriter.extendedHeader(width: width, height: height, flags: WebPContainer.alphaFlag)),
            (WebPContainer.alph, alpha),
            (WebPContainer.vp8, frame),
        ])
    }

    /// An `ALPH` payload: the header byte (lossless compression, no filter,
    /// no pre-processing), then the alpha plane as a VP8L image stream with
    /// alpha in green (the lossless bitstream without its 5-byte header).
    private func alphaChunk(_ bitmap: Bitmap, checkCancellation: () throws -> Void) throws -> [UInt8] {
        var plane = [UInt8](repeating: 255, count: bitmap.pixels.count)
        for index in stride(from: 0, to: plane.count, by: 4) {
            plane[index] = 0
            plane[index + 1] = bitmap.pixels[index + 3]
            plane[index + 2] = 0
        }
        let stream = try WebPLosslessEncoder().bitstream(Bitmap(width: bitmap.width, height: bitmap.height, rgba: plane),
                                                         checkCancellation: checkCancellation)
        return [0x01] + stream.dropFirst(5)
    }
}
