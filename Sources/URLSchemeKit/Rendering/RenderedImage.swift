import Foundation

/// The body and media type a renderer produced.
public struct RenderedImage: Sendable, Equatable {
    /// The encoded body (PNG, JPEG, …).
    public var data: Data
    /// The `Content-Type` of `data`, such as `image/png`.
    public var mimeType: String

    /// A body and its media type.
    public init(data: Data, mimeType: String) {
        self.data = data
        self.mimeType = mimeType
    }
}
