import Foundation
import Raster

/// Makes MapLibre glyph ranges (`{fontstack}/{start}-{end}.pbf`) from a
/// TrueType font, as fontnik and its sdf-glyph-foundry make them, so a user
/// serves glyphs of their own fonts to styles (`urlscheme glyphs`).
///
/// Each glyph is its outline at MapLibre's 24-pixel size (``GlyphRange/fontSize``),
/// flattened to segments. Its metrics are the ones fontnik writes (and
/// MapLibre's shaping expects): the box grown to whole pixels (floor and
/// ceiling), `top` counted from the font's ascender (rounded up, as FreeType
/// rounds it), the advance truncated. The box is bordered by
/// ``SDFGlyph/border`` pixels; each bitmap byte is the distance from the
/// pixel's centre to the outline, 8 pixels to the 256 values (MapLibre's
/// `SDF_PX`), negative inside (even-odd, as fontnik's ray test), offset so
/// that the outline is 192 (191.x as fontnik truncates) and inverted: 255
/// deep inside, 0 from 6 pixels outside on.
///
/// A font's bytes are as hostile as any file's: a glyph wider or taller than
/// ``GlyphRangeLimits/maximumGlyphSide`` at 24 pixels, with more than
/// ``maximumSegments`` outline segments, or a range whose distances would
/// take more than ``maximumWork`` pixel–segment measurements is refused with
/// a ``GlyphRangeError`` naming the glyph or range, before the work.
public struct GlyphRangeWriter: Sendable {
    /// The font glyphs are made from.
    public let font: TrueTypeFont
    /// The font stack name written into each range (the folder MapLibre asks for, e.g. `Open Sans Semibold`).
    public let fontStackName: String

    /// Distances are counted up to this many pixels from the outline (MapLibre's glyphs' radius).
    private static let radius = 8.0
    /// The share of the 256 values used inside the outline (fontnik's `cutoff`).
    private static let cutoff = 0.25

    /// The bounds glyphs are checked against (their ink side).
    public let limits: GlyphRangeLimits

    /// The most outline segments one glyph may flatten to (real glyphs have tens to a few hundred).
    public static let maximumSegments = 4096
    /// The most pixel–segment distance measurements one range may take
    /// (2²⁸, about half a second in a release build; a Latin range takes about 2²⁴).
    public static let maximumWork = 1 << 28

    /// A writer for `font`, its ranges named `fontStackName`.
    public init(font: TrueTypeFont, fontStackName: String, limits: GlyphRangeLimits = .default) {
        self.font = font
        self.fontStackName = fontStackName
        self.limits = limits
    }

    /// The first code points of the ranges holding at least one of the font's glyphs, ascending.
    public var rangeStarts: [UInt32] {
        Set(font.mappedScalars.map(GlyphRange.start(of:))).sorted()
    }

    /// The glyph of code point `id`, or nil when the font has none. Throws
    /// `TrueTypeError` for damaged outline data, ``GlyphRangeError`` for a
    /// glyph over the limits.
    public func glyph(_ id: UInt32) throws -> SDFGlyph? {
        var work = Self.maximumWork
        return try glyph(id, work: &work)
    }

    /// The glyph of code point `id`, its distance measurements taken from `work`.
    private func glyph(_ id: UInt32, work: inout Int) throws -> SDFGlyph? {
        guard let scalar = Unicode.Scalar(id), let index = font.glyph(for: scalar) else { return nil }
        let scale = GlyphRange.fontSize / Double(font.unitsPerEm)
        let advance = Int(Double(font.advanceWidth(ofGlyph: index)) * scale)  // truncated, as FreeType's 26.6 advance / 64
        let ascender = Int((Double(font.ascender) * scale).rounded(.up))
        // y up, as the font's: row 0 of the bitmap is the top, so rows are read from the top.
        let rings = try font.path(ofGlyph: index, size: GlyphRange.fontSize, origin: Point(0, 0)).flattened(tolerance: 0.02)
            .map { $0.points.map { Point($0.x, -$0.y) } }.filter { $0.count >= 2 }
        let points = rings.joined()
        guard let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(),
              let minY = points.map(\.y).min(), let maxY = points.map(\.y).max() else {
            return SDFGlyph(id: id, width: 0, height: 0, left: 0, top: 0, advance: advance, bitmap: [])
        }
        let left = Int(minX.rounded(.down)), right = Int(maxX.rounded(.up)), bottom = Int(minY.rounded(.down)), top = Int(maxY.rounded(.up))
        guard right > left, top > bottom else {
            return SDFGlyph(id: id, width: 0, height: 0, left: 0, top: 0, advance: advance, bitmap: [])
        }
        let border = SDFGlyph.border
        let width = right - left, height = top - bottom
        let name = "glyph U+" + String(id, radix: 16, uppercase: true)
        guard width <= limits.maximumGlyphSide, height <= limits.maximumGlyphSide else {
            throw GlyphRangeError("\(name) is \(width)×\(height) pixels at \(Int(GlyphRange.fontSize)) pixels to the em, over the limit of \(limits.maximumGlyphSide) (GlyphRangeLimits.maximumGlyphSide)")
        }
        let segmentCount = rings.reduce(0) { $0 + $1.count }
        guard segmentCount <= Self.maximumSegments else {
            throw GlyphRangeError("\(name) has \(segmentCount) outline segments, over the limit of \(Self.maximumSegments) (GlyphRangeWriter.maximumSegments)")
        }
        work -= (width + 2 * border) * (height + 2 * border) * segmentCount
        guard work >= 0 else {
            throw GlyphRangeError("\(name): its range's distance fields would take over \(Self.maximumWork) pixel–segment measurements (GlyphRangeWriter.maximumWork)")
        }
        let columns = width + 2 * border, rows = height + 2 * border
        // Segments in bitmap coordinates: x from the bitmap's left edge, y up from its bottom edge.
        let dx = Double(border - left), dy = Double(border - bottom)
        var segments: [(Point, Point)] = []
        for ring in rings {
            for i in ring.indices {
                let a = ring[i], b = ring[(i + 1) % ring.count]
                if a != b { segments.append((Point(a.x + dx, a.y + dy), Point(b.x + dx, b.y + dy))) }
            }
        }
        var bitmap = [UInt8](repeating: 0, count: columns * rows)
        for y in 0..<rows {
            for x in 0..<columns {
                let p = Point(Double(x) + 0.5, Double(y) + 0.5)
                var distance = Self.distance(from: p, to: segments) * (256 / Self.radius)
                if Self.isInside(p, segments) { distance = -distance }
                let shifted = min(255, max(0, distance + Self.cutoff * 256))
                bitmap[(rows - 1 - y) * columns + x] = 255 - UInt8(shifted)  // truncated, as fontnik's conversion
            }
        }
        return SDFGlyph(id: id, width: width, height: height, left: left, top: top - ascender, advance: advance, bitmap: bitmap)
    }

    /// The glyph range file starting at `start` (a multiple of 256): every
    /// glyph the font has in it, or nil when it has none.
    public func rangeData(start: UInt32) throws -> Data? {
        var work = Self.maximumWork
        let glyphs = try (start..<(start + GlyphRange.size)).compactMap { try glyph($0, work: &work) }
        guard !glyphs.isEmpty else { return nil }
        var stack = ProtobufWriter()
        stack.field(1, bytes: Array(fontStackName.utf8))
        stack.field(2, bytes: Array(GlyphRange.name(start: start).utf8))
        for glyph in glyphs {
            var message = ProtobufWriter()
            message.field(1, varint: UInt64(glyph.id))
            if !glyph.bitmap.isEmpty { message.field(2, bytes: glyph.bitmap) }
            message.field(3, varint: UInt64(glyph.width))
            message.field(4, varint: UInt64(glyph.height))
            message.field(5, sint32: Int32(glyph.left))
            message.field(6, sint32: Int32(glyph.top))
            message.field(7, varint: UInt64(glyph.advance))
            stack.field(3, bytes: message.bytes)
        }
        var file = ProtobufWriter()
        file.field(1, bytes: stack.bytes)
        return Data(file.bytes)
    }

    /// The distance from `p` to the nearest of `segments`, at most ``radius``.
    private static func distance(from p: Point, to segments: [(Point, Point)]) -> Double {
        var best = radius * radius
        for (a, b) in segments {
            // Segments whose box is farther than the best so far cannot be nearer.
            let gapX = max(min(a.x, b.x) - p.x, p.x - max(a.x, b.x), 0), gapY = max(min(a.y, b.y) - p.y, p.y - max(a.y, b.y), 0)
            guard gapX * gapX + gapY * gapY < best else { continue }
            let ex = b.x - a.x, ey = b.y - a.y
            let t = max(0, min(1, ((p.x - a.x) * ex + (p.y - a.y) * ey) / (ex * ex + ey * ey)))
            let qx = a.x + t * ex - p.x, qy = a.y + t * ey - p.y
            best = min(best, qx * qx + qy * qy)
        }
        return best.squareRoot()
    }

    /// Whether `p` is inside the rings `segments` make, by the even-odd rule (a ray to the right).
    private static func isInside(_ p: Point, _ segments: [(Point, Point)]) -> Bool {
        var inside = false
        for (a, b) in segments where (a.y > p.y) != (b.y > p.y) {
            if p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
        }
        return inside
    }
}
