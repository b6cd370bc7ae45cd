import Foundation

/// One image on the gallery page: the URL it is loaded from, what the page
/// shows with it, and the pixels per point it was drawn at (a `scale=2` image
/// is shown at half its pixel size, as an app on a 2× screen would).
struct GalleryItem {
    let url: URL
    /// Plain text shown beside or above the image (a chat's name, a message).
    let text: String
    /// A second, quieter line (a chat's last message), if any.
    let detail: String?
    let scale: Int

    init(_ url: String, text: String = "", detail: String? = nil, scale: Int = 1) {
        // The URLs are written in GalleryScreens from fixed templates and asset ids; a bad one is a defect there.
        guard let parsed = URL(string: url) else { preconditionFailure("gallery URL does not parse: \(url)") }
        self.url = parsed
        self.text = text
        self.detail = detail
        self.scale = scale
    }
}
