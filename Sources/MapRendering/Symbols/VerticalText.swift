/// Which characters stand upright in vertical text and how punctuation turns
/// for it, as MapLibre decides (its `script_detection` and
/// `verticalize_punctuation`, from Unicode's `VerticalOrientation.txt` by
/// block): CJK ideographs, kana, Hangul and their punctuation stay upright
/// one under the other; Latin letters and the like are turned a quarter with
/// the line; "neutral" characters follow their neighbours. Only the Basic
/// Multilingual Plane is classified, as MapLibre (which reads UTF-16 units).
enum VerticalText {
    /// Whether `text` holds a character that stands upright in vertical text:
    /// only then does MapLibre shape a vertical version of a label (`allowsVerticalWritingMode`).
    static func allowsVerticalWritingMode(_ text: [UInt32]) -> Bool {
        text.contains(where: hasUprightOrientation)
    }

    /// Whether `c` is drawn upright in vertical text whatever its neighbours
    /// (MapLibre's `charHasUprightVerticalOrientation`).
    static func hasUprightOrientation(_ c: UInt32) -> Bool {
        if c == 0x02EA || c == 0x02EB { return true }   // the yin and yang departing tone marks
        guard c >= 0x1100 else { return false }
        switch c {
        case 0x1100...0x11FF,                   // Hangul Jamo
             0x1400...0x167F, 0x18B0...0x18FF,  // Unified Canadian Aboriginal Syllabics (and Extended)
             0x2E80...0x2FDF, 0x2FF0...0x2FFF,  // CJK Radicals, Kangxi Radicals, Ideographic Description
             0x3040...0x309F,                   // Hiragana
             0x3100...0x31FF,                   // Bopomofo, Hangul Compatibility Jamo, Kanbun, CJK Strokes, Katakana Phonetic Extensions
             0x3200...0x4DBF,                   // Enclosed CJK, CJK Compatibility, CJK Extension A
             0x4DC0...0x4DFF,                   // Yijing Hexagram Symbols
             0x4E00...0x9FFF,                   // CJK Unified Ideographs
             0xA000...0xA4CF,                   // Yi
             0xA960...0xA97F, 0xAC00...0xD7FF,  // Hangul Jamo Extended-A, Syllables, Jamo Extended-B
             0xF900...0xFAFF,                   // CJK Compatibility Ideographs
             0xFE10...0xFE1F:                   // Vertical Forms
            return true
        case 0x3000...0x303F:   // CJK Symbols and Punctuation, less the brackets and the wavy dash
            return !(0x3008...0x3011).contains(c) && !(0x3014...0x301F).contains(c) && c != 0x3030
        case 0x30A0...0x30FF:   // Katakana, less the prolonged sound mark
            return c != 0x30FC
        case 0xFE30...0xFE4F:   // CJK Compatibility Forms, less the overlines and low lines
            return c < 0xFE49
        case 0xFE50...0xFE6F:   // Small Form Variants, less the dashes, brackets and signs that turn
            return !(0xFE58...0xFE5E).contains(c) && !(0xFE63...0xFE66).contains(c)
        case 0xFF00...0xFFEF:   // Halfwidth and Fullwidth Forms, less the brackets, dashes and halfwidth forms
            return c != 0xFF08 && c != 0xFF09 && c != 0xFF0D && !(0xFF1A...0xFF1E).contains(c) && c != 0xFF3B && c != 0xFF3D
                && c != 0xFF3F && !(0xFF5B...0xFFDF).contains(c) && c != 0xFFE3 && !(0xFFE8...0xFFEF).contains(c)
        default:
            return false
        }
    }

    /// Whether `c` may stand upright or turn with its neighbours (MapLibre's
    /// `charHasNeutralVerticalOrientation`): symbols, enclosed numbers, CJK punctuation.
    static func hasNeutralOrientation(_ c: UInt32) -> Bool {
        switch c {
        case 0xA7, 0xA9, 0xAE, 0xB1, 0xBC, 0xBD, 0xBE, 0xD7, 0xF7,
             0x2016, 0x2020, 0x2021, 0x2030, 0x2031, 0x203B, 0x203C, 0x2042, 0x2047, 0x2048, 0x2049, 0x2051,
             0x2100...0x218F,                   // Letterlike Symbols, Number Forms
             0x2300...0x2307, 0x230C...0x231F, 0x2324...0x2328, 0x232B, 0x237D...0x239A, 0x23BE...0x23CD, 0x23CF,
             0x23D1...0x23DB, 0x23E2...0x23FF,  // parts of Miscellaneous Technical
             0x2440...0x24FF,                   // OCR, Enclosed Alphanumerics
             0x25A0...0x25FF,                   // Geometric Shapes
             0x2B12...0x2B2F, 0x2B50...0x2B59, 0x2BB8...0x2BEB,
             0x3000...0x303F, 0x30A0...0x30FF,  // CJK Symbols and Punctuation, Katakana
             0xE000...0xF8FF,                   // Private Use Area
             0xFE30...0xFE6F, 0xFF00...0xFFEF,  // CJK Compatibility Forms, Small Form Variants, Halfwidth and Fullwidth Forms
             0x221E, 0x2234, 0x2235, 0x2700...0x2767, 0x2776...0x2793, 0xFFFC, 0xFFFD:
            return true
        case 0x2400...0x243F:   // Control Pictures, less U+2423
            return c != 0x2423
        case 0x2600...0x26FF:   // Miscellaneous Symbols, less the pointing hands
            return !(0x261A...0x261F).contains(c)
        default:
            return false
        }
    }

    /// Whether `c` is turned with the line in vertical text (Latin letters, digits, most punctuation).
    static func hasRotatedOrientation(_ c: UInt32) -> Bool {
        !(hasUprightOrientation(c) || hasNeutralOrientation(c))
    }

    /// Whether `c` belongs to a script shaped by joining (Arabic): such runs
    /// stay turned in vertical text (MapLibre's `charInComplexShapingScript`).
    static func isComplexShaping(_ c: UInt32) -> Bool {
        (0x0600...0x06FF).contains(c) || (0x0750...0x077F).contains(c) || (0x08A0...0x08FF).contains(c)
            || (0xFB50...0xFDFF).contains(c) || (0xFE70...0xFEFF).contains(c)
    }

    /// The vertical presentation form of each punctuation mark that has one
    /// (MapLibre's `verticalizedCharacterMap`): brackets opening downwards,
    /// dashes and ellipses standing, full stops and commas in the corner.
    static let verticalForms: [UInt32: UInt32] = [
        0x21: 0xFE15, 0x23: 0xFF03, 0x24: 0xFF04, 0x25: 0xFF05, 0x26: 0xFF06, 0x28: 0xFE35, 0x29: 0xFE36, 0x2A: 0xFF0A,
        0x2B: 0xFF0B, 0x2C: 0xFE10, 0x2D: 0xFE32, 0x2E: 0x30FB, 0x2F: 0xFF0F, 0x3A: 0xFE13, 0x3B: 0xFE14, 0x3C: 0xFE3F,
        0x3D: 0xFF1D, 0x3E: 0xFE40, 0x3F: 0xFE16, 0x40: 0xFF20, 0x5B: 0xFE47, 0x5C: 0xFF3C, 0x5D: 0xFE48, 0x5E: 0xFF3E,
        0x5F: 0xFE33, 0x60: 0xFF40, 0x7B: 0xFE37, 0x7C: 0x2015, 0x7D: 0xFE38, 0x7E: 0xFF5E,
        0xA2: 0xFFE0, 0xA3: 0xFFE1, 0xA5: 0xFFE5, 0xA6: 0xFFE4, 0xAC: 0xFFE2, 0xAF: 0xFFE3,
        0x2013: 0xFE32, 0x2014: 0xFE31, 0x2018: 0xFE43, 0x2019: 0xFE44, 0x201C: 0xFE41, 0x201D: 0xFE42, 0x2026: 0xFE19,
        0x22EF: 0xFE19, 0x2027: 0x30FB, 0x20A9: 0xFFE6,
        0x3001: 0xFE11, 0x3002: 0xFE12, 0x3008: 0xFE3F, 0x3009: 0xFE40, 0x300A: 0xFE3D, 0x300B: 0xFE3E, 0x300C: 0xFE41,
        0x300D: 0xFE42, 0x300E: 0xFE43, 0x300F: 0xFE44, 0x3010: 0xFE3B, 0x3011: 0xFE3C, 0x3014: 0xFE39, 0x3015: 0xFE3A,
        0x3016: 0xFE17, 0x3017: 0xFE18,
        0xFF01: 0xFE15, 0xFF08: 0xFE35, 0xFF09: 0xFE36, 0xFF0C: 0xFE10, 0xFF0D: 0xFE32, 0xFF0E: 0x30FB, 0xFF1A: 0xFE13,
        0xFF1B: 0xFE14, 0xFF1C: 0xFE3F, 0xFF1E: 0xFE40, 0xFF1F: 0xFE16, 0xFF3B: 0xFE47, 0xFF3D: 0xFE48, 0xFF3F: 0xFE33,
        0xFF5B: 0xFE37, 0xFF5C: 0x2015, 0xFF5D: 0xFE38, 0xFF5F: 0xFE35, 0xFF60: 0xFE36, 0xFF61: 0xFE12, 0xFF62: 0xFE41,
        0xFF63: 0xFE42,
    ]

    /// `text` with its punctuation in vertical forms (MapLibre's
    /// `verticalizePunctuation`): a mark is replaced unless a neighbour is a
    /// turned character (a Latin word keeps its own punctuation).
    static func verticalizePunctuation(_ text: [UInt32]) -> [UInt32] {
        func standsWithCJK(_ c: UInt32) -> Bool { !hasRotatedOrientation(c) || verticalForms[c] != nil }
        var out = text
        for i in text.indices {
            guard let form = verticalForms[text[i]] else { continue }
            let nextFits = i + 1 == text.count || standsWithCJK(text[i + 1])
            let previousFits = i == 0 || standsWithCJK(text[i - 1])
            if nextFits && previousFits { out[i] = form }
        }
        return out
    }
}
