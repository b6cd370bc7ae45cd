import Foundation

/// The body and media type a renderer produced.
public struct RenderedImage: Sendable, Equatable {
    public var data: Data
    /// The `Content-Type` of `data`, such as `image/png`.
    public var mimeType: String

    public init(data: Data, mimeType: String) {
        self.data = data
        self.mimeType = mimeType
    }
}
