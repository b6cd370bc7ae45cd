extension TrueTypeFont {
    /// The font's family and style as FreeType names them: the typographic
    /// family and subfamily (name IDs 16 and 17) when the font has them, else
    /// the family and subfamily (1 and 2), joined by a space (`Open Sans
    /// Semibold`, `DejaVu Sans Book`): the font stack name MapLibre's glyph
    /// tools (fontnik, build_pbf_glyphs) give a font. Nil when the `name`
    /// table has neither (or is damaged: names are never worth refusing a font).
    public var fullName: String? {
        guard let family = names[16] ?? names[1] else { return nil }
        guard let style = names[17] ?? names[2] else { return family }
        return family + " " + style
    }

    /// The English names of the `name` table at `table` by name ID: Windows
    /// Unicode records (US English first), else Unicode, else Macintosh Roman
    /// ones. Damaged records are skipped.
    static func readNames(_ reader: FontDataReader, table: Range<Int>) -> [Int: String] {
        guard let count = try? reader.u16(table.lowerBound + 2, "'name'"),
              let storage = try? reader.u16(table.lowerBound + 4, "'name'") else { return [:] }
        var best: [Int: (rank: Int, text: String)] = [:]
        for index in 0..<min(count, 4096) {
            let record = table.lowerBound + 6 + 12 * index
            guard let platform = try? reader.u16(record, "'name'"), let encoding = try? reader.u16(record + 2, "'name'"),
                  let language = try? reader.u16(record + 4, "'name'"), let id = try? reader.u16(record + 6, "'name'"),
                  let length = try? reader.u16(record + 8, "'name'"), let offset = try? reader.u16(record + 10, "'name'"),
                  [1, 2, 16, 17].contains(id) else { continue }
            let rank: Int
            switch (platform, encoding, language) {
            case (3, 1, 0x409), (3, 10, 0x409): rank = 0
            case (3, 1, _), (3, 10, _): rank = 1
            case (0, _, _): rank = 2
            case (1, 0, 0): rank = 3
            default: continue
            }
            guard rank < best[id]?.rank ?? .max else { continue }
            let start = table.lowerBound + storage + offset
            guard start >= table.lowerBound, start + length <= min(table.upperBound, reader.bytes.count) else { continue }
            let bytes = reader.bytes[start..<start + length]
            let text: String
            if platform == 1 {
                text = String(decoding: bytes.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            } else {
                let units = stride(from: bytes.startIndex, to: bytes.endIndex - 1, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
                text = String(decoding: units, as: UTF16.self)
            }
            if !text.isEmpty { best[id] = (rank, text) }
        }
        return best.mapValues(\.text)
    }
}
