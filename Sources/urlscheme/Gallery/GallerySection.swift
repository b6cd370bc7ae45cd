/// One screen of the gallery page: a titled list of images in one colour scheme and arrangement.
struct GallerySection {
    /// How the section's items are arranged.
    enum Layout: String {
        /// Rows of avatar, name and last message, as an app's chat list.
        case chatList = "chat-list"
        /// Message bubbles down the page, as a conversation.
        case conversation
        /// Images side by side.
        case grid
    }

    let title: String
    let layout: Layout
    let dark: Bool
    let items: [GalleryItem]
}
