/// The work a scheme hands to the render queue: one parsed request, the
/// renderer that draws it, and that renderer's version (part of the cache key).
public struct RenderWork: Sendable {
    /// The version of what draws this answer (`Renderer.version`).
    public let version: String
    private let body: @Sendable (RenderContext) throws -> RenderedImage

    /// Work that renders `request` with `renderer`.
    public init<R: Renderer>(_ request: R.Request, renderer: R) {
        version = renderer.version
        body = { context in try renderer.render(request, in: context) }
    }

    /// Work of `version` done by `body`.
    init(version: String, _ body: @escaping @Sendable (RenderContext) throws -> RenderedImage) {
        self.version = version
        self.body = body
    }

    /// Renders the request.
    func callAsFunction(_ context: RenderContext) throws -> RenderedImage {
        try body(context)
    }
}
