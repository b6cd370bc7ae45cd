extension Canvas {
    /// Draws `text` with its top-left corner at (x, y) in `color`, optionally
    /// ringed by a one-pixel `halo` (so labels stay legible over any background).
    /// Pixels off the canvas are clipped. Lines split at "\n".
    public mutating func draw(text: String, at x: Int, _ y: Int, color: RGBA,
                              halo: RGBA? = nil, font: FixedFont = .fixed6x13) {
        let size = font.size(of: text)
        // Labels are short; refuse absurd ones rather than allocate a huge mask.
        guard size.width > 0, size.width * size.height <= 1 << 24 else { return }
        // Glyph mask with a one-pixel border for the halo.
        let maskWidth = size.width + 2, maskHeight = size.height + 2
        var glyphs = [UInt8](repeating: 0, count: maskWidth * maskHeight)
        var line = 0, column = 0
        for scalar in text.unicodeScalars {
            if scalar == "\n" { line += 1; column = 0; continue }
            for gy in 0..<font.cellHeight {
                for gx in 0..<font.cellWidth where font.isSet(scalar, gx, gy) {
                    glyphs[(line * font.cellHeight + gy + 1) * maskWidth + column * font.cellWidth + gx + 1] = 1
                }
            }
            column += 1
        }
        if let halo {
            var ring = [UInt8](repeating: 0, count: glyphs.count)
            for my in 0..<maskHeight {
                for mx in 0..<maskWidth where glyphs[my * maskWidth + mx] == 1 {
                    for ny in max(0, my - 1)...min(maskHeight - 1, my + 1) {
                        for nx in max(0, mx - 1)...min(maskWidth - 1, mx + 1) { ring[ny * maskWidth + nx] = 1 }
                    }
                }
            }
            blend(mask: ring, maskWidth: maskWidth, at: x, y, color: halo)
        }
        blend(mask: glyphs, maskWidth: maskWidth, at: x, y, color: color)
    }

    /// Source-over of `color` wherever `mask` is 1, clipped; mask pixel (1, 1) lands on (x, y).
    private mutating func blend(mask: [UInt8], maskWidth: Int, at x: Int, _ y: Int, color: RGBA) {
        let sa = UInt32(color.a)
        let sr = UInt32(Premultiplication.mul255(UInt32(color.r), sa))
        let sg = UInt32(Premultiplication.mul255(UInt32(color.g), sa))
        let sb = UInt32(Premultiplication.mul255(UInt32(color.b), sa))
        let inv = 255 - sa
        let maskHeight = mask.count / maskWidth
        let w = width, first = rows.lowerBound, end = rows.upperBound
        pixels.withUnsafeMutableBufferPointer { p in
            for my in 0..<maskHeight {
                let (py, o1) = y.addingReportingOverflow(my - 1)
                guard !o1, py >= first, py < end else { continue }
                for mx in 0..<maskWidth where mask[my * maskWidth + mx] == 1 {
                    let (px, o2) = x.addingReportingOverflow(mx - 1)
                    guard !o2, px >= 0, px < w else { continue }
                    let i = ((py - first) * w + px) * 4
                    p[i] = UInt8(sr + UInt32(Premultiplication.mul255(UInt32(p[i]), inv)))
                    p[i + 1] = UInt8(sg + UInt32(Premultiplication.mul255(UInt32(p[i + 1]), inv)))
                    p[i + 2] = UInt8(sb + UInt32(Premultiplication.mul255(UInt32(p[i + 2]), inv)))
                    p[i + 3] = UInt8(sa + UInt32(Premultiplication.mul255(UInt32(p[i + 3]), inv)))
                }
            }
        }
    }
}
