import Foundation
import ImageCodecs
import Raster

/// `poll://`'s renderer: draws the card `PollLayout` places, in DejaVu Sans
/// (Latin, Greek and Cyrillic; a character the font lacks shows as U+FFFD),
/// on an opaque background in the light or dark palette.
///
/// The chosen option's bar is drawn in the accent colour with a check mark
/// after its text; the others in a quieter tone. PNG unless the URL asks for JPEG.
public struct PollRenderer: Renderer {
    /// The colours of one style.
    struct Palette {
        let background, text, secondary, track, bar, chosenBar: RGBA

        static func of(_ style: PollURL.Style) -> Palette {
            switch style {
            case .light:
                return Palette(background: .white, text: RGBA(0x22, 0x22, 0x22), secondary: RGBA(0x81, 0x8C, 0x99),
                               track: RGBA(0xE5, 0xEB, 0xF1), bar: RGBA(0xAE, 0xC4, 0xDD), chosenBar: RGBA(0x2A, 0x7A, 0xE0))
            case .dark:
                return Palette(background: RGBA(0x19, 0x19, 0x1A), text: RGBA(0xE1, 0xE3, 0xE6), secondary: RGBA(0x82, 0x85, 0x88),
                               track: RGBA(0x2C, 0x2D, 0x2E), bar: RGBA(0x4A, 0x5A, 0x70), chosenBar: RGBA(0x71, 0xAA, 0xEB))
            }
        }
    }

    /// A renderer drawing with the embedded DejaVu Sans.
    public init() {}

    /// The card's drawing: bump when the layout, palette, font or encoder defaults change.
    public var version: String { "poll-1 " + OutputEncoding.version }

    /// Draws the card. Throws only when the image cannot be made or encoded (it is at most 4096 pixels wide).
    public func render(_ poll: PollURL, in context: RenderContext) throws -> RenderedImage {
        let cancellation = context.cancellation
        let layout = PollLayout(poll, font: try TrueTypeFont.dejaVuSans)
        let palette = Palette.of(poll.style)
        var canvas = try Canvas(width: layout.width, height: layout.height, background: palette.background)
        try canvas.draw(layout.question, at: layout.questionOrigin, color: palette.text)
        try cancellation.check()
        for (index, row) in layout.rows.enumerated() {
            let chosen = index == poll.chosenIndex
            try canvas.draw(row.text, at: row.textOrigin, color: palette.text)
            try canvas.draw(row.percentage, at: row.percentageOrigin, color: chosen ? palette.chosenBar : palette.secondary)
            let radius = row.track.height / 2
            try canvas.fill(.roundedRect(x: row.track.x, y: row.track.y, width: row.track.width, height: row.track.height, radius: radius),
                            color: palette.track)
            if row.barWidth > 0 {
                try canvas.fill(.roundedRect(x: row.track.x, y: row.track.y, width: row.barWidth, height: row.track.height,
                                             radius: min(radius, row.barWidth / 2)),
                                color: chosen ? palette.chosenBar : palette.bar)
            }
            if chosen, let last = row.text.lines.last {
                try drawCheck(on: &canvas, after: last, baseline: row.textOrigin.y + Double(row.text.lines.count - 1) * row.text.lineHeight,
                              x: row.textOrigin.x, scale: layout.scale, color: palette.chosenBar)
            }
            try cancellation.check()
        }
        try canvas.draw(layout.footer, at: layout.footerOrigin, color: palette.secondary)
        return try OutputEncoding.encode(canvas.bitmap, format: poll.format ?? .png, quality: poll.quality, lossless: poll.lossless, cancellation: cancellation)
    }

    /// A check mark, a stroked polyline as tall as a lower-case letter, after `line`.
    private func drawCheck(on canvas: inout Canvas, after line: TextLine, baseline: Double, x: Double, scale: Double, color: RGBA) throws {
        let left = x + line.width + 6 * scale, size = 10 * scale
        let points = [Point(left, baseline - size * 0.45), Point(left + size * 0.35, baseline - size * 0.1), Point(left + size, baseline - size * 0.85)]
        try canvas.stroke(Path(polyline: points), color: color, style: StrokeStyle(width: 2 * scale, join: .round, cap: .round))
    }
}
