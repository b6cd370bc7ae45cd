extension Canvas {
    /// Draws `text` with its top-left corner at (x, y), each font pixel as a
    /// `scale` × `scale` block, optionally on a `halo` one block wide around
    /// every stroke so it reads on any background. Clipped to the bitmap.
    public mutating func drawText(_ text: String, x: Int, y: Int, font: BitmapFont = .fixed6x13, scale: Int = 1,
                                  color: RGBA, halo: RGBA? = nil) {
        let scale = max(1, scale)
        let size = font.size(of: text, scale: scale)
        guard size.width > 0 else { return }
        // The text as a mask of font pixels (one per block), with a one-pixel border for the halo.
        let maskWidth = text.count * font.cellWidth + 2, maskHeight = font.cellHeight + 2
        var mask = [Bool](repeating: false, count: maskWidth * maskHeight)
        for (index, character) in text.enumerated() {
            for gy in 0..<font.cellHeight {
                for gx in 0..<font.cellWidth where font.isSet(character, x: gx, y: gy) {
                    mask[(gy + 1) * maskWidth + index * font.cellWidth + gx + 1] = true
                }
            }
        }
        func paint(_ color: RGBA, where include: (Int, Int) -> Bool) {
            for my in 0..<maskHeight {
                for mx in 0..<maskWidth where include(mx, my) {
                    let left = x + (mx - 1) * scale, top = y + (my - 1) * scale
                    let x0 = max(0, left), x1 = min(bitmap.width, left + scale)
                    let y0 = max(0, top), y1 = min(bitmap.height, top + scale)
                    guard x0 < x1, y0 < y1 else { continue }  // the block lies outside the bitmap
                    for py in y0..<y1 {
                        for px in x0..<x1 { blendPixel(px, py, color) }
                    }
                }
            }
        }
        if let halo {
            paint(halo) { mx, my in
                guard !mask[my * maskWidth + mx] else { return false }
                for dy in -1...1 {
                    for dx in -1...1 {
                        let nx = mx + dx, ny = my + dy
                        if nx >= 0, ny >= 0, nx < maskWidth, ny < maskHeight, mask[ny * maskWidth + nx] { return true }
                    }
                }
                return false
            }
        }
        paint(color) { mx, my in mask[my * maskWidth + mx] }
    }
}
