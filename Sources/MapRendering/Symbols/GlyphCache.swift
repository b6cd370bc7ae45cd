import Foundation

/// The glyph ranges of a style, loaded on demand from a ``GlyphProviding``
/// per 256-code-point range and kept up to ``maximumRanges`` ranges (the
/// least recently used dropped first), shared by every snapshot and thread.
///
/// A font stack is asked for as MapLibre asks (its names joined by commas);
/// when the source has no file for the joined stack, each font of the stack
/// is asked for in turn, and a glyph comes from the first font holding it.
/// A range that fails to load is remembered as missing and its error kept
/// once in ``errors``; its glyphs are left out of labels.
public final class GlyphCache: @unchecked Sendable {
    // @unchecked Sendable: every mutable member is read and written under `lock`.
    /// Where ranges come from.
    public let provider: any GlyphProviding
    /// Bounds on each range file.
    public let limits: GlyphRangeLimits
    /// The most ranges kept at once.
    public let maximumRanges: Int

    private struct Key: Hashable {
        var fontStack: String
        var start: UInt32
    }

    private let lock = NSLock()
    /// Loaded ranges; nil for one the source lacks or that failed.
    private var ranges: [Key: GlyphRange?] = [:]
    private var order: [Key] = []
    private var failures: [String] = []

    /// A cache over `provider`.
    public init(provider: any GlyphProviding, limits: GlyphRangeLimits = .default, maximumRanges: Int = 256) {
        self.provider = provider
        self.limits = limits
        self.maximumRanges = max(1, maximumRanges)
    }

    /// The errors of ranges that failed to load, each once, oldest first.
    public var errors: [String] {
        lock.withLock { failures }
    }

    /// The glyph of `codePoint` from `fontStack` (see the type's fallback
    /// rule); nil when no font of the stack has it.
    public func glyph(_ codePoint: UInt32, fontStack: [String]) -> SDFGlyph? {
        let start = GlyphRange.start(of: codePoint)
        let joined = fontStack.joined(separator: ",")
        return lock.withLock {
            if let range = range(Key(fontStack: joined, start: start)) { return range.glyphs[codePoint] }
            guard fontStack.count > 1 else { return nil }
            for font in fontStack {
                if let glyph = range(Key(fontStack: font, start: start))?.glyphs[codePoint] { return glyph }
            }
            return nil
        }
    }

    /// The range of `key`, loaded when first asked for. Called under `lock`.
    private func range(_ key: Key) -> GlyphRange? {
        if let cached = ranges[key] {
            if let index = order.lastIndex(of: key), index != order.count - 1 {
                order.remove(at: index)
                order.append(key)
            }
            return cached
        }
        let name = GlyphRange.name(start: key.start)
        let file = "\(key.fontStack)/\(name).pbf"
        var loaded: GlyphRange?
        do {
            if let data = try provider.glyphRange(fontStack: key.fontStack, range: name, limits: limits) {
                loaded = try GlyphRange(data: data, start: key.start, file: file, limits: limits)
            }
        } catch {
            let message = (error as? GlyphRangeError)?.message ?? "\(file): \(error)"
            if !failures.contains(message), failures.count < 64 { failures.append(message) }
        }
        if order.count >= maximumRanges {
            ranges[order.removeFirst()] = nil
        }
        ranges[key] = .some(loaded)
        order.append(key)
        return loaded
    }
}
