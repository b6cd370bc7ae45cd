import Foundation
import MapRendering

/// A style's glyph ranges from the suite's files (its `glyphs` template as a
/// path under `integration/`), read through a ``SuiteFileLoader`` so a test's
/// copied resources include them. A range with no file is missing, as a
/// server's 404 is to MapLibre.
struct SuiteGlyphs: GlyphProviding {
    let loader: SuiteFileLoader
    /// The template's path under `integration/`, with `{fontstack}` and `{range}`.
    let template: String

    func glyphRange(fontStack: String, range: String, limits: GlyphRangeLimits) throws -> Data? {
        guard !fontStack.contains("/"), !fontStack.contains(".."), !fontStack.isEmpty else { return nil }
        let path = template.replacingOccurrences(of: "{fontstack}", with: fontStack).replacingOccurrences(of: "{range}", with: range)
        let url = loader.integration.appendingPathComponent(path)
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int else { return nil }
        guard size <= limits.maximumBytes else {
            throw GlyphRangeError("\(path): \(size) bytes, over the limit of \(limits.maximumBytes) (GlyphRangeLimits.maximumBytes)")
        }
        return try loader.file(path)
    }
}
