import Foundation

/// The glyphs of one 256-code-point range of a font stack, decoded from
/// MapLibre's glyphs protobuf (`glyphs.proto`: `glyphs { repeated fontstack
/// stacks = 1 }`, `fontstack { name = 1; range = 2; repeated glyph glyphs = 3 }`,
/// `glyph { id = 1; bitmap = 2; width = 3; height = 4; left = 5 (sint32);
/// top = 6 (sint32); advance = 7 }`).
///
/// Glyphs whose id lies outside the range are dropped, as MapLibre does; a
/// glyph whose bitmap is not `(width + 6) · (height + 6)` bytes, a file over
/// ``GlyphRangeLimits`` or damaged protobuf throws a ``GlyphRangeError``.
public struct GlyphRange: Sendable {
    /// The first code point of the range (a multiple of 256).
    public let start: UInt32
    /// The glyphs by code point.
    public let glyphs: [UInt32: SDFGlyph]

    /// The size glyph ranges are made at, in pixels: text sizes scale from it (MapLibre's `ONE_EM`).
    public static let fontSize = 24.0
    /// Code points per range.
    public static let size: UInt32 = 256

    /// The range holding `codePoint`'s first code point.
    public static func start(of codePoint: UInt32) -> UInt32 { codePoint / size * size }

    /// The range file's name: `start-end` (`0-255`).
    public static func name(start: UInt32) -> String { "\(start)-\(start + size - 1)" }

    /// Decodes `data`, the file of the range starting at `start`; `file` names
    /// it in errors.
    public init(data: Data, start: UInt32, file: String = "glyph range", limits: GlyphRangeLimits = .default) throws {
        guard data.count <= limits.maximumBytes else {
            throw GlyphRangeError("\(file): \(data.count) bytes, over the limit of \(limits.maximumBytes) (GlyphRangeLimits.maximumBytes)")
        }
        self.start = start
        do {
            glyphs = try data.withUnsafeBytes { raw in
                try Self.decode(ProtobufReader(raw.bindMemory(to: UInt8.self)), range: start..<(start + Self.size), file: file, limits: limits)
            }
        } catch let error as VectorTileError {
            throw GlyphRangeError("\(file): \(error.message)")
        }
    }

    private static func decode(_ reader: ProtobufReader, range: Range<UInt32>, file: String,
                               limits: GlyphRangeLimits) throws -> [UInt32: SDFGlyph] {
        var reader = reader
        var glyphs: [UInt32: SDFGlyph] = [:]
        var count = 0
        while let field = try reader.nextField() {
            guard field.number == 1, field.type == .lengthDelimited else {
                try reader.skip(field.type)
                continue
            }
            var stack = try reader.lengthDelimited()
            while let stackField = try stack.nextField() {
                guard stackField.number == 3, stackField.type == .lengthDelimited else {
                    try stack.skip(stackField.type)
                    continue
                }
                count += 1
                guard count <= limits.maximumGlyphs else {
                    throw GlyphRangeError("\(file): more than \(limits.maximumGlyphs) glyphs, the limit (GlyphRangeLimits.maximumGlyphs)")
                }
                let glyph = try readGlyph(stack.lengthDelimited(), file: file, limits: limits)
                if range.contains(glyph.id) { glyphs[glyph.id] = glyph }
            }
        }
        return glyphs
    }

    private static func readGlyph(_ reader: ProtobufReader, file: String, limits: GlyphRangeLimits) throws -> SDFGlyph {
        var reader = reader
        var id: UInt32?, width = 0, height = 0, left = 0, top = 0, advance = 0
        var bitmap: UnsafeBufferPointer<UInt8>?
        func side(_ value: UInt32, _ name: String) throws -> Int {
            guard value <= UInt32(limits.maximumGlyphSide) else {
                throw GlyphRangeError("\(file): glyph \(id.map(String.init) ?? "?") has \(name) \(value), over the limit of \(limits.maximumGlyphSide) pixels (GlyphRangeLimits.maximumGlyphSide)")
            }
            return Int(value)
        }
        func signed(_ value: UInt32, _ name: String) throws -> Int {
            let v = Int(ProtobufReader.zigZag32(value))
            guard abs(v) <= 4 * limits.maximumGlyphSide else {
                throw GlyphRangeError("\(file): glyph \(id.map(String.init) ?? "?") has \(name) \(v), beyond ±\(4 * limits.maximumGlyphSide) pixels")
            }
            return v
        }
        while let field = try reader.nextField() {
            switch (field.number, field.type) {
            case (1, .varint): id = try reader.uint32("glyph id")
            case (2, .lengthDelimited): bitmap = try reader.lengthDelimited().restBytes
            case (3, .varint): width = try side(reader.uint32("glyph width"), "width")
            case (4, .varint): height = try side(reader.uint32("glyph height"), "height")
            case (5, .varint): left = try signed(reader.uint32("glyph left"), "left")
            case (6, .varint): top = try signed(reader.uint32("glyph top"), "top")
            case (7, .varint): advance = try side(reader.uint32("glyph advance"), "advance")
            default: try reader.skip(field.type)
            }
        }
        guard let id else { throw GlyphRangeError("\(file): a glyph has no id (field 1)") }
        var pixels: [UInt8] = []
        if let bitmap, bitmap.count > 0, width > 0, height > 0 {
            let expected = (width + 2 * SDFGlyph.border) * (height + 2 * SDFGlyph.border)
            guard bitmap.count == expected else {
                throw GlyphRangeError("\(file): glyph \(id) is \(width)×\(height) with a \(SDFGlyph.border)-pixel border, so its bitmap is \(expected) bytes, not \(bitmap.count)")
            }
            pixels = Array(bitmap)
        }
        return SDFGlyph(id: id, width: width, height: height, left: left, top: top, advance: advance, bitmap: pixels)
    }
}
