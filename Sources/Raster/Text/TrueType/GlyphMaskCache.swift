import Synchronization

/// A glyph rasterised at one size and sub-pixel position: coverage 0–255 per
/// pixel, placed relative to the pixel holding the pen position on the baseline.
struct GlyphMask: Sendable {
    /// Columns from the pen's pixel to the mask's left edge (usually ≤ 0 for halos).
    var left: Int
    /// Rows from the baseline's pixel row to the mask's top edge (negative: above).
    var top: Int
    var width: Int
    var height: Int
    /// `width × height` coverage values, row by row.
    var coverage: [UInt8]
}

/// Which mask: a glyph, its size and halo width in 1/64 pixel, and the pen's
/// sub-pixel phase (quarters of a pixel, as FreeType-based renderers quantise too).
struct GlyphMaskKey: Hashable, Sendable {
    var glyph: Int32
    var size64: Int32
    var halo64: Int32
    var phase: UInt8
}

/// Rasterised glyph masks, shared by every copy of a `TrueTypeFont` and every
/// thread: a label drawn again costs lookups and blends, not outline work.
/// Bounded: past `capacity` masks the cache starts over (labels reuse few glyphs
/// at few sizes, so this is rare and cheap to refill).
final class GlyphMaskCache: Sendable {
    private let masks = Mutex<[GlyphMaskKey: GlyphMask]>([:])
    static let capacity = 8192

    /// The masks for `keys`, rasterising (outside the lock) those not cached yet.
    func masks(for keys: [GlyphMaskKey], rasterize: (GlyphMaskKey) throws -> GlyphMask) rethrows -> [GlyphMask] {
        var found: [GlyphMask?] = masks.withLock { cache in keys.map { cache[$0] } }
        var made: [(GlyphMaskKey, GlyphMask)] = []
        for i in found.indices where found[i] == nil {
            let mask = try rasterize(keys[i])
            found[i] = mask
            made.append((keys[i], mask))
        }
        if !made.isEmpty {
            masks.withLock { cache in
                if cache.count + made.count > Self.capacity { cache.removeAll(keepingCapacity: true) }
                for (key, mask) in made { cache[key] = mask }
            }
        }
        return found.map { $0! }
    }
}
