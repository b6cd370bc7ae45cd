import Raster

/// A `format` text evaluated for one feature: its code points (text
/// transformed, each image one placeholder), the section each belongs to, and
/// the sections' scales, fonts and colours, ready for ``TextShaper``.
struct FormattedText {
    var codePoints: [UInt32]
    /// The index in ``sections`` of each code point's section.
    var sectionOf: [Int]
    var sections: [FormattedTextSection]
    /// `text-opacity`: what images in the text are drawn with (glyph colours hold it already).
    var opacity: Double

    /// `format` for `feature` at `zoom`: sections without a font use
    /// `fontStack`, without a colour the layer's; colours take `opacity`;
    /// images come from `image` (by name).
    init(_ format: StyleFormattedText, for feature: some StyleFeature, zoom: Double, transform: StyleTextTransform,
         fontStack: [String], opacity: Double, image: (String) -> SpriteImage?) {
        codePoints = []
        sectionOf = []
        sections = []
        self.opacity = opacity
        for section in format.sections {
            let text: [UInt32] = section.image != nil ? [StyleFormattedText.imagePlaceholder.value]
                : transform.apply(section.text.value(atZoom: zoom, for: feature)).unicodeScalars.map(\.value)
            let font = section.font.value(atZoom: zoom, for: feature)
            sections.append(FormattedTextSection(
                scale: max(0, min(section.fontScale.value(atZoom: zoom, for: feature) ?? 1, Self.maximumScale)),
                fontStack: font.flatMap { $0.isEmpty ? nil : $0 } ?? fontStack,
                color: section.color.value(atZoom: zoom, for: feature).map { VectorLayerDrawer.rgba($0, opacity: opacity) },
                image: section.image.flatMap { image($0.value(atZoom: zoom, for: feature)) }))
            codePoints += text
            sectionOf += repeatElement(sections.count - 1, count: text.count)
        }
    }

    /// The largest `font-scale` drawn: the text size is capped, and so is a section's share of it.
    static let maximumScale = 10.0
}
