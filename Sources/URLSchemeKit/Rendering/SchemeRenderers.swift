import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The renderer of each scheme in an environment, found by the type of
/// request it draws: the built-in ones (`MapSnapshotRenderer`,
/// `AssetRenderer`, `AvatarRenderer`, `PollRenderer`) unless replaced, and an
/// app's own.
///
/// ```swift
/// var renderers = SchemeRenderers()
/// renderers.set(BadgeRenderer())          // draws BadgeURL
/// let environment = URLSchemeKitEnvironment(renderers: renderers)
/// ```
public struct SchemeRenderers: Sendable {
    private var boxes: [ObjectIdentifier: any Sendable] = [:]
    /// True while only the built-in renderers are set.
    private(set) var isBuiltIn = true

    /// The built-in renderers.
    public init() {
        set(MapSnapshotRenderer())
        set(AssetRenderer())
        set(AvatarRenderer())
        set(PollRenderer())
        isBuiltIn = true
    }

    /// Makes `renderer` draw every `R.Request`, replacing the one set before.
    public mutating func set<R: Renderer>(_ renderer: R) {
        boxes[ObjectIdentifier(R.Request.self)] = Box<R.Request>(renderer: renderer)
        isBuiltIn = false
    }

    /// The renderer set for `type`, if any.
    public func renderer<Request: Sendable>(for type: Request.Type) -> (any Renderer<Request>)? {
        (boxes[ObjectIdentifier(type)] as? Box<Request>)?.renderer
    }

    /// The work of rendering `request`. Throws `URLError(.unsupportedURL)` when no renderer draws its type.
    func work<Request: Sendable>(for request: Request) throws -> RenderWork {
        guard let renderer = renderer(for: Request.self) else {
            throw URLErrors.make(.unsupportedURL, "no renderer for \(Request.self) in this session's environment: add one with SchemeRenderers.set(_:)", url: nil)
        }
        return Self.work(request, renderer)
    }

    private static func work<R: Renderer>(_ request: R.Request, _ renderer: R) -> RenderWork {
        RenderWork(request, renderer: renderer)
    }

    private struct Box<Request: Sendable>: Sendable {
        let renderer: any Renderer<Request>
    }
}
