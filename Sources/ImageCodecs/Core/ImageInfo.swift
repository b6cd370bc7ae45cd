/// What a file's header says, read without decoding its pixels: enough to plan
/// a resize, choose a scaled JPEG decode, or list an asset store.
public struct ImageInfo: Equatable, Sendable {
    /// The container format the header belongs to.
    public var format: ImageFormat
    /// Stored width in pixels (before `orientation` is applied).
    public var width: Int
    /// Stored height in pixels (before `orientation` is applied).
    public var height: Int
    /// The EXIF orientation, `.up` when the file has none.
    public var orientation: ImageOrientation
    /// Whether the file can carry transparency (PNG with alpha or `tRNS`, a GIF
    /// with a transparent colour or whose frames may leave the canvas uncovered).
    public var hasAlpha: Bool

    /// Width as the image is shown, orientation applied.
    public var uprightWidth: Int { orientation.swapsDimensions ? height : width }
    /// Height as the image is shown, orientation applied.
    public var uprightHeight: Int { orientation.swapsDimensions ? width : height }

    /// Header facts as a decoder or a test states them.
    public init(format: ImageFormat, width: Int, height: Int, orientation: ImageOrientation = .up, hasAlpha: Bool) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
        self.hasAlpha = hasAlpha
    }
}
