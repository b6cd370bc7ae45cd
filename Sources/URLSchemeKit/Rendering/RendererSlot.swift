import Synchronization

/// The work a scheme hands to the render queue: renders one parsed request.
public typealias RenderWork = @Sendable (RenderCancellation) throws -> RenderedImage

/// Holds the renderer a scheme class renders through. Replaceable at any time
/// (an app configures its store, a test injects a fake) and read under a lock,
/// so injection needs no unguarded global state. A request keeps the renderer
/// that was current when it started.
public final class RendererSlot<Request: Sendable>: Sendable {
    private let current: Mutex<any Renderer<Request>>

    /// A slot holding `renderer`, the scheme's default, until another is set.
    public init(_ renderer: any Renderer<Request>) {
        current = Mutex(renderer)
    }

    /// The renderer new requests use.
    public var renderer: any Renderer<Request> {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// The render of `request` by the current renderer, to run later on the render queue.
    public func work(for request: Request) -> RenderWork {
        let renderer = self.renderer
        return { cancellation in try renderer.render(request, cancellation: cancellation) }
    }
}
