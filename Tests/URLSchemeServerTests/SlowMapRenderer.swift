import Foundation
import URLSchemeKit

/// A `map://` renderer that draws nothing until it is cancelled (its render
/// deadline), or for `seconds` when given, then answers a tiny body.
struct SlowMapRenderer: Renderer {
    var seconds: Double = .infinity

    func render(_ request: MapURL, in context: RenderContext) throws -> RenderedImage {
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            try context.checkCancellation()
            usleep(5_000)
        }
        return RenderedImage(data: Data("slow".utf8), mimeType: "image/png")
    }
}
