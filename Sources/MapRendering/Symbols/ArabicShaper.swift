/// Arabic contextual shaping as MapLibre's RTL text plugin does it (ICU's
/// `u_shapeArabic` with `U_SHAPE_LETTERS_SHAPE`, logical order): each letter
/// becomes the presentation form (isolated, final, initial or medial) its
/// neighbours call for, lam followed by alef becomes their mandatory
/// ligature, and a vowel mark becomes its spacing or tatweel form. MapLibre
/// draws one glyph per code point, and the glyph ranges carry these
/// presentation forms (U+FB50–U+FDFF, U+FE70–U+FEFF), so the shape is chosen
/// here, before line breaking and bidi reordering. One pass, linear in the text.
enum ArabicShaper {
    /// A character's Joining_Type (ArabicShaping.txt), in the tables' order.
    enum JoiningType: UInt8 {
        case nonJoining, dual, right, left, causing, transparent

        /// Whether the character after this one may join to it.
        var joinsForward: Bool { self == .dual || self == .left || self == .causing }
        /// Whether this character may join to the one before it.
        var joinsBackward: Bool { self == .dual || self == .right || self == .causing }
    }

    private static let lam: UInt32 = 0x0644

    /// `codePoint`'s joining type (non-joining where Unicode lists none).
    static func joiningType(_ codePoint: UInt32) -> JoiningType {
        let i = BidiTables.lastIndex(ofStartAtMost: codePoint, in: BidiTables.joiningTypeStarts)
        return JoiningType(rawValue: BidiTables.joiningTypes[i]) ?? .nonJoining
    }

    /// Whether `text` holds Arabic (letters or presentation forms): the only text shaping changes.
    static func containsArabic(_ text: some Collection<UInt32>) -> Bool {
        text.contains { (0x0600...0x08FF).contains($0) || (0xFB50...0xFDFF).contains($0) || (0xFE70...0xFEFF).contains($0) }
    }

    /// `text` shaped; unchanged when it holds no Arabic. Presentation forms
    /// already in it are read as their letters first, as ICU does.
    static func shape(_ text: some Collection<UInt32>) -> [UInt32] {
        guard containsArabic(text) else { return Array(text) }
        let letters = text.map { baseLetter[$0] ?? $0 }
        let types = letters.map(joiningType)
        // The joining form of each letter: its neighbours are the nearest non-transparent characters.
        var forms = [Int?](repeating: nil, count: letters.count)
        var previous: Int?
        var i = 0
        while i < letters.count {
            guard types[i] != .transparent else {
                i += 1
                continue
            }
            var next = i + 1
            while next < letters.count, types[next] == .transparent { next += 1 }
            let joinedBefore = types[i].joinsBackward && previous.map { types[$0].joinsForward } == true
            let joinedAfter = types[i].joinsForward && next < letters.count && types[next].joinsBackward
            forms[i] = form(types[i], joinedBefore: joinedBefore, joinedAfter: joinedAfter)
            previous = i
            i = next
        }
        var output: [UInt32] = []
        output.reserveCapacity(letters.count)
        var lastLetter: Int?
        i = 0
        while i < letters.count {
            let codePoint = letters[i]
            if types[i] == .transparent {
                output.append(markForm(codePoint, after: lastLetter, at: i, letters: letters, types: types))
                i += 1
                continue
            }
            if codePoint == lam, let ligature = lamAlef(at: i, letters: letters, types: types, form: forms[i]) {
                // The ligature stands where the lam was; marks between the two follow it.
                output.append(ligature.codePoint)
                for j in (i + 1)..<ligature.alef {
                    output.append(markForm(letters[j], after: i, at: j, letters: letters, types: types))
                }
                lastLetter = nil
                i = ligature.alef + 1
                continue
            }
            output.append(presentationForm(codePoint, form: forms[i]))
            lastLetter = i
            i += 1
        }
        return output
    }

    /// The form index (0 isolated, 1 final, 2 initial, 3 medial) of a letter of `type`; nil for one that never joins.
    private static func form(_ type: JoiningType, joinedBefore: Bool, joinedAfter: Bool) -> Int? {
        switch type {
        case .dual: return joinedBefore ? (joinedAfter ? 3 : 1) : (joinedAfter ? 2 : 0)
        case .right: return joinedBefore ? 1 : 0
        case .left: return joinedAfter ? 2 : 0
        case .causing, .nonJoining, .transparent: return nil
        }
    }

    /// `codePoint`'s presentation form `form`, itself where Unicode encodes none.
    private static func presentationForm(_ codePoint: UInt32, form: Int?) -> UInt32 {
        guard let form, let forms = forms(of: codePoint) else { return codePoint }
        let shaped = forms[form] != 0 ? forms[form] : forms[0]
        return shaped != 0 ? UInt32(shaped) : codePoint
    }

    /// A vowel mark's form as ICU gives it: on a tatweel (medial) between two
    /// letters that join, otherwise its spacing (isolated) form; marks with no
    /// presentation form stay as they are.
    private static func markForm(_ codePoint: UInt32, after letter: Int?, at index: Int, letters: [UInt32], types: [JoiningType]) -> UInt32 {
        guard let forms = forms(of: codePoint), forms[0] != 0 else { return codePoint }
        var next = index + 1
        while next < letters.count, types[next] == .transparent { next += 1 }
        let before = letter.map { types[$0].joinsForward } ?? false
        let after = next < letters.count && types[next].joinsBackward
        let inLamAlef = letter.map { letters[$0] == lam } == true && next < letters.count && ligatureIndex(of: letters[next]) != nil
        return UInt32(before && after && !inLamAlef && forms[3] != 0 ? forms[3] : forms[0])
    }

    /// The lam-alef ligature starting at the lam at `index` (form `form`), and where its alef is.
    private static func lamAlef(at index: Int, letters: [UInt32], types: [JoiningType], form: Int?) -> (codePoint: UInt32, alef: Int)? {
        var next = index + 1
        while next < letters.count, types[next] == .transparent { next += 1 }
        guard next < letters.count, let k = ligatureIndex(of: letters[next]) else { return nil }
        // Final when the lam joined the letter before it (its own form final or medial).
        let final = form == 1 || form == 3
        return (UInt32(BidiTables.lamAlefLigatures[2 * k + (final ? 1 : 0)]), next)
    }

    private static func ligatureIndex(of alef: UInt32) -> Int? {
        BidiTables.lamAlefAlefs.firstIndex(of: alef)
    }

    /// The isolated, final, initial and medial forms of `codePoint` (0 where none); nil without any.
    private static func forms(of codePoint: UInt32) -> [UInt16]? {
        guard let k = formIndex[codePoint] else { return nil }
        return Array(BidiTables.presentationForms[(4 * k)..<(4 * k + 4)])
    }

    /// Base letter → its row in the forms table.
    private static let formIndex: [UInt32: Int] = Dictionary(uniqueKeysWithValues: BidiTables.presentationFormBases.enumerated().map { ($1, $0) })

    /// Presentation form → its letter, so already shaped text shapes again.
    private static let baseLetter: [UInt32: UInt32] = {
        var map: [UInt32: UInt32] = [:]
        for (k, base) in BidiTables.presentationFormBases.enumerated() where joiningType(base) != .transparent {
            for form in BidiTables.presentationForms[(4 * k)..<(4 * k + 4)] where form != 0 && map[UInt32(form)] == nil { map[UInt32(form)] = base }
        }
        return map
    }()
}
