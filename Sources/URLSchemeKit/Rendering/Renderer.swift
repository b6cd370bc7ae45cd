import Foundation

/// Produces the bytes for one parsed request: the injected rendering step of a
/// scheme (`MapSnapshotRenderer` draws maps, `AssetRenderer` edits stored photos).
///
/// A renderer is called on a render queue, never on URLSession's shared work
/// queue, so it may take its time; it should call
/// `context.checkCancellation()` between expensive steps. It reads what it
/// needs beyond the request (photos, tile sources, the budget) from
/// `context.environment`, never from a global.
public protocol Renderer<Request>: Sendable {
    /// The typed value a scheme parses from its URL.
    associatedtype Request: Sendable
    /// A name of what this renderer draws that changes whenever its output
    /// for the same request changes (new data, style, font or encoder
    /// defaults). Cached answers are keyed by it, so after an upgrade the same
    /// URL is drawn again instead of answered from an old entry. By default `"1"`.
    var version: String { get }
    /// Renders `request` into an encoded image (or other body).
    func render(_ request: Request, in context: RenderContext) throws -> RenderedImage
}

extension Renderer {
    /// `"1"`: state a version of your own and change it when the output changes.
    public var version: String { "1" }
}
