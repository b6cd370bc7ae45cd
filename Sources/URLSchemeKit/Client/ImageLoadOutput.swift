import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a shared load hands its waiters: the body, or the decoded image.
enum ImageLoadOutput: Sendable {
    case data(Data)
    case image(LoadedImage)
}

/// The identity of a shared load: the canonical URL (`CacheKey` rules), the
/// target size, and whether the body is decoded. Equal keys share one
/// `URLSession` task and one decode.
struct ImageLoadKey: Hashable, Sendable {
    var url: CacheKey
    var size: ImageTargetSize?
    var decodes: Bool
}
