import Foundation

/// A style's glyph ranges through its resources (``StyleResourceLoading``),
/// `template` its `glyphs`: how ``StyleDocumentRenderer`` and ``StyleResources`` read glyphs.
/// A font stack that could leave the template's folder (a `/`, `..`) has no glyphs.
struct ResourceGlyphProvider: GlyphProviding {
    let resources: any StyleResourceLoading
    let template: String

    func glyphRange(fontStack: String, range: String, limits: GlyphRangeLimits) throws -> Data? {
        guard !fontStack.isEmpty, !fontStack.contains("/"), !fontStack.contains(".."), !fontStack.contains("\0") else { return nil }
        let url = template.replacingOccurrences(of: "{fontstack}", with: fontStack).replacingOccurrences(of: "{range}", with: range)
        do {
            return try resources.file(url, maximumBytes: limits.maximumBytes)
        } catch let error as StyleDocumentError {
            throw GlyphRangeError("glyphs \(error.message)")
        }
    }
}
