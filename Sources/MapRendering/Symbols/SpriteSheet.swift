import Foundation
import ImageCodecs
import Raster

/// One sprite: the images its `.json` index names, cut from its `.png` sheet.
///
///     let sheet = try SpriteSheet(index: json, sheet: png, name: "sprite")
///     let marker = sheet.images["marker"]
///
/// The index is read within ``SpriteLimits`` (bytes, entry count) before
/// the sheet is decoded (pixels); every entry must lie on the sheet.
public struct SpriteSheet: Sendable {
    /// The images by name.
    public var images: [String: SpriteImage]

    /// The sheet `sheet` (PNG bytes) cut as `index` (the `.json` bytes) says;
    /// `name` (the sprite's URL) names the files in errors, `prefix` is put
    /// before each image's name (`id:` for the array form).
    /// - Throws: ``SpriteError`` naming the file, the entry and the limit or value at fault.
    public init(index: Data, sheet: Data, name: String, prefix: String = "", limits: SpriteLimits = .default) throws {
        let entries = try Self.readIndex(index, file: name + ".json", limits: limits)
        let png = name + ".png"
        guard sheet.count <= limits.maximumSheetBytes else {
            throw SpriteError(file: png, "the sheet is \(sheet.count) bytes, over the limit of \(limits.maximumSheetBytes)")
        }
        let bitmap: Bitmap
        do {
            // The header's size is checked before any pixel is inflated.
            let info = try PNGDecoder().readInfo(sheet)
            guard info.width * info.height <= limits.maximumSheetPixels else {
                throw SpriteError(file: png, "the sheet is \(info.width)×\(info.height) pixels, over the limit of \(limits.maximumSheetPixels)")
            }
            bitmap = try PNGDecoder(maximumPixelCount: limits.maximumSheetPixels).decode(sheet)
        } catch let error as SpriteError {
            throw error
        } catch {
            throw SpriteError(file: png, "not a PNG sheet: \(error)")
        }
        var images: [String: SpriteImage] = [:]
        for entry in entries {
            guard entry.x + entry.width <= bitmap.width, entry.y + entry.height <= bitmap.height else {
                throw SpriteError(file: name + ".json", "image '\(entry.name)' (\(entry.x), \(entry.y), \(entry.width)×\(entry.height)) lies outside the \(bitmap.width)×\(bitmap.height) sheet")
            }
            images[prefix + entry.name] = SpriteImage(
                name: prefix + entry.name, x: entry.x, y: entry.y, width: entry.width, height: entry.height,
                pixelRatio: entry.pixelRatio, sdf: entry.sdf, stretchX: entry.stretchX, stretchY: entry.stretchY,
                content: entry.content, textFitWidth: entry.textFitWidth, textFitHeight: entry.textFitHeight, sheet: bitmap)
        }
        self.images = images
    }

    /// One entry of an index, before its sheet is read.
    struct Entry: Equatable {
        var name: String
        var x = 0, y = 0, width = 0, height = 0
        var pixelRatio = 1.0
        var sdf = false
        var stretchX: [ClosedRange<Double>] = [], stretchY: [ClosedRange<Double>] = []
        var content: [Double]?
        var textFitWidth = SpriteImage.TextFit.stretchOrShrink, textFitHeight = SpriteImage.TextFit.stretchOrShrink
    }

    /// The entries of the index `data` (the file `file`), sorted by name.
    /// - Throws: ``SpriteError`` for malformed JSON, an entry of the wrong
    ///   shape, or an index over `limits`.
    static func readIndex(_ data: Data, file: String, limits: SpriteLimits) throws -> [Entry] {
        guard data.count <= limits.maximumIndexBytes else {
            throw SpriteError(file: file, "the index is \(data.count) bytes, over the limit of \(limits.maximumIndexBytes)")
        }
        var styleLimits = StyleLimits.default
        styleLimits.maximumByteCount = limits.maximumIndexBytes
        let json: StyleJSON
        do {
            json = try StyleJSON.decode(data, limits: styleLimits)
        } catch let error as VectorStyleError {
            throw SpriteError(file: file, "not a JSON index: \(error.detail)")
        }
        guard case .object(let members) = json else {
            throw SpriteError(file: file, "the index is a JSON object of images, not \(json.summary)")
        }
        guard members.count <= limits.maximumEntryCount else {
            throw SpriteError(file: file, "the index names \(members.count) images, over the limit of \(limits.maximumEntryCount)")
        }
        return try members.sorted { $0.key < $1.key }.map { name, value in
            try entry(name, value, file: file)
        }
    }

    /// The entry `name` of an index from its JSON `value`.
    private static func entry(_ name: String, _ value: StyleJSON, file: String) throws -> Entry {
        func fail(_ detail: String) -> SpriteError { SpriteError(file: file, "image '\(name)': \(detail)") }
        guard case .object(let members) = value else { throw fail("an image is an object, not \(value.summary)") }
        func integer(_ key: String, minimum: Int) throws -> Int {
            guard case .number(let n)? = members[key] else { throw fail("'\(key)' is a required number") }
            guard n == n.rounded(), n >= Double(minimum), n <= 65_535 else {
                throw fail("'\(key)' is a whole number \(minimum)–65535, not \(StyleNumberFormat.string(n))")
            }
            return Int(n)
        }
        var entry = Entry(name: name)
        entry.x = try integer("x", minimum: 0)
        entry.y = try integer("y", minimum: 0)
        entry.width = try integer("width", minimum: 1)
        entry.height = try integer("height", minimum: 1)
        if let ratio = members["pixelRatio"] {
            guard case .number(let r) = ratio, r > 0, r <= 16 else { throw fail("'pixelRatio' is a number over 0 and at most 16, not \(ratio.summary)") }
            entry.pixelRatio = r
        }
        if let sdf = members["sdf"] {
            guard case .bool(let flag) = sdf else { throw fail("'sdf' is true or false, not \(sdf.summary)") }
            entry.sdf = flag
        }
        func stretches(_ key: String, _ length: Int) throws -> [ClosedRange<Double>] {
            guard let value = members[key] else { return [] }
            guard case .array(let pairs) = value, pairs.count <= 64 else { throw fail("'\(key)' is an array of at most 64 [from, to] pairs") }
            return try pairs.map { pair in
                guard case .array(let ends) = pair, ends.count == 2, case .number(let from) = ends[0], case .number(let to) = ends[1],
                      from >= 0, from <= to, to <= Double(length) else {
                    throw fail("'\(key)' holds [from, to] pairs within the image's \(length) pixels, not \(pair.summary)")
                }
                return from...to
            }
        }
        entry.stretchX = try stretches("stretchX", entry.width)
        entry.stretchY = try stretches("stretchY", entry.height)
        if let content = members["content"] {
            guard case .array(let values) = content, values.count == 4 else { throw fail("'content' is [left, top, right, bottom], not \(content.summary)") }
            let numbers: [Double] = values.compactMap { if case .number(let n) = $0, n.isFinite { return n } else { return nil } }
            guard numbers.count == 4, numbers[0] <= numbers[2], numbers[1] <= numbers[3] else {
                throw fail("'content' is [left, top, right, bottom] with left ≤ right and top ≤ bottom")
            }
            entry.content = numbers
        }
        for key in ["textFitWidth", "textFitHeight"] {
            guard let value = members[key] else { continue }
            guard case .string(let name) = value, let fit = SpriteImage.TextFit(rawValue: name) else {
                throw fail("'\(key)' is stretchOrShrink, stretchOnly or proportional, not \(value.summary)")
            }
            if key == "textFitWidth" { entry.textFitWidth = fit } else { entry.textFitHeight = fit }
        }
        return entry
    }
}
