import Raster

/// Where each participant's photo goes in a square avatar of `size` pixels:
/// one photo whole; two side by side; three as a left half and two right
/// quarters; four as quarters (left to right, top to bottom). Tiles are
/// separated by `gap` transparent pixels.
struct AvatarLayout {
    let size: Int
    let tiles: [PixelRect]

    /// The gap between tiles: thin, about 1/64 of the avatar, at least one pixel.
    static func gap(forSize size: Int) -> Int { max(1, (size + 32) / 64) }

    init(participants: Int, size: Int) {
        self.size = size
        let gap = Self.gap(forSize: size)
        let near = (size - gap) / 2, far = size - gap - near, farStart = near + gap
        let left = PixelRect(x: 0, y: 0, width: near, height: size)
        let right = PixelRect(x: farStart, y: 0, width: far, height: size)
        let topRight = PixelRect(x: farStart, y: 0, width: far, height: near)
        let bottomRight = PixelRect(x: farStart, y: farStart, width: far, height: far)
        switch participants {
        case ...1: tiles = [PixelRect(x: 0, y: 0, width: size, height: size)]
        case 2: tiles = [left, right]
        case 3: tiles = [left, topRight, bottomRight]
        default: tiles = [PixelRect(x: 0, y: 0, width: near, height: near), topRight,
                          PixelRect(x: 0, y: farStart, width: near, height: far), bottomRight]
        }
    }
}
