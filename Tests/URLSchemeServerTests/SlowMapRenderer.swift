import Foundation
import Synchronization
import URLSchemeKit

/// A `map://` renderer that draws nothing until it is cancelled (its render
/// deadline), or for `seconds` when given, then answers a tiny body; each
/// render it starts is counted in `renders`.
struct SlowMapRenderer: Renderer {
    var seconds: Double = .infinity
    var renders = RenderCount()

    func render(_ request: MapURL, in context: RenderContext) throws -> RenderedImage {
        renders.count.withLock { $0 += 1 }
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            try context.checkCancellation()
            usleep(5_000)
        }
        return RenderedImage(data: Data("slow".utf8), mimeType: "image/png")
    }
}

/// How many renders a test renderer started.
final class RenderCount: Sendable {
    let count = Mutex(0)
}
