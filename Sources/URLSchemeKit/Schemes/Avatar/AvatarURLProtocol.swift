import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers `avatar://` URLs with chat avatars composed from participants'
/// photos in the store of the session's environment (see ``AvatarURL``), the
/// store `asset://` reads.
public final class AvatarURLProtocol: SchemeURLProtocol {
    public override class var schemes: Set<String> { [AvatarURL.scheme] }

    public override func makeRenderWork(in environment: URLSchemeKitEnvironment) throws -> RenderWork {
        try environment.work(for: AvatarURL(url: requestURL))
    }
}
