import Foundation
import ImageCodecs

/// An `avatar://` URL: a chat avatar composed from up to four participants'
/// photos (asset ids), one square image.
///
/// ```
/// avatar://?id=a1&id=b2&id=c3&size=128&shape=circle
/// ```
/// One photo fills the square; two sit side by side; three are one half and
/// two quarters; four are quarters; tiles are centre-cropped to fill and
/// separated by a thin gap. A circle is anti-aliased and transparent outside,
/// so it is always PNG.
public struct AvatarURL: SchemeURL {
    /// `avatar`.
    public static let scheme = "avatar"
    /// Every query item an `avatar://` URL may carry.
    public static let parameterNames = ["id", "size", "shape", "format", "quality", "lossless"]

    /// The outline of the avatar.
    public enum Shape: String, CaseIterable, Sendable {
        case square
        case circle
    }

    /// How many participants one avatar shows at most.
    public static let maximumParticipants = 4
    /// The allowed edge lengths in pixels.
    public static let sizeRange = 16...2048

    /// Participants' asset ids, 1–4, in tile order.
    public var ids: [String]
    /// Edge length in pixels.
    public var size: Int
    /// A circle (transparent outside, PNG) or a square.
    public var shape: Shape
    /// nil: PNG for circles, JPEG for squares.
    public var format: ImageFormat?
    /// JPEG or lossy WebP quality (`OutputEncoding.qualityRange`); nil: the
    /// format's default (85 JPEG, 75 WebP).
    public var quality: Int?
    /// Lossless WebP (`lossless=true`; only with `format=webp`).
    public var lossless: Bool

    /// An avatar of `ids` (1–4 asset ids, in tile order). Throws the
    /// `URLParameterError` that reading its URL would.
    public init(ids: [String], size: Int = 128, shape: Shape = .circle, format: ImageFormat? = nil, quality: Int? = nil,
                lossless: Bool = false) throws {
        self.ids = ids
        self.size = size
        self.shape = shape
        self.format = format
        self.quality = quality
        self.lossless = lossless
        try checkReadsBack()
    }

    /// Parses an `avatar://` query. Throws `URLParameterError` naming the parameter that is missing, repeated too often or out of range.
    public init(query: QueryReader) throws {
        let ids = query.all("id")
        guard !ids.isEmpty else { throw URLParameterError(parameter: "id", reason: "is required: give 1 to 4 participants' asset ids") }
        guard ids.count <= Self.maximumParticipants else {
            throw URLParameterError(parameter: "id", reason: "is given \(ids.count) times; an avatar shows at most \(Self.maximumParticipants) participants")
        }
        self.ids = try ids.map { try AssetURL.assetID($0, parameter: "id") }
        size = try query.int("size", in: Self.sizeRange) ?? 128
        shape = try query.choice("shape", as: Shape.self) ?? .circle
        (format, quality, lossless) = try OutputEncoding.read(query)
        if shape == .circle, format == .jpeg {
            throw URLParameterError(parameter: "format", reason: "'jpeg' cannot hold a circle's transparent corners; use png or shape=square")
        }
    }

    /// Writes the query items, leaving out defaults.
    public func write(to query: inout QueryWriter) {
        for id in ids { query.add("id", id) }
        if size != 128 { query.add("size", size) }
        if shape != .circle { query.add("shape", shape.rawValue) }
        OutputEncoding.write(format: format, quality: quality, lossless: lossless, to: &query)
    }
}
