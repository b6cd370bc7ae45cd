import Foundation

extension Canvas {
    /// Draws `line` with the left end of its baseline at `origin`, in `color`,
    /// over a `halo` of `haloWidth` pixels around every glyph when given (so a
    /// label reads over any background). Glyphs are rasterised through the
    /// canvas's own anti-aliased fill (and stroke, for the halo) once per size
    /// and quarter-pixel position, then cached in the font.
    ///
    /// The baseline is rounded to a whole pixel row; pen positions to quarter pixels.
    /// Throws for a non-finite origin, size or halo width.
    public mutating func draw(_ line: TextLine, at origin: Point, color: RGBA, halo: RGBA? = nil, haloWidth: Double = 0) throws {
        guard origin.isFinite, line.size.isFinite, line.size > 0, line.size <= 4096, haloWidth.isFinite, haloWidth >= 0, haloWidth <= 64 else {
            throw RasterError.invalidArgument("text at (\(origin.x), \(origin.y)), size \(line.size), halo \(haloWidth): each must be finite (size 0…4096, halo 0…64)")
        }
        guard !line.glyphs.isEmpty, abs(origin.x) < 1e9, abs(origin.y) < 1e9 else { return }
        let baseline = Int(origin.y.rounded())
        let size64 = Int32((line.size * 64).rounded()), halo64 = Int32((haloWidth * 64).rounded())
        // Each glyph's pen pixel and quarter-pixel phase.
        var pens: [(x: Int, phase: UInt8)] = []
        pens.reserveCapacity(line.glyphs.count)
        for placed in line.glyphs {
            let x = (origin.x + placed.x) * 4
            let quarter = Int(x.rounded(.down))
            pens.append((quarter >> 2, UInt8(quarter & 3)))
        }
        let font = line.font
        let keys = zip(line.glyphs, pens).map { GlyphMaskKey(glyph: Int32($0.glyph), size64: size64, halo64: 0, phase: $1.phase) }
        let glyphMasks = try font.masks.masks(for: keys) { try font.rasterize($0) }
        if let halo, halo64 > 0 {
            let haloKeys = keys.map { GlyphMaskKey(glyph: $0.glyph, size64: $0.size64, halo64: halo64, phase: $0.phase) }
            let haloMasks = try font.masks.masks(for: haloKeys) { try font.rasterize($0) }
            composite(haloMasks, pens: pens, baseline: baseline, color: halo)
        }
        composite(glyphMasks, pens: pens, baseline: baseline, color: color)
    }

    /// Draws `text` on one line in `font` at `size` pixels per em (see `draw(_:at:color:halo:haloWidth:)`).
    public mutating func draw(text: String, font: TrueTypeFont, size: Double, at origin: Point, color: RGBA,
                              halo: RGBA? = nil, haloWidth: Double = 0) throws {
        try draw(TextLine(text, font: font, size: size), at: origin, color: color, halo: halo, haloWidth: haloWidth)
    }

    /// Draws a wrapped paragraph with the first line's baseline starting at `origin`.
    public mutating func draw(_ paragraph: TextParagraph, at origin: Point, color: RGBA, halo: RGBA? = nil, haloWidth: Double = 0) throws {
        for (i, line) in paragraph.lines.enumerated() {
            try draw(line, at: Point(origin.x, origin.y + Double(i) * paragraph.lineHeight), color: color, halo: halo, haloWidth: haloWidth)
        }
    }

    /// Unions the masks (maximum coverage, so overlapping glyphs or halos are
    /// not blended twice) over their joint bounds clipped to the canvas, then
    /// blends `color` through the union once.
    private mutating func composite(_ masks: [GlyphMask], pens: [(x: Int, phase: UInt8)], baseline: Int, color: RGBA) {
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        for (mask, pen) in zip(masks, pens) where mask.width > 0 {
            x0 = min(x0, pen.x + mask.left); x1 = max(x1, pen.x + mask.left + mask.width)
            y0 = min(y0, baseline + mask.top); y1 = max(y1, baseline + mask.top + mask.height)
        }
        x0 = max(x0, 0); y0 = max(y0, rows.lowerBound); x1 = min(x1, width); y1 = min(y1, rows.upperBound)
        guard x1 > x0, y1 > y0, color.a > 0 else { return }
        let unionWidth = x1 - x0, unionHeight = y1 - y0
        var union = [UInt8](repeating: 0, count: unionWidth * unionHeight)
        union.withUnsafeMutableBufferPointer { u in
            for (mask, pen) in zip(masks, pens) where mask.width > 0 {
                let left = pen.x + mask.left, top = baseline + mask.top
                let cx0 = max(left, x0), cx1 = min(left + mask.width, x1), cy0 = max(top, y0), cy1 = min(top + mask.height, y1)
                guard cx1 > cx0, cy1 > cy0 else { continue }
                mask.coverage.withUnsafeBufferPointer { m in
                    for y in cy0..<cy1 {
                        let source = (y - top) * mask.width - left, target = (y - y0) * unionWidth - x0
                        for x in cx0..<cx1 {
                            let c = m[source + x]
                            if c > u[target + x] { u[target + x] = c }
                        }
                    }
                }
            }
        }
        blend(coverage: union, x: x0, y: y0, width: unionWidth, height: unionHeight, color: color)
    }

    /// Source-over of `color` scaled by per-pixel `coverage` onto the rectangle at (x, y), already clipped
    /// (`composite(coverage:width:height:x:y:color:)` clips for callers outside).
    mutating func blend(coverage: [UInt8], x: Int, y: Int, width w: Int, height h: Int, color: RGBA) {
        let sa = UInt32(color.a)
        let source = SIMD4<UInt32>(UInt32(Premultiplication.mul255(UInt32(color.r), sa)), UInt32(Premultiplication.mul255(UInt32(color.g), sa)),
                                   UInt32(Premultiplication.mul255(UInt32(color.b), sa)), sa)
        let canvasWidth = width
        coverage.withUnsafeBufferPointer { c in
            pixels.withUnsafeMutableBytes { bytes in
                let words = bytes.baseAddress!.assumingMemoryBound(to: UInt32.self)
                for row in 0..<h {
                    let line = words + (y + row - rows.lowerBound) * canvasWidth + x
                    for column in 0..<w where c[row * w + column] != 0 {
                        Canvas.blend(source, coverage: UInt32(c[row * w + column]), into: line + column, count: 1)
                    }
                }
            }
        }
    }
}

extension TrueTypeFont {
    /// Rasterises one glyph (or its halo: fill plus a round-joined stroke of
    /// twice the halo width) through `Canvas`, as coverage.
    func rasterize(_ key: GlyphMaskKey) throws -> GlyphMask {
        let size = Double(key.size64) / 64, halo = Double(key.halo64) / 64
        let phase = Double(key.phase) / 4
        let outline = try self.outline(ofGlyph: Int(key.glyph))
        let s = size / Double(unitsPerEm)
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for contour in outline {
            for p in contour {
                minX = min(minX, phase + p.x * s); maxX = max(maxX, phase + p.x * s)
                minY = min(minY, -p.y * s); maxY = max(maxY, -p.y * s)
            }
        }
        guard minX <= maxX else { return GlyphMask(left: 0, top: 0, width: 0, height: 0, coverage: []) }
        let left = Int((minX - halo).rounded(.down)) - 1, top = Int((minY - halo).rounded(.down)) - 1
        let width = Int((maxX + halo).rounded(.up)) + 1 - left, height = Int((maxY + halo).rounded(.up)) + 1 - top
        guard width * height <= 1 << 22 else { throw RasterError.invalidArgument("glyph \(key.glyph) at \(size) px is too large to rasterise") }
        var path = Path()
        for contour in outline {
            let points = contour.map { Point(phase - Double(left) + $0.x * s, -Double(top) - $0.y * s) }
            Self.appendQuadraticContour(points, onCurve: contour.map(\.onCurve), to: &path)
        }
        var canvas = try Canvas(width: width, height: height)
        try canvas.fill(path, color: .white)
        if halo > 0 { try canvas.stroke(path, color: .white, style: StrokeStyle(width: 2 * halo, join: .round, cap: .round)) }
        var coverage = [UInt8](repeating: 0, count: width * height)
        for i in coverage.indices { coverage[i] = canvas.pixels[4 * i + 3] }
        return GlyphMask(left: left, top: top, width: width, height: height, coverage: coverage)
    }
}
