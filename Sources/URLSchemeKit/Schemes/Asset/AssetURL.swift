import Foundation
import ImageCodecs

/// An `asset://` URL as a typed value: which stored photo, edited how, sized
/// and encoded how.
///
/// ```
/// asset://?id=mzxw6ytboi3tmnrz2xhlhg5qcm&width=640&rotate=90&filter=sepia
/// asset://?id=…&width=1920&height=1280&mode=fill&crop=0.1,0.2,0.5,0.5&flip=h&filter=contrast:1.2,blur:1.5&format=jpeg&quality=85
/// asset://?id=…&frame=3&width=320
/// asset://?id=…&width=320&format=gif
/// asset://?id=…&width=640&enlarge=false
/// ```
///
/// Edits apply in a fixed order: the frame (an animated GIF's or WebP's
/// first, or `frame`), EXIF orientation, `crop`, `rotate`, `flip`, `filter`
/// (left to right), resize to `width`/`height` by `mode`, encode.
///
/// An animated GIF or WebP without `frame` stays animated when the output
/// can animate (`format=gif` or `format=webp`, or no `format`: then its own):
/// every frame is edited as above and encoded with its delay and the loop
/// count, under `ResourceBudget`'s animation limits. `format=png` or `jpeg`
/// gives the first frame, and `frame=N` frame N alone, in any format.
public struct AssetURL: SchemeURL {
    /// `asset`.
    public static let scheme = "asset"
    /// Every query item an `asset://` URL may carry.
    public static let parameterNames = ["id", "frame", "width", "height", "mode", "enlarge", "crop", "rotate", "flip", "filter", "format", "quality", "lossless"]

    /// How the image meets a `width` × `height` box.
    public enum Mode: String, CaseIterable, Sendable {
        /// Scaled to fit inside the box, keeping its aspect ratio (the default).
        /// A smaller photo is enlarged, unless ``AssetURL/enlarge`` is false:
        /// the URL asks for those pixels. (An `ImageTargetSize` `.fit` is a
        /// display size and never enlarges; both fit with `Bitmap.fittedSize`.)
        case fit
        /// Scaled to cover the box, then centre-cropped to it.
        case fill
        /// Scaled to the box exactly, aspect ratio ignored.
        case stretch
    }

    /// Mirroring after rotation.
    public enum Flip: String, CaseIterable, Sendable {
        case h
        case v
        case hv
    }

    /// The largest box edge, in pixels.
    public static let maximumDimension = 16_384

    /// The stored photo's id.
    public var id: String
    /// Which frame of an animated GIF or WebP is edited alone, counted from 1
    /// as in the URL (`frame=3` is `frame: 3`), like `PollURL.chosen`; nil
    /// (the default, not written) keeps every frame when the output format
    /// can animate and takes the first otherwise (a still photo has only
    /// that one). At most `ImageDecoder.Options.defaultMaximumFrameCount`;
    /// one past the photo's last frame fails when rendered, naming `frame`
    /// and the range.
    public var frame: Int?
    /// The target box's width in pixels; nil: follows the height, or the edited size.
    public var width: Int?
    /// The target box's height in pixels; nil: follows the width, or the edited size.
    public var height: Int?
    /// How the photo meets the box when both sides are given.
    public var mode: Mode
    /// Whether a photo smaller than the box is scaled up to it (`enlarge=true`,
    /// the default: the URL asks for those pixels). `enlarge=false`, as
    /// imgproxy's and thumbor's habit, never scales up: the photo comes out
    /// at its own size (`fit`, or one side given), as the largest part of it
    /// with the box's shape (`fill`), or with each side at most its own (`stretch`).
    public var enlarge: Bool
    /// The part of the upright photo to keep, before rotation; nil keeps it whole.
    public var crop: NormalizedRect?
    /// Degrees clockwise; multiples of 90 are exact.
    public var rotate: Double
    /// A mirror after the rotation; nil: none.
    public var flip: Flip?
    /// Filters, applied in order after the crop, rotation and flip.
    public var filters: [ImageEdit]
    /// nil: an animation's own format (GIF or WebP) when it stays animated,
    /// else JPEG for opaque photos and PNG when alpha matters.
    public var format: ImageFormat?
    /// JPEG or lossy WebP quality (`OutputEncoding.qualityRange`); nil: the
    /// format's default (85 JPEG, 75 WebP).
    public var quality: Int?
    /// Lossless WebP (`lossless=true`; only with `format=webp`).
    public var lossless: Bool

    /// An edit of asset `id`; every parameter but `id` defaults to leaving the
    /// photo as it is. Throws the `URLParameterError` that reading its URL would.
    public init(id: String, frame: Int? = nil, width: Int? = nil, height: Int? = nil, mode: Mode = .fit, enlarge: Bool = true,
                crop: NormalizedRect? = nil, rotate: Double = 0, flip: Flip? = nil, filters: [ImageEdit] = [], format: ImageFormat? = nil,
                quality: Int? = nil, lossless: Bool = false) throws {
        self.id = id
        self.frame = frame
        self.width = width
        self.height = height
        self.mode = mode
        self.enlarge = enlarge
        self.crop = crop
        self.rotate = rotate
        self.flip = flip
        self.filters = filters
        self.format = format
        self.quality = quality
        self.lossless = lossless
        try checkReadsBack()
    }

    /// Parses an `asset://` query. Throws `URLParameterError` naming the parameter that is unknown, missing or out of range.
    public init(query: QueryReader) throws {
        id = try Self.assetID(query.required("id"), parameter: "id")
        frame = try query.int("frame", in: 1...ImageDecoder.Options.defaultMaximumFrameCount)
        width = try query.int("width", in: 1...Self.maximumDimension)
        height = try query.int("height", in: 1...Self.maximumDimension)
        mode = try query.choice("mode", as: Mode.self) ?? .fit
        enlarge = try query.bool("enlarge") ?? true
        crop = try query.string("crop").map { try NormalizedRect.parse($0, parameter: "crop") }
        rotate = try query.double("rotate", in: -3600...3600) ?? 0
        flip = try query.choice("flip", as: Flip.self)
        filters = try query.string("filter").map { text in
            try text.split(separator: ",", omittingEmptySubsequences: false).map { try ImageEdit.parse($0, parameter: "filter") }
        } ?? []
        (format, quality, lossless) = try OutputEncoding.read(query)
        if mode != .fit, width == nil || height == nil {
            throw URLParameterError(parameter: "mode", reason: "'\(mode.rawValue)' needs both 'width' and 'height'")
        }
    }

    /// Checks an id's form: 1–128 characters of letters, digits, `-` and `_`.
    /// (Whether it exists is the store's answer.)
    static func assetID(_ text: String, parameter: String) throws -> String {
        guard (1...128).contains(text.utf8.count),
              text.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }) else {
            throw URLParameterError(parameter: parameter, reason: "must be 1–128 letters, digits, '-' or '_', got '\(text)'")
        }
        return text
    }

    /// Writes the query items, leaving out defaults.
    public func write(to query: inout QueryWriter) {
        query.add("id", id)
        query.add("frame", frame)
        query.add("width", width)
        query.add("height", height)
        if mode != .fit { query.add("mode", mode.rawValue) }
        if !enlarge { query.add("enlarge", "false") }
        query.add("crop", crop?.text)
        if rotate != 0 { query.add("rotate", rotate) }
        query.add("flip", flip?.rawValue)
        if !filters.isEmpty { query.add("filter", filters.map(\.token).joined(separator: ",")) }
        OutputEncoding.write(format: format, quality: quality, lossless: lossless, to: &query)
    }
}
