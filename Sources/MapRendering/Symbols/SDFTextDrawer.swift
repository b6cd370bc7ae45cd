import Foundation
import Raster

/// Draws shaped text from signed-distance glyphs as MapLibre's `symbol_sdf`
/// fragment shader does: each glyph's field scaled from the 24-pixel glyph
/// size to the text size and pixel ratio, sampled bilinearly (a GPU's linear
/// filtering), and turned into coverage by `smoothstep` about the outline
/// (192/256) with the shader's gamma (`0.105 / pixelRatio / fontScale`); the
/// halo between `(6 − haloWidth / fontScale) / 8` and the outline, blurred by
/// `haloBlur · 1.19 / 8`.
struct SDFTextDrawer {
    /// How one label's text is painted.
    struct Paint {
        /// `text-size / 24`.
        var fontScale: Double
        /// Output pixels per CSS pixel.
        var pixelRatio: Double
        /// The fill colour with `text-opacity` applied.
        var color: RGBA
        /// The halo colour with `text-opacity` applied; nil for none.
        var halo: RGBA?
        /// `text-halo-width` in CSS pixels.
        var haloWidth: Double
        /// `text-halo-blur` in CSS pixels.
        var haloBlur: Double
        /// `text-opacity`, for images in the text (the colours hold it already).
        var opacity: Double = 1
        /// The pitched camera when the text lies on the map (`text-pitch-alignment:
        /// map`): the anchor is then a point of the map plane, the quads lie on
        /// the plane, and each pixel is taken back to it (``SymbolPitch``); nil
        /// for text facing the image.
        var onMap: PitchProjection?
    }

    /// MapLibre's `SDF_PX`: distance units per glyph pixel.
    static let sdfPixel = 8.0
    /// The outline's distance value (MapLibre's `inner_edge`, 192/256).
    static let outline = 192.0 / 256.0

    /// Paints `text`'s fill (`halo == false`) or halo anchored at `anchor`
    /// (output pixels), rotated clockwise by `angle` radians about it.
    static func draw(_ text: ShapedText, at anchor: Point, angle: Double, paint: Paint, halo: Bool, on canvas: inout Canvas) throws {
        let color: RGBA
        let edgeGamma = 0.105 / paint.pixelRatio
        // The edge's width before the pitch's gamma scale (see `gammaScale`).
        var gamma = edgeGamma / paint.fontScale
        var edge = outline
        if halo {
            guard let haloColor = paint.halo else { return }
            color = haloColor
            gamma = (paint.haloBlur * 1.19 / sdfPixel + edgeGamma) / paint.fontScale
            edge = (6 - paint.haloWidth / paint.fontScale) / sdfPixel
        } else {
            color = paint.color
        }
        // A `format` section may colour its glyphs alone: the text is drawn when any of it shows.
        guard color.a > 0 || !halo && text.glyphs.contains(where: { ($0.color?.a ?? 0) > 0 }) else { return }
        let scale = paint.fontScale * paint.pixelRatio
        let (cLabel, sLabel) = (cos(angle), sin(angle))
        let frame = SymbolPitch.QuadFrame(anchor: anchor, onMap: paint.onMap)
        for placed in text.glyphs {
            // A sideways glyph of a vertical label is turned a quarter further (cos, sin of angle + π/2).
            let (c, s) = placed.sideways ? (-sLabel, cLabel) : (cLabel, sLabel)
            if let image = placed.image {
                // As MapLibre's text-and-icon shader: an image drawn by the halo pass too.
                if !halo || paint.halo != nil { drawImage(image, placed, frame: frame, c: c, s: s, scale: scale, opacity: paint.opacity, on: &canvas) }
                continue
            }
            let glyph = placed.glyph
            let bw = glyph.bitmapWidth, bh = glyph.bitmapHeight
            let glyphColor = halo ? color : placed.color ?? color
            guard bw > 0, bh > 0, glyphColor.a > 0, placed.scale > 0 else { continue }
            // The bitmap's top-left in glyph pixels about the anchor (MapLibre's quad corner, less its atlas padding),
            // its texels `gs` glyph pixels wide (a `format` section's scale).
            let gs = placed.scale
            let ox = placed.x + Double(glyph.left - SDFGlyph.border) * gs
            let oy = placed.y - Double(glyph.top + SDFGlyph.border) * gs
            let qw = Double(bw) * gs, qh = Double(bh) * gs
            // The rotated quad's bounds in output pixels, one texel wider for the filtering's reach.
            guard let (x0, y0, x1, y1) = pixelBounds(left: ox, top: oy, width: qw, height: qh, margin: gs, frame: frame,
                                                     c: c, s: s, scale: scale, canvasWidth: canvas.width, rows: canvas.rows) else { continue }
            let w = x1 - x0, h = y1 - y0
            var coverage = [UInt8](repeating: 0, count: w * h)
            var any = false
            glyph.bitmap.withUnsafeBufferPointer { field in
                for row in 0..<h {
                    for column in 0..<w {
                        // The pixel centre back in the glyph's unrotated frame, then in texels.
                        guard let (px, py, gammaScale) = frame.local(Double(x0 + column) + 0.5, Double(y0 + row) + 0.5) else { continue }
                        let dx = px / scale, dy = py / scale
                        let u = (c * dx + s * dy - ox) / gs - 0.5, v = (-s * dx + c * dy - oy) / gs - 0.5
                        let d = sample(field, bw, bh, u, v) / 255
                        let g = gamma * gammaScale
                        var alpha = smoothstep(edge - g, edge + g, d)
                        if halo { alpha = min(alpha, 1 - smoothstep(outline, outline + 2 * g, d)) }
                        guard alpha > 0 else { continue }
                        coverage[row * w + column] = UInt8((alpha * 255).rounded())
                        any = true
                    }
                }
            }
            if any { try canvas.composite(coverage: coverage, width: w, height: h, x: x0, y: y0, color: glyphColor) }
        }
    }

    /// The output pixels (columns `x0..<x1` within `0..<canvasWidth`, rows `y0..<y1` within `rows`)
    /// covered by the box `left`, `top`, `width`, `height` (glyph pixels about
    /// the frame's anchor, grown by `margin` on each side), turned by the angle of
    /// cosine `c` and sine `s` and scaled by `scale`; nil when none is.
    private static func pixelBounds(left: Double, top: Double, width: Double, height: Double, margin: Double, frame: SymbolPitch.QuadFrame,
                                    c: Double, s: Double, scale: Double, canvasWidth: Int, rows: Range<Int>) -> (Int, Int, Int, Int)? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        let (l, t, r, b) = (left - margin, top - margin, left + width + margin, top + height + margin)
        for (u, v) in [(l, t), (r, t), (l, b), (r, b)] {
            guard let p = frame.image((c * u - s * v) * scale, (s * u + c * v) * scale) else { return nil }
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        if let onMap = frame.onMap { minY = max(minY, onMap.farRow) }
        let x0 = max(0, Int(minX.rounded(.down))), y0 = max(rows.lowerBound, Int(minY.rounded(.down)))
        let x1 = min(canvasWidth, Int(maxX.rounded(.up))), y1 = min(rows.upperBound, Int(maxY.rounded(.up)))
        return x0 < x1 && y0 < y1 ? (x0, y0, x1, y1) : nil
    }

    /// Paints an image of a `format` section: its display box starting one
    /// scaled pixel right of and three below the pen (MapLibre's image metrics),
    /// sampled bilinearly, at `opacity`.
    private static func drawImage(_ image: SpriteImage, _ placed: ShapedText.Glyph, frame: SymbolPitch.QuadFrame, c: Double, s: Double, scale: Double,
                                  opacity: Double, on canvas: inout Canvas) {
        let gs = placed.scale
        let left = placed.x + Double(placed.glyph.left) * gs, top = placed.y - Double(placed.glyph.top) * gs
        let w = image.displayWidth * gs, h = image.displayHeight * gs
        guard w > 0, h > 0, opacity > 0 else { return }
        guard let (x0, y0, x1, y1) = pixelBounds(left: left, top: top, width: w, height: h, margin: gs, frame: frame,
                                                 c: c, s: s, scale: scale, canvasWidth: canvas.width, rows: canvas.rows) else { return }
        // Image pixels per glyph pixel.
        let texels = image.pixelRatio / gs
        for y in y0..<y1 {
            for x in x0..<x1 {
                guard let (px, py, _) = frame.local(Double(x) + 0.5, Double(y) + 0.5) else { continue }
                let dx = px / scale, dy = py / scale
                let u = (c * dx + s * dy - left) * texels, v = (-s * dx + c * dy - top) * texels
                guard u > -1, v > -1, u < Double(image.width) + 1, v < Double(image.height) + 1 else { continue }
                let sample = image.bilinear(u, v)
                if sample.w > 0 { canvas.blend(premultiplied: sample * Float(opacity), x: x, y: y) }
            }
        }
    }

    /// The field at texel coordinates (u, v) (texel centres at integers),
    /// bilinear, 0 outside the bitmap (the atlas's empty padding).
    static func sample(_ field: UnsafeBufferPointer<UInt8>, _ width: Int, _ height: Int, _ u: Double, _ v: Double) -> Double {
        guard u > -1, v > -1, u < Double(width), v < Double(height) else { return 0 }
        let fu = u.rounded(.down), fv = v.rounded(.down)
        let iu = Int(fu), iv = Int(fv)
        let tu = u - fu, tv = v - fv
        func at(_ x: Int, _ y: Int) -> Double {
            x >= 0 && y >= 0 && x < width && y < height ? Double(field[y * width + x]) : 0
        }
        let top = at(iu, iv) * (1 - tu) + at(iu + 1, iv) * tu
        let bottom = at(iu, iv + 1) * (1 - tu) + at(iu + 1, iv + 1) * tu
        return top * (1 - tv) + bottom * tv
    }

    /// GLSL's `smoothstep`.
    static func smoothstep(_ low: Double, _ high: Double, _ x: Double) -> Double {
        guard high > low else { return x < low ? 0 : 1 }
        let t = min(max((x - low) / (high - low), 0), 1)
        return t * t * (3 - 2 * t)
    }
}
