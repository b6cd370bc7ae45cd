/// What a style's `image`, `video` or `canvas` source says: where its
/// picture comes from and the four places its corners are pinned to. All
/// three are drawn by `raster` layers as one picture, the snapshot's still.
public struct ImageStyleSource: Sendable, Equatable {
    /// Where the picture comes from, by the source's type.
    public enum Content: Sendable, Equatable {
        /// `image`: the picture at the URL (PNG, JPEG, GIF or WebP); relative
        /// paths are the caller's to resolve.
        case url(String)
        /// `video`: the first of the `urls` that is a picture this package
        /// decodes, as a browser's `<video>` plays the first source it can; a
        /// snapshot shows its first frame (an animated GIF's or WebP's). Video
        /// files (MP4, WebM) are not decoded: such a source is refused, named.
        case video(urls: [String])
        /// `canvas`: the picture the host draws for the canvas named `id`
        /// (``StyleResourceLoading/canvas(id:)``), as a web page draws on the
        /// `<canvas>` element of that id.
        case canvas(id: String)
    }

    /// Where the picture comes from.
    public var content: Content
    /// `coordinates`: the top-left, top-right, bottom-right and bottom-left corners.
    public var corners: [GeoCoordinate]

    /// A source of `content` pinned to `corners` (top-left first, clockwise).
    public init(content: Content, corners: [GeoCoordinate]) {
        self.content = content
        self.corners = corners
    }

    /// An `image` source: the picture at `url` pinned to `corners`.
    public init(url: String, corners: [GeoCoordinate]) {
        self.init(content: .url(url), corners: corners)
    }
}
