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
    public init(_ text: String, font: TrueTypeFont, size: Double, maximumWidth: Double) {
        lineHeight = Double(font.ascender - font.descender + font.lineGap) * size / Double(font.unitsPerEm)
        var lines: [TextLine] = []
        for hardLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var current: Substring = hardLine.prefix(0)
            for word in hardLine.split(separator: " ") {
                let joined = current.isEmpty ? word : hardLine[current.startIndex..<word.endIndex]
                if TextLine(joined, font: font, size: size).width <= maximumWidth || current.isEmpty && word.count <= 1 {
                    current = joined
                    continue
                }
                if !current.isEmpty { lines.append(TextLine(current, font: font, size: size)) }
                // A word wider than the limit on its own is broken between characters.
                var rest = word
                while TextLine(rest, font: font, size: size).width > maximumWidth, rest.count > 1 {
                    var cut = rest.index(after: rest.startIndex)
                    while cut < rest.endIndex, TextLine(rest[..<rest.index(after: cut)], font: font, size: size).width <= maximumWidth {
                        cut = rest.index(after: cut)
                    }
                    lines.append(TextLine(rest[..<cut], font: font, size: size))
                    rest = rest[cut...]
                }
                current = rest
            }
            lines.append(TextLine(current, font: font, size: size))
        }
        self.lines = lines
    }
}
