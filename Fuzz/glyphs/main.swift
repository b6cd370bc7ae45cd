import Foundation
import Raster
@testable import MapRendering

// libFuzzer entry for glyph range files (`{fontstack}/{range}.pbf`): the input
// is decoded as the range 0-255 under small limits; only GlyphRangeError may be
// thrown, and every glyph kept must lie in the range with a bitmap of
// (width + 6) · (height + 6) bytes or none. A range that reads is shaped
// (a wrapped point label with letter spacing) and drawn as signed-distance
// text, fill and halo, at two sizes and rotated.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGlyphs(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let range: GlyphRange
    do {
        range = try GlyphRange(data: data, start: 0, limits: GlyphRangeLimits(maximumBytes: 1 << 20, maximumGlyphs: 512, maximumGlyphSide: 128))
    } catch is GlyphRangeError {
        return 0
    } catch {
        fatalError("GlyphRange threw \(error), not a GlyphRangeError")
    }
    for (id, glyph) in range.glyphs {
        precondition(id < 256 && glyph.id == id, "glyph \(id) outside its range")
        precondition(glyph.bitmap.isEmpty || glyph.bitmap.count == (glyph.width + 6) * (glyph.height + 6), "glyph \(id)'s bitmap size")
    }
    let shaper = TextShaper(glyph: { range.glyphs[$0] }, maxWidth: 5 * 24, lineHeight: 1.2 * 24, spacing: 1.2,
                            anchor: .topLeft, justify: .center, translate: (12, -6))
    guard let shaped = shaper.shape(Array("Saint Petersburg (on the Neva)\nAg".unicodeScalars.map(\.value))) else { return 0 }
    guard var canvas = try? Canvas(width: 96, height: 64) else { return 0 }
    for (fontScale, angle) in [(0.5, 0.0), (2.0, 0.7)] {
        let paint = SDFTextDrawer.Paint(fontScale: fontScale, pixelRatio: 1.5, color: .black, halo: .white, haloWidth: 2, haloBlur: 1)
        for halo in [true, false] {
            try? SDFTextDrawer.draw(shaped, at: Point(20, 20), angle: angle, paint: paint, halo: halo, on: &canvas)
        }
    }
    return 0
}
