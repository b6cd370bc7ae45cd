/// What a renderer is given besides its request: the environment of the
/// session that asked (asset store, budget, tile sources) and the
/// cancellation of this one load.
public struct RenderContext: Sendable {
    /// The session's environment.
    public let environment: URLSchemeKitEnvironment
    /// Fires when the load is stopped or outlives `ResourceBudget.renderDeadline`.
    public let cancellation: RenderCancellation

    /// A context for one render.
    public init(environment: URLSchemeKitEnvironment, cancellation: RenderCancellation = RenderCancellation()) {
        self.environment = environment
        self.cancellation = cancellation
    }

    /// The environment's budget: what this render may cost.
    public var budget: ResourceBudget { environment.budget }

    /// Throws once the load is cancelled or out of time (see `RenderCancellation.check()`).
    public func checkCancellation() throws {
        try cancellation.check()
    }
}
