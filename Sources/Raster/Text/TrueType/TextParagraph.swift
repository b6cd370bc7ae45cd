/// Text wrapped into lines no wider than a limit: broken at spaces, at
/// "\n", and inside a word only when the word alone is too wide.
public struct TextParagraph: Sendable {
    /// The lines, top to bottom.
    public let lines: [TextLine]
    /// Pixels from one baseline to the next (the font's ascent + descent + line gap).
    public let lineHeight: Double

    /// The widest line's width, in pixels.
    public var width: Double { lines.map(\.width).max() ?? 0 }
    /// From the first line's ascender to the last line's descender, in pixels.
    public var height: Double {
        guard let first = lines.first else { return 0 }
        return first.ascent + first.descent + Double(lines.count - 1) * lineHeight
    }

    /// Wraps `text` in `font` at `size` pixels per em to lines at most `maximumWidth` pixels wide.
    /// Each character is measured once (a pen carried along), so wrapping is linear in the text.
    public init(_ text: String, font: TrueTypeFont, size: Double, maximumWidth: Double) {
        lineHeight = Double(font.ascender - font.descender + font.lineGap) * size / Double(font.unitsPerEm)
        let limit = maximumWidth * Double(font.unitsPerEm) / size
        var lines: [TextLine] = []
        for hardLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var current: Substring = hardLine.prefix(0)
            var pen = TextPen(font: font)
            for word in hardLine.split(separator: " ") {
                // The line so far plus the spaces and the word, measured from where the pen is.
                var extended = pen
                extended.advance(over: current.isEmpty ? word : hardLine[current.endIndex..<word.endIndex])
                if Double(extended.position) <= limit || current.isEmpty && word.count <= 1 {
                    current = current.isEmpty ? word : hardLine[current.startIndex..<word.endIndex]
                    pen = extended
                    continue
                }
                if !current.isEmpty { lines.append(TextLine(current, font: font, size: size)) }
                // A word wider than the limit on its own is broken between characters.
                var rest = word
                pen = TextPen(font: font)
                var index = rest.startIndex
                while index < rest.endIndex {
                    var next = pen
                    next.advance(over: rest[index...index])
                    if Double(next.position) > limit && index > rest.startIndex {
                        lines.append(TextLine(rest[..<index], font: font, size: size))
                        rest = rest[index...]
                        pen = TextPen(font: font)
                        continue
                    }
                    pen = next
                    index = rest.index(after: index)
                }
                current = rest
            }
            lines.append(TextLine(current, font: font, size: size))
        }
        self.lines = lines
    }
}
