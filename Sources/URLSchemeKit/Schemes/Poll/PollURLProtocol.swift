import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers `poll://` URLs with poll cards (see `PollURL`), drawn from the URL
/// alone: no store or network is involved.
public final class PollURLProtocol: SchemeURLProtocol {
    /// The renderer new `poll://` loads use.
    public static let renderer = RendererSlot<PollURL>(PollRenderer())

    public override class var schemes: Set<String> { [PollURL.scheme] }

    public override func makeRenderWork() throws -> RenderWork {
        try Self.renderer.work(for: PollURL(url: requestURL))
    }
}
