import Foundation

/// A TrueType font read from its bytes: character map (`cmap` formats 4 and
/// 12), horizontal metrics (`hhea`, `hmtx`), quadratic outlines with composite
/// glyphs (`glyf`, `loca`) and pair kerning (`kern` format 0). No hinting and
/// no complex shaping: one glyph per character, enough for Latin, Greek and
/// Cyrillic labels.
///
/// Tables are parsed once, in `init`; outlines are read on demand and their
/// rasterised masks cached per size (see `Canvas.draw(_:at:style:)`), so one
/// font value shared by every render draws each glyph once per size.
public struct TrueTypeFont: Sendable {
    /// Font units per em: outline coordinates are in these.
    public let unitsPerEm: Int
    /// Height above the baseline of the tallest glyphs, in font units (`hhea`).
    public let ascender: Int
    /// Depth below the baseline, in font units (negative, `hhea`).
    public let descender: Int
    /// Extra space between lines, in font units (`hhea`).
    public let lineGap: Int
    /// Glyphs in the font (`maxp`).
    public let glyphCount: Int
    /// The glyph drawn for characters the font lacks: U+FFFD if the font has it, else `.notdef`.
    public let replacementGlyph: Int

    let reader: FontDataReader
    private let glyfRange: Range<Int>
    /// Per glyph, where its outline starts in `glyf` (one extra entry: the end of the last).
    private let locations: [UInt32]
    private let advances: [UInt16]
    private let characterMap: [UInt32: UInt16]
    private let kerningPairs: [UInt32: Int16]
    /// The `name` table's family and style names by name ID (1, 2, 16, 17), for ``fullName``.
    let names: [Int: String]
    /// Rasterised glyphs by size and sub-pixel phase, shared by copies of this value.
    let masks = GlyphMaskCache()

    /// The most outline points a glyph (with its components) may have.
    static let maximumPoints = 1 << 16
    /// How deep composite glyphs may nest (real fonts use 1–3; a loop would never end).
    static let maximumCompositeDepth = 8

    /// Reads a font. Throws `TrueTypeError` naming the table that is missing,
    /// short or inconsistent.
    public init(bytes: [UInt8]) throws {
        let reader = FontDataReader(bytes: bytes)
        self.reader = reader
        var tables: [String: Range<Int>] = [:]
        let tableCount = try reader.u16(4, "the table directory")
        for i in 0..<tableCount {
            let record = 12 + 16 * i
            let tag = String(decoding: try (0..<4).map { UInt8(try reader.u8(record + $0, "the table directory")) }, as: UTF8.self)
            let offset = try reader.u32(record + 8, "the table directory"), length = try reader.u32(record + 12, "the table directory")
            guard offset <= bytes.count, length <= bytes.count - offset else { throw TrueTypeError.truncated("table '\(tag)'") }
            tables[tag] = offset..<offset + length
        }
        func table(_ tag: String) throws -> Int {
            guard let range = tables[tag] else { throw TrueTypeError.missingTable(tag) }
            return range.lowerBound
        }
        let head = try table("head"), hhea = try table("hhea"), maxp = try table("maxp")
        unitsPerEm = try reader.u16(head + 18, "'head'")
        guard (16...16384).contains(unitsPerEm) else { throw TrueTypeError.malformed("unitsPerEm \(unitsPerEm) is outside 16…16384") }
        let longLocations = try reader.i16(head + 50, "'head'") == 1
        ascender = try reader.i16(hhea + 4, "'hhea'")
        descender = try reader.i16(hhea + 6, "'hhea'")
        lineGap = try reader.i16(hhea + 8, "'hhea'")
        let metricCount = try reader.u16(hhea + 34, "'hhea'")
        glyphCount = try reader.u16(maxp + 4, "'maxp'")
        guard glyphCount > 0, (1...glyphCount).contains(metricCount) else {
            throw TrueTypeError.malformed("\(glyphCount) glyphs with \(metricCount) horizontal metrics")
        }

        let hmtx = try table("hmtx")
        var advances = [UInt16](repeating: 0, count: glyphCount)
        for glyph in 0..<glyphCount {
            advances[glyph] = glyph < metricCount ? UInt16(try reader.u16(hmtx + 4 * glyph, "'hmtx'")) : advances[metricCount - 1]
        }
        self.advances = advances

        let loca = try table("loca")
        guard let glyf = tables["glyf"] else { throw TrueTypeError.missingTable("glyf") }
        glyfRange = glyf
        var locations = [UInt32](repeating: 0, count: glyphCount + 1)
        for i in 0...glyphCount {
            let value = longLocations ? try reader.u32(loca + 4 * i, "'loca'") : 2 * (try reader.u16(loca + 2 * i, "'loca'"))
            guard value <= glyf.count, i == 0 || value >= Int(locations[i - 1]) else {
                throw TrueTypeError.malformed("'loca' entry \(i) (\(value)) is out of order or past 'glyf'")
            }
            locations[i] = UInt32(value)
        }
        self.locations = locations

        characterMap = try Self.readCharacterMap(reader, at: try table("cmap"), glyphCount: glyphCount)
        kerningPairs = try tables["kern"].map { try Self.readKerning(reader, at: $0.lowerBound) } ?? [:]
        replacementGlyph = characterMap[0xFFFD].map(Int.init) ?? 0
        names = tables["name"].map { Self.readNames(reader, table: $0) } ?? [:]
    }

    /// The font file's bytes, as given to `init(bytes:)`.
    public var bytes: [UInt8] { reader.bytes }

    /// The glyph for `scalar`, or nil when the font has none.
    public func glyph(for scalar: Unicode.Scalar) -> Int? {
        characterMap[scalar.value].map(Int.init)
    }

    /// The code points the font maps to a glyph, in no order.
    public var mappedScalars: Dictionary<UInt32, UInt16>.Keys { characterMap.keys }

    /// The horizontal advance of `glyph`, in font units.
    public func advanceWidth(ofGlyph glyph: Int) -> Int {
        advances.indices.contains(glyph) ? Int(advances[glyph]) : 0
    }

    /// The kerning adjustment between two glyphs set side by side, in font units (0 when none).
    public func kerning(_ left: Int, _ right: Int) -> Int {
        guard left >= 0, left < 65536, right >= 0, right < 65536 else { return 0 }
        return Int(kerningPairs[UInt32(left) << 16 | UInt32(right)] ?? 0)
    }

    /// Where `glyph`'s outline lies in the font's bytes (empty for a glyph without one).
    func outlineRange(ofGlyph glyph: Int) -> Range<Int> {
        guard glyph >= 0, glyph < glyphCount else { return 0..<0 }
        let start = glyfRange.lowerBound + Int(locations[glyph]), end = glyfRange.lowerBound + Int(locations[glyph + 1])
        return start..<end
    }

    // MARK: Tables read once

    /// Every mapping of the best Unicode subtable: format 12 (full Unicode) if
    /// present, else format 4 (the Basic Multilingual Plane).
    private static func readCharacterMap(_ reader: FontDataReader, at cmap: Int, glyphCount: Int) throws -> [UInt32: UInt16] {
        var best: (offset: Int, format: Int)?
        for i in 0..<(try reader.u16(cmap + 2, "'cmap'")) {
            let platform = try reader.u16(cmap + 4 + 8 * i, "'cmap'"), encoding = try reader.u16(cmap + 6 + 8 * i, "'cmap'")
            let offset = cmap + (try reader.u32(cmap + 8 + 8 * i, "'cmap'"))
            guard platform == 0 || (platform == 3 && (encoding == 1 || encoding == 10)) else { continue }
            let format = try reader.u16(offset, "'cmap' subtable")
            if format == 12 || (format == 4 && best?.format != 12) { best = (offset, format) }
        }
        guard let best else { throw TrueTypeError.malformed("'cmap' has no Unicode subtable of format 4 or 12") }
        var map: [UInt32: UInt16] = [:]
        func add(_ code: Int, _ glyph: Int) {
            if glyph > 0, glyph < glyphCount { map[UInt32(code)] = UInt16(glyph) }
        }
        let s = best.offset
        if best.format == 12 {
            let groups = try reader.u32(s + 12, "'cmap' format 12")
            guard groups <= (reader.bytes.count - s) / 12 else { throw TrueTypeError.truncated("'cmap' format 12") }
            for g in 0..<groups {
                let first = try reader.u32(s + 16 + 12 * g, "'cmap' format 12"), last = try reader.u32(s + 20 + 12 * g, "'cmap' format 12")
                let glyph = try reader.u32(s + 24 + 12 * g, "'cmap' format 12")
                guard first <= last, last <= 0x10FFFF, last - first < glyphCount else {
                    throw TrueTypeError.malformed("'cmap' group \(first)…\(last) is out of range")
                }
                for code in first...last { add(code, glyph + code - first) }
            }
        } else {
            let segments = try reader.u16(s + 6, "'cmap' format 4") / 2
            let ends = s + 14, starts = ends + 2 * segments + 2, deltas = starts + 2 * segments, rangeOffsets = deltas + 2 * segments
            for i in 0..<segments {
                let end = try reader.u16(ends + 2 * i, "'cmap' format 4"), start = try reader.u16(starts + 2 * i, "'cmap' format 4")
                let delta = try reader.u16(deltas + 2 * i, "'cmap' format 4")
                let rangeOffset = try reader.u16(rangeOffsets + 2 * i, "'cmap' format 4")
                guard start <= end, start != 0xFFFF else { continue }
                for code in start...end {
                    if rangeOffset == 0 {
                        add(code, (code + delta) & 0xFFFF)
                    } else {
                        let glyph = try reader.u16(rangeOffsets + 2 * i + rangeOffset + 2 * (code - start), "'cmap' format 4")
                        if glyph != 0 { add(code, (glyph + delta) & 0xFFFF) }
                    }
                }
            }
        }
        return map
    }

    /// The horizontal pairs of every format-0 subtable of a `kern` table (version 0).
    private static func readKerning(_ reader: FontDataReader, at kern: Int) throws -> [UInt32: Int16] {
        var pairs: [UInt32: Int16] = [:]
        guard try reader.u16(kern, "'kern'") == 0 else { return pairs }  // Apple's version 1 tables: not read
        var subtable = kern + 4
        for _ in 0..<(try reader.u16(kern + 2, "'kern'")) {
            let length = try reader.u16(subtable + 2, "'kern' subtable"), coverage = try reader.u16(subtable + 4, "'kern' subtable")
            // Format 0 (high byte), horizontal (bit 0), not minimum or cross-stream.
            if coverage >> 8 == 0, coverage & 0x7 == 1 {
                let count = try reader.u16(subtable + 6, "'kern' subtable")
                for i in 0..<count {
                    let pair = subtable + 14 + 6 * i
                    let key = UInt32(try reader.u16(pair, "'kern' pairs")) << 16 | UInt32(try reader.u16(pair + 2, "'kern' pairs"))
                    pairs[key] = Int16(try reader.i16(pair + 4, "'kern' pairs"))
                }
            }
            guard length >= 6 else { throw TrueTypeError.malformed("'kern' subtable length \(length)") }
            subtable += length
        }
        return pairs
    }
}
