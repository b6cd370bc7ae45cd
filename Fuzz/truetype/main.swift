import Raster

// libFuzzer entry for the TrueType reader and text drawing: every input is read
// as a font; a font that reads has the outline of each of its first glyphs
// taken, and a line of Latin, Cyrillic and missing characters laid out and
// drawn at two sizes, with a halo. Any trap, hang or runaway allocation is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrueType(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard let font = try? TrueTypeFont(bytes: bytes) else { return 0 }
    for glyph in 0..<min(font.glyphCount, 64) { _ = try? font.outline(ofGlyph: glyph) }
    guard var canvas = try? Canvas(width: 96, height: 48) else { return 0 }
    for size in [11.0, 40.0] {
        let line = TextLine("Ag Жé漢", font: font, size: size)
        try? canvas.draw(line, at: Point(4, 36), color: .black, halo: .white, haloWidth: 1.5)
    }
    _ = TextParagraph("Saint Petersburg on the Neva", font: font, size: 12, maximumWidth: 60)
    return 0
}
