import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers `poll://` URLs with poll cards (see ``PollURL``), drawn from the URL
/// alone: no store or network is involved.
public final class PollURLProtocol: SchemeURLProtocol {
    public override class var schemes: Set<String> { [PollURL.scheme] }

    public override func makeRenderWork(in environment: URLSchemeKitEnvironment) throws -> RenderWork {
        try environment.work(for: PollURL(url: requestURL))
    }
}
