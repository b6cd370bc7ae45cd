import Foundation

/// Glyph ranges from files: a style's `glyphs` template (`{fontstack}` and
/// `{range}` tokens) naming files in a folder, as a `file://` URL or a path.
///
/// A font stack name with a `/`, a NUL or that is `.` or `..` is refused, so
/// a style cannot reach files outside the folders its template names.
public struct GlyphFolderProvider: GlyphProviding {
    /// The template: a path with `{fontstack}` and `{range}` tokens.
    public let template: String

    /// Glyphs from `template`, a `file://` URL or a path, with `{fontstack}`
    /// and `{range}` tokens (`file:///srv/fonts/{fontstack}/{range}.pbf`).
    /// Throws a ``GlyphRangeError`` for another scheme or a template without `{range}`.
    public init(template: String) throws {
        var path = template
        if path.hasPrefix("file://") {
            path = String(path.dropFirst("file://".count))
            path = path.removingPercentEncoding ?? path
        } else if let colon = path.firstIndex(of: ":"), path[..<colon].allSatisfy({ $0.isLetter }), !path.hasPrefix("/") {
            throw GlyphRangeError("glyphs '\(template)': only file:// URLs and paths are read from files")
        }
        guard path.contains("{range}") else { throw GlyphRangeError("glyphs '\(template)': the template has no {range} token") }
        self.template = path
    }

    /// Glyphs from `folder/{fontstack}/{range}.pbf`.
    public init(folder: URL) {
        template = folder.path + "/{fontstack}/{range}.pbf"
    }

    /// The range file's path; nil for a font stack name that could leave the folder.
    func path(fontStack: String, range: String) -> String? {
        guard !fontStack.isEmpty, fontStack != ".", fontStack != "..", !fontStack.contains("/"), !fontStack.contains("\0") else { return nil }
        return template.replacingOccurrences(of: "{fontstack}", with: fontStack).replacingOccurrences(of: "{range}", with: range)
    }

    /// The file's bytes, nil when there is no such file or the font stack name is refused.
    public func glyphRange(fontStack: String, range: String, limits: GlyphRangeLimits) throws -> Data? {
        guard let path = path(fontStack: fontStack, range: range) else { return nil }
        let url = URL(fileURLWithPath: path)
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        // At most one byte past the limit is read, so an endless or huge file costs nothing.
        let data = try handle.read(upToCount: limits.maximumBytes + 1) ?? Data()
        guard data.count <= limits.maximumBytes else {
            throw GlyphRangeError("\(fontStack)/\(range).pbf: over the limit of \(limits.maximumBytes) bytes (GlyphRangeLimits.maximumBytes)")
        }
        return data
    }
}
