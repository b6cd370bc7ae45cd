import Foundation

/// Produces the bytes for one parsed request: the injected rendering step of a
/// scheme (`MapURLProtocol` renders maps, `AssetURLProtocol` edits stored photos).
///
/// A renderer is called on a render queue, never on URLSession's shared work
/// queue, so it may take its time; it should check `cancellation` between
/// expensive steps and throw `CancellationError` (or any error) once cancelled.
public protocol Renderer<Request>: Sendable {
    /// The typed value a scheme parses from its URL.
    associatedtype Request: Sendable
    /// Renders `request` into an encoded image (or other body).
    func render(_ request: Request, cancellation: RenderCancellation) throws -> RenderedImage
}

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
