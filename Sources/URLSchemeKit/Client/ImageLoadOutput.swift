import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a shared load hands its waiters: the body, the decoded image, or every frame.
enum ImageLoadOutput: Sendable {
    case data(Data)
    case image(LoadedImage)
    case animation(LoadedAnimation)
}

/// The identity of a shared load: the canonical URL (`CacheKey` rules), the
/// target size, and what is made of the body. Equal keys share one
/// `URLSession` task and one decode.
struct ImageLoadKey: Hashable, Sendable {
    /// What a load makes of the body it gets.
    enum Product: Hashable, Sendable {
        /// The bytes, undecoded (the size is then nil).
        case data
        /// The image, or an animation's first frame.
        case image
        /// Every frame.
        case animation
    }

    var url: CacheKey
    var size: ImageTargetSize?
    var product: Product
}
