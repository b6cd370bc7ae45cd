/// A character's Bidi_Class (UAX #9), in the generated tables' order.
enum BidiClass: UInt8 {
    case l, r, al, en, es, et, an, cs, nsm, bn, b, s, ws, on, lre, lro, rle, rlo, pdf, lri, rli, fsi, pdi

    /// `codePoint`'s class (unassigned code points take Unicode's defaults for their block).
    init(_ codePoint: UInt32) {
        let i = BidiTables.lastIndex(ofStartAtMost: codePoint, in: BidiTables.bidiClassStarts)
        self = BidiClass(rawValue: BidiTables.bidiClasses[i]) ?? .l
    }

    /// A strong right-to-left class.
    var isRightToLeft: Bool { self == .r || self == .al }
    /// The isolate initiators.
    var isIsolateInitiator: Bool { self == .lri || self == .rli || self == .fsi }
    /// The classes rule X9 removes: embeddings, overrides, their terminator and boundary neutrals.
    var isRemovedByX9: Bool {
        switch self {
        case .lre, .lro, .rle, .rlo, .pdf, .bn: return true
        default: return false
        }
    }
    /// Neutrals and isolate formatters, which rules N1 and N2 resolve.
    var isNeutralOrIsolate: Bool {
        switch self {
        case .b, .s, .ws, .on, .lri, .rli, .fsi, .pdi: return true
        default: return false
        }
    }
}
