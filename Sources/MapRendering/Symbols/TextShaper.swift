import Raster

/// Lays out point labels as MapLibre's `shaping.ts` does, in the pixels of the
/// 24-pixel glyph size: lines broken to `text-max-width` with its balanced
/// line breaking (the least "bad" set of breaks, every line near the average
/// width), `text-line-height`, `text-letter-spacing`, `text-justify`,
/// `text-anchor` and the text offset.
struct TextShaper {
    /// MapLibre's `ONE_EM`: the glyph ranges' size.
    static let oneEm = 24.0
    /// MapLibre's `SHAPING_DEFAULT_OFFSET`: the first line's origin above the anchor.
    static let defaultOffset = -17.0
    /// MapLibre's `baselineOffset` for radial offsets.
    static let baselineOffset = 7.0

    /// The glyph of a code point (the font stack's, with fallback).
    var glyph: (UInt32) -> SDFGlyph?
    /// `text-max-width` in pixels at 24 px (ems × 24). As in MapLibre, 0 aims at
    /// lines of no width: a break at every opportunity.
    var maxWidth: Double
    /// `text-line-height` in pixels at 24 px.
    var lineHeight: Double
    /// `text-letter-spacing` in pixels at 24 px.
    var spacing: Double
    var anchor: StyleTextAnchor
    /// The justification (never `auto`: resolve it by the anchor first).
    var justify: StyleTextJustify
    /// The text offset in pixels at 24 px.
    var translate: (x: Double, y: Double)
    /// Vertical writing (MapLibre's `WritingMode.vertical`): punctuation in its
    /// vertical forms, and the characters that stand upright advancing one em
    /// each along the line (see ``ShapedText/verticalLabel()`` for how it is turned).
    var vertical = false
    /// With ``vertical``, a point label's vertical placement (MapLibre's
    /// `allowVerticalPlacement`): every character but white space and Arabic
    /// stands upright; without it (a line label) only those `VerticalText` says stand.
    var verticalPlacement = false

    private static let whitespace: Set<UInt32> = [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20]
    private static let breakable: Set<UInt32> = [0x0A, 0x20, 0x26, 0x29, 0x2B, 0x2D, 0x2F, 0xAD, 0xB7, 0x200B, 0x2010, 0x2013, 0x2027]
    private static let breakableBefore: Set<UInt32> = [0x28]

    /// `text` shaped; nil when no glyph of it exists in the font stack.
    func shape(_ text: [UInt32]) -> ShapedText? {
        // Arabic shaped first (MapLibre shapes it as the text is evaluated), then punctuation verticalised.
        let shaped = ArabicShaper.shape(text)
        return shape(vertical ? VerticalText.verticalizePunctuation(shaped) : shaped,
                     itemAt: { glyph($1).map { Item(glyph: $0, scale: 1) } }, scaleAt: { _ in 1 })
    }

    /// `text` of `format` sections shaped (`sectionOf` gives each code point's
    /// section): each glyph from its section's font stack by `glyph`, scaled by
    /// its `font-scale`, in its colour; an image section's image at its display
    /// size for text `textSize` pixels high (MapLibre's `layoutTextSizeFactor`).
    /// Nil when no glyph of it exists.
    func shape(_ text: [UInt32], sections: [FormattedTextSection], sectionOf: [Int], textSize: Double,
               glyph: (UInt32, [String]) -> SDFGlyph?) -> ShapedText? {
        guard sectionOf.count == text.count, sectionOf.allSatisfy({ sections.indices.contains($0) }), textSize > 0 else { return nil }
        let factor = Self.oneEm / textSize
        // As MapLibre, Arabic is shaped section by section.
        var shapedText: [UInt32] = [], shapedSectionOf: [Int] = []
        var start = 0
        while start < text.count {
            var end = start + 1
            while end < text.count, sectionOf[end] == sectionOf[start] { end += 1 }
            let run = ArabicShaper.shape(text[start..<end])
            shapedText += run
            shapedSectionOf += repeatElement(sectionOf[start], count: run.count)
            start = end
        }
        let sectionOf = shapedSectionOf
        return shape(vertical ? VerticalText.verticalizePunctuation(shapedText) : shapedText, itemAt: { i, codePoint in
            let section = sections[sectionOf[i]]
            if let image = section.image {
                // MapLibre's image metrics: its display size, one pixel in, three down; upright in
                // vertical text it advances by its height.
                let w = Int(image.displayWidth.rounded()), h = Int(image.displayHeight.rounded())
                let advance = isUpright(codePoint) ? h : w
                let metrics = SDFGlyph(id: codePoint, width: w, height: h, left: 1, top: -SDFGlyph.border, advance: advance, bitmap: [])
                return Item(glyph: metrics, scale: section.scale * factor, color: nil, image: image,
                            imageWidth: image.displayWidth * factor, imageHeight: image.displayHeight * factor)
            }
            return glyph(codePoint, section.fontStack).map { Item(glyph: $0, scale: section.scale, color: section.color) }
        }, scaleAt: { sections[sectionOf[$0]].scale })
    }

    /// One shaped code point: its glyph (an image's metrics for an image), scale, colour and image.
    private struct Item {
        var glyph: SDFGlyph
        var scale: Double
        var color: RGBA?
        var image: SpriteImage?
        /// An image's display width in pixels at 24 px (a vertical line grows to hold it).
        var imageWidth = 0.0
        /// An image's display height in pixels at 24 px (the line grows to hold it).
        var imageHeight = 0.0
    }

    /// Whether `codePoint` stands upright here (MapLibre's `vertical` of a positioned glyph).
    private func isUpright(_ codePoint: UInt32) -> Bool {
        guard vertical else { return false }
        if verticalPlacement { return !Self.whitespace.contains(codePoint) && !VerticalText.isComplexShaping(codePoint) }
        return VerticalText.hasUprightOrientation(codePoint)
    }

    /// The shaping of `shapeLines` in MapLibre's `shaping.ts`: each line as
    /// tall as its largest section (`lineHeight` times its scale), smaller
    /// glyphs and images moved down to share the largest's baseline, a line
    /// pushed down by an image taller than it. `scaleAt` is the section's own
    /// scale (an image's before the text size is factored in); `itemAt` gives
    /// the item of the character at an index drawn as a code point (its
    /// mirror where bidi reordering mirrors it). Lines are broken on the
    /// logical text, then each is put in visual order (MapLibre's
    /// `processBidirectionalText`), breaking at paragraph separators too.
    private func shape(_ text: [UInt32], itemAt: (Int, UInt32) -> Item?, scaleAt: (Int) -> Double) -> ShapedText? {
        // As MapLibre, a line may break after any image.
        let items = text.indices.map { itemAt($0, text[$0]) }
        var lines = breakRanges(text, advance: { i in items[i].map { Double($0.image != nil ? $0.glyph.width : $0.glyph.advance) * $0.scale + spacing } ?? 0 },
                                breaksAfter: { items[$0]?.image != nil })
        let bidi = BidiReorderer.needsReordering(text) ? BidiReorderer(text) : nil
        if let bidi { lines = Self.split(lines, at: bidi.paragraphEnds) }
        var glyphs: [ShapedText.Glyph] = []
        var y = Self.defaultOffset
        var maxLineLength = 0.0, maxLineHeight = 0.0
        let justification = justify.fraction
        for range in lines {
            var line = bidi?.visualOrder(range)[...] ?? Array(range)[...]
            // MapLibre trims white space from both ends of each line.
            while let first = line.first, Self.whitespace.contains(text[first]) { line = line.dropFirst() }
            while let last = line.last, Self.whitespace.contains(text[last]) { line = line.dropLast() }
            guard !line.isEmpty else {
                y += lineHeight
                continue
            }
            let lineMaxScale = line.map(scaleAt).max() ?? 1
            // The line's code points as displayed (mirrored where bidi mirrors them) and their items.
            let displayed = line.map { i in
                let codePoint = bidi?.displayed(text[i], at: i) ?? text[i]
                return (codePoint: codePoint, item: codePoint == text[i] ? items[i] : itemAt(i, codePoint))
            }
            // MapLibre's `calculateLineContentSize`: the largest glyph or image.
            let contentHeight = max(lineMaxScale * Self.oneEm, displayed.map { $0.item?.imageHeight ?? 0 }.max() ?? 0)
            let contentWidth = max(lineMaxScale * Self.oneEm, displayed.map { $0.item?.imageWidth ?? 0 }.max() ?? 0)
            var imageOffset = 0.0
            var x = 0.0
            let lineStart = glyphs.count
            for (codePoint, item) in displayed {
                guard let item else { continue }
                let upright = isUpright(codePoint)
                // Upright in vertical text, a glyph sits on the line's width and advances one em
                // (an image its height); otherwise on the line's height by its own advance.
                let height = item.image != nil ? Double(upright ? item.glyph.width : item.glyph.height) * item.scale : item.scale * Self.oneEm
                if item.image != nil { imageOffset = max(imageOffset, height - Self.oneEm * lineMaxScale) }
                let baseline = upright ? contentWidth - (item.image != nil ? Double(item.glyph.height) * item.scale : item.scale * Self.oneEm)
                                       : contentHeight - height
                glyphs.append(.init(glyph: item.glyph, x: x, y: y + baseline, scale: item.scale, color: item.color, image: item.image,
                                    upright: upright))
                let advance = upright && item.image == nil ? Self.oneEm : Double(item.glyph.advance)
                x += advance * item.scale + spacing
            }
            if glyphs.count > lineStart {
                maxLineLength = max(maxLineLength, x - spacing)
                let last = glyphs[glyphs.count - 1]
                let indent = (last.x + Double(last.glyph.advance) * last.scale) * justification
                // MapLibre's `lineOffset`: what centres a vertical line's scaled glyphs and images.
                let lineOffset = max(imageOffset, (lineMaxScale - 1) * Self.oneEm)
                for i in lineStart..<glyphs.count {
                    glyphs[i].x -= indent
                    glyphs[i].lineOffset = lineOffset
                }
            }
            let currentLineHeight = lineHeight * lineMaxScale + imageOffset
            y += currentLineHeight
            maxLineHeight = max(maxLineHeight, currentLineHeight)
        }
        guard !glyphs.isEmpty else { return nil }
        let height = y - Self.defaultOffset
        let horizontal = anchor.horizontalAlign, vertical = anchor.verticalAlign
        // MapLibre's `align`: lines of one height are placed by the line count, others by the block's height.
        let shiftX = (justification - horizontal) * maxLineLength + translate.x
        let shiftY = (maxLineHeight != lineHeight ? -height * vertical - Self.defaultOffset
                                                  : (-vertical * Double(lines.count) + 0.5) * lineHeight) + translate.y
        for i in glyphs.indices {
            glyphs[i].x += shiftX
            glyphs[i].y += shiftY
        }
        let top = translate.y - vertical * height, left = translate.x - horizontal * maxLineLength
        return ShapedText(glyphs: glyphs, left: left, top: top, right: left + maxLineLength, bottom: top + height, lineCount: lines.count)
    }

    /// `lines` broken also at each of `ends` (sorted), as the plugin merges paragraph ends into the line breaks.
    private static func split(_ lines: [Range<Int>], at ends: [Int]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var e = 0
        for line in lines {
            var start = line.lowerBound
            while e < ends.count, ends[e] <= start { e += 1 }
            while e < ends.count, ends[e] < line.upperBound {
                result.append(start..<ends[e])
                start = ends[e]
                e += 1
            }
            result.append(start..<line.upperBound)
        }
        return result
    }

    /// The advance a code point adds to a line: its glyph's and the letter spacing; 0 without a glyph.
    private func advance(_ codePoint: UInt32) -> Double {
        guard let glyph = glyph(codePoint) else { return 0 }
        return Double(glyph.advance) + spacing
    }

    private struct Break {
        var index: Int
        var x: Double
        var prior: Int?
        var badness: Double
    }

    /// `text` split at MapLibre's least bad line breaks (`determineLineBreaks`).
    func breakLines(_ text: [UInt32]) -> [ArraySlice<UInt32>] {
        breakRanges(text) { advance(text[$0]) }.map { text[$0] }
    }

    /// The ranges of `text`'s lines at MapLibre's least bad line breaks, each
    /// code point `advance(index)` wide, a break allowed after those `breaksAfter` takes.
    private func breakRanges(_ text: [UInt32], advance: (Int) -> Double, breaksAfter: (Int) -> Bool = { _ in false }) -> [Range<Int>] {
        guard !text.isEmpty else { return [] }
        let total = text.indices.reduce(0) { $0 + advance($1) }
        let lineCount = max(1.0, (total / maxWidth).rounded(.up))
        let target = total / lineCount
        let hasZeroWidthSpace = text.contains(0x200B)
        var breaks: [Break] = []
        // The least badness of the breaks so far, and the latest newline's break.
        var floor: [Double] = []
        var lastNewline: Int?
        func add(_ next: Break, newline: Bool) {
            breaks.append(next)
            floor.append(min(floor.last ?? .infinity, next.badness))
            if newline { lastNewline = breaks.count - 1 }
        }
        var x = 0.0
        for i in text.indices {
            let codePoint = text[i]
            if !Self.whitespace.contains(codePoint) { x += advance(i) }
            guard i < text.count - 1 else { continue }
            let ideographic = Self.allowsIdeographicBreaking(codePoint)
            if Self.breakable.contains(codePoint) || ideographic || breaksAfter(i)
                || (i != text.count - 2 && Self.breakableBefore.contains(text[i + 1])) {
                let penalty = Self.penalty(codePoint, next: text[i + 1], ideographicBreak: ideographic && hasZeroWidthSpace)
                add(evaluate(index: i + 1, x: x, target: target, breaks: breaks, penalty: penalty, isLast: false,
                             floor: floor, lastNewline: lastNewline), newline: codePoint == 0x0A)
            }
        }
        let last = evaluate(index: text.count, x: x, target: target, breaks: breaks, penalty: 0, isLast: true,
                            floor: floor, lastNewline: lastNewline)
        var indices: [Int] = [last.index]
        var prior = last.prior
        while let p = prior {
            indices.append(breaks[p].index)
            prior = breaks[p].prior
        }
        var lines: [Range<Int>] = []
        var start = 0
        for end in indices.reversed() {
            lines.append(start..<end)
            start = end
        }
        if start < text.count { lines.append(start..<text.count) }
        return lines
    }

    /// The least bad prior for a break at `index` (`x` along): MapLibre's
    /// `evaluateBreak`, which weighs every earlier break (the latest of equals
    /// wins; the text's start only when strictly better). Searched from the
    /// latest back, and stopped once the line alone is too long to beat the
    /// best (a longer line is worse still, and no prior's badness is below
    /// `floor`, the least of them), so a long label costs about its breaks
    /// times a line's, not their square. Nothing is weighed across a newline
    /// (`lastNewline`, the latest newline's break): its -10⁸ makes the line break there.
    private func evaluate(index: Int, x: Double, target: Double, breaks: [Break], penalty: Double, isLast: Bool,
                          floor: [Double], lastNewline: Int?) -> Break {
        var best: Int?
        var bestBadness = Double.infinity
        var i = breaks.count - 1
        while i >= (lastNewline ?? 0) {
            let width = x - breaks[i].x
            let line = Self.badness(width, target: target, penalty: penalty, isLast: isLast)
            if width > target, line + floor[i] >= bestBadness { break }
            if line + breaks[i].badness < bestBadness {
                best = i
                bestBadness = line + breaks[i].badness
            }
            i -= 1
        }
        if lastNewline == nil {
            let fromStart = Self.badness(x, target: target, penalty: penalty, isLast: isLast)
            if fromStart < bestBadness {
                best = nil
                bestBadness = fromStart
            }
        }
        return Break(index: index, x: x, prior: best, badness: bestBadness)
    }

    private static func badness(_ width: Double, target: Double, penalty: Double, isLast: Bool) -> Double {
        let raggedness = (width - target) * (width - target)
        if isLast {
            // A last line shorter than the average is preferred to a longer one.
            return width < target ? raggedness / 2 : raggedness * 2
        }
        return raggedness + abs(penalty) * penalty
    }

    private static func penalty(_ codePoint: UInt32, next: UInt32, ideographicBreak: Bool) -> Double {
        var penalty = 0.0
        if codePoint == 0x0A { penalty -= 10000 }  // a newline forces a break
        if ideographicBreak { penalty += 150 }
        if codePoint == 0x28 || codePoint == 0xFF08 { penalty += 50 }  // an opening parenthesis ending a line
        if next == 0x29 || next == 0xFF09 { penalty += 50 }  // a closing one starting the next
        return penalty
    }

    /// Whether a line may break after `codePoint` with no space (CJK scripts, as MapLibre's `charAllowsIdeographicBreaking`).
    static func allowsIdeographicBreaking(_ codePoint: UInt32) -> Bool {
        guard codePoint >= 0x2E80 else { return false }
        switch codePoint {
        case 0x2E80...0x2FDF, 0x2FF0...0x303F, 0x3040...0x31FF, 0x3200...0x4DBF, 0x4E00...0xA4CF,
             0xF900...0xFAFF, 0xFE10...0xFE1F, 0xFE30...0xFE4F, 0xFF00...0xFFEF:
            return true
        default:
            return false
        }
    }

    /// Whether letter spacing applies: MapLibre leaves connected scripts (Arabic) unspaced.
    static func allowsLetterSpacing(_ text: [UInt32]) -> Bool {
        !text.contains { (0x0600...0x06FF).contains($0) || (0x0750...0x077F).contains($0) || (0x08A0...0x08FF).contains($0)
            || (0xFB50...0xFDFF).contains($0) || (0xFE70...0xFEFF).contains($0) }
    }

    /// MapLibre's offset for `text-offset` (in pixels at 24 px) with variable
    /// anchors: its sizes, pointed away from `anchor`, less the baseline offset vertically.
    static func variableOffset(x: Double, y: Double, anchor: StyleTextAnchor) -> (x: Double, y: Double) {
        let ox = abs(x), oy = abs(y)
        var dx = 0.0, dy = 0.0
        switch anchor {
        case .topRight, .topLeft, .top: dy = oy - baselineOffset
        case .bottomRight, .bottomLeft, .bottom: dy = -oy + baselineOffset
        default: break
        }
        switch anchor {
        case .topRight, .bottomRight, .right: dx = -ox
        case .topLeft, .bottomLeft, .left: dx = ox
        default: break
        }
        return (dx, dy)
    }

    /// MapLibre's offset for `text-radial-offset` (in pixels at 24 px) at `anchor`.
    static func radialOffset(_ radius: Double, anchor: StyleTextAnchor) -> (x: Double, y: Double) {
        let r = max(0, radius)
        let h = r / 2.0.squareRoot()
        var x = 0.0, y = 0.0
        switch anchor {
        case .topRight, .topLeft: y = h - baselineOffset
        case .bottomRight, .bottomLeft: y = -h + baselineOffset
        case .bottom: y = -r + baselineOffset
        case .top: y = r - baselineOffset
        default: break
        }
        switch anchor {
        case .topRight, .bottomRight: x = -h
        case .topLeft, .bottomLeft: x = h
        case .left: x = r
        case .right: x = -r
        default: break
        }
        return (x, y)
    }
}
