/// Bounds on one sprite's files, checked before the work they bound: a
/// hostile sprite is refused with a ``SpriteError`` naming the limit.
public struct SpriteLimits: Sendable, Equatable {
    /// The largest index (`.json`) read, in bytes (4 MB: MapLibre's largest
    /// published sprites index a few thousand images in under 1 MB).
    public var maximumIndexBytes = 4 << 20
    /// The most images one index may name.
    public var maximumEntryCount = 20_000
    /// The largest sheet (`.png`) decoded, in pixels (4096 × 4096, the
    /// texture size MapLibre's image atlas can hold).
    public var maximumSheetPixels = 4096 * 4096
    /// The largest sheet file read, in bytes.
    public var maximumSheetBytes = 32 << 20

    /// The limits above.
    public static let `default` = SpriteLimits()

    /// Limits with the defaults above.
    public init() {}
}
