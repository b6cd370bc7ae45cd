/// What a style's `image` source says: the picture's URL and the four
/// places its corners are pinned to.
public struct ImageStyleSource: Sendable, Equatable {
    /// `url`: the picture (PNG, JPEG, GIF or WebP); relative paths are the caller's to resolve.
    public var url: String
    /// `coordinates`: the top-left, top-right, bottom-right and bottom-left corners.
    public var corners: [GeoCoordinate]
}
