import Raster

/// The credit line every snapshot carries in its bottom-right corner.
enum MapAttribution {
    /// Text size in points.
    static let size = 9.0

    /// Draws `text` in the bottom-right corner, small, on a halo; nothing when the image is too small for it.
    static func draw(_ text: String, on canvas: inout Canvas, scale: Double, palette: MapPalette) throws {
        guard let (line, origin) = try layout(text, width: canvas.width, height: canvas.height, scale: scale) else { return }
        try canvas.draw(line, at: origin, color: palette.text, halo: palette.halo, haloWidth: 1.2 * scale)
    }

    /// The pixels the credit covers, margin included (labels keep out of them); empty when it is not drawn.
    static func frame(_ text: String, width: Int, height: Int, scale: Double) throws -> PixelRect {
        guard let (line, origin) = try layout(text, width: width, height: height, scale: scale) else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        let top = Int((origin.y - line.ascent).rounded(.down)), left = Int(origin.x.rounded(.down))
        return PixelRect(x: left, y: top, width: width - left, height: height - top)
    }

    /// The credit's line and baseline origin, or nil when the image is too small for it.
    private static func layout(_ text: String, width: Int, height: Int, scale: Double) throws -> (TextLine, Point)? {
        let line = TextLine(text, font: try TrueTypeFont.dejaVuSans, size: size * scale)
        let margin = 3 * scale
        guard line.width + 2 * margin <= Double(width), line.ascent + line.descent + 2 * margin <= Double(height) else { return nil }
        return (line, Point(Double(width) - line.width - margin, Double(height) - margin - line.descent))
    }
}
