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
