/// The Unicode Bidirectional Algorithm (UAX #9) as MapLibre's RTL text
/// plugin applies it through ICU's `ubidi`: the text split into paragraphs
/// at paragraph separators, each paragraph's level from its first strong
/// character (left to right when it has none: `UBIDI_DEFAULT_LTR`),
/// explicit embeddings, overrides and isolates (X1–X9), weak and neutral
/// types resolved (W1–W7, N1–N2: numbers stay left to right inside
/// right-to-left runs), implicit levels (I1–I2); then each line, broken on the
/// logical text, put in visual order (L1–L2) with brackets mirrored where they
/// read right to left and the bidi controls dropped.
///
/// Not done as ICU does: bracket pairs (N0) are resolved as other neutrals,
/// and weak and neutral types are resolved per level run rather than per
/// isolating run sequence (they differ only around isolates). Work is linear
/// in the text, reordering at most ``maximumDepth`` passes over a line.
struct BidiReorderer {
    /// UAX #9's deepest embedding level.
    static let maximumDepth: UInt8 = 125

    /// The resolved embedding level of each character.
    private(set) var levels: [UInt8]
    /// Each paragraph's characters (its separator included) and level.
    private(set) var paragraphs: [(range: Range<Int>, level: UInt8)] = []
    /// Each character's original class.
    private let classes: [BidiClass]
    /// Whether each character is a bidi control the plugin drops once reordered.
    private let isControl: [Bool]

    /// Whether `text` needs the algorithm at all: it holds right-to-left
    /// characters, Arabic numbers, explicit controls or a paragraph separator
    /// other than a line feed. Otherwise its visual order is its logical order.
    static func needsReordering(_ text: [UInt32]) -> Bool {
        text.contains { codePoint in
            guard codePoint >= 0x1C else { return false }
            switch BidiClass(codePoint) {
            case .r, .al, .an, .lre, .lro, .rle, .rlo, .pdf, .lri, .rli, .fsi, .pdi: return true
            case .b: return codePoint != 0x0A
            default: return false
            }
        }
    }

    /// `text`'s levels resolved, paragraph by paragraph.
    init(_ text: [UInt32]) {
        classes = text.map(BidiClass.init)
        isControl = text.map(Self.isControl)
        levels = [UInt8](repeating: 0, count: text.count)
        var start = 0
        for i in classes.indices where classes[i] == .b || i == classes.count - 1 {
            let range = start..<(i + 1)
            let level = Self.paragraphLevel(classes[range])
            paragraphs.append((range, level))
            resolve(range, level: level)
            start = i + 1
        }
    }

    /// The index after the end of each paragraph: where lines must break.
    var paragraphEnds: [Int] { paragraphs.map(\.range.upperBound) }

    /// The level of the paragraph holding `index` (a binary search: a line costs no pass over the paragraphs).
    private func paragraphLevel(at index: Int) -> UInt8 {
        var low = 0, high = paragraphs.count - 1
        while low < high {
            let middle = (low + high) / 2
            if paragraphs[middle].range.upperBound <= index { low = middle + 1 } else { high = middle }
        }
        return paragraphs.isEmpty ? 0 : paragraphs[low].level
    }

    /// Whether the character at `index` reads right to left (an odd level): a bracket there is mirrored.
    func isRightToLeft(_ index: Int) -> Bool { levels[index] & 1 == 1 }

    /// `codePoint` (the character at `index`) as drawn: its mirror where it reads right to left.
    func displayed(_ codePoint: UInt32, at index: Int) -> UInt32 {
        isRightToLeft(index) ? BidiTables.mirror(of: codePoint) ?? codePoint : codePoint
    }

    /// The characters of `line` (within one paragraph) in visual order, left
    /// to right, without the bidi controls (rules L1 and L2).
    func visualOrder(_ line: Range<Int>) -> [Int] {
        guard !line.isEmpty else { return [] }
        let paragraphLevel = paragraphLevel(at: line.lowerBound)
        var lineLevels = Array(levels[line])
        // L1: separators, and white space before them or at the line's end, take the paragraph's level.
        var trailing = true
        for k in stride(from: line.count - 1, through: 0, by: -1) {
            let c = classes[line.lowerBound + k]
            if c == .s || c == .b {
                lineLevels[k] = paragraphLevel
                trailing = true
            } else if trailing && (c == .ws || c.isIsolateInitiator || c == .pdi || c.isRemovedByX9) {
                lineLevels[k] = paragraphLevel
            } else {
                trailing = false
            }
        }
        var order = Array(line)
        let highest = lineLevels.max() ?? 0
        let lowestOdd = lineLevels.map { $0 | 1 }.min() ?? 1
        if highest >= lowestOdd {
            // L2: from the highest level down to the lowest odd one, reverse every run at that level or above.
            var positions = Array(0..<line.count)
            for level in stride(from: highest, through: lowestOdd, by: -1) {
                var k = 0
                while k < positions.count {
                    guard lineLevels[positions[k]] >= level else {
                        k += 1
                        continue
                    }
                    var end = k
                    while end + 1 < positions.count, lineLevels[positions[end + 1]] >= level { end += 1 }
                    positions[k...end].reverse()
                    k = end + 1
                }
            }
            order = positions.map { line.lowerBound + $0 }
        }
        return order.filter { !isControl[$0] }
    }

    /// The characters the plugin drops once reordered: the marks (ALM, LRM, RLM), embeddings, overrides and isolates.
    private static func isControl(_ codePoint: UInt32) -> Bool {
        codePoint == 0x061C || codePoint == 0x200E || codePoint == 0x200F || (0x202A...0x202E).contains(codePoint)
            || (0x2066...0x2069).contains(codePoint)
    }

    /// Rules P2 and P3: 1 when the first strong character (outside isolates) is right to left, else 0.
    private static func paragraphLevel(_ classes: ArraySlice<BidiClass>) -> UInt8 {
        var isolates = 0
        for c in classes {
            if c.isIsolateInitiator {
                isolates += 1
            } else if c == .pdi {
                isolates = max(0, isolates - 1)
            } else if isolates == 0 {
                if c == .l { return 0 }
                if c.isRightToLeft { return 1 }
            }
        }
        return 0
    }

    /// One entry of rule X's directional status stack.
    private struct Status {
        var level: UInt8
        var override: BidiClass?
        var isolate: Bool
    }

    /// Resolves the levels of the paragraph `range` at `paragraphLevel`.
    private mutating func resolve(_ range: Range<Int>, level paragraphLevel: UInt8) {
        var types = Array(classes[range])
        var local = [UInt8](repeating: paragraphLevel, count: range.count)
        // X1–X8: explicit embeddings, overrides and isolates.
        var stack = [Status(level: paragraphLevel, override: nil, isolate: false)]
        var overflowIsolates = 0, overflowEmbeddings = 0, validIsolates = 0
        let firstStrong = classes[range].contains(.fsi) ? Self.firstStrongIsolates(classes, in: range) : [:]
        func next(_ level: UInt8, odd: Bool) -> UInt8 { odd ? (level + 1) | 1 : (level + 2) & ~1 }
        for k in types.indices {
            let top = stack[stack.count - 1]
            switch types[k] {
            case .rle, .lre, .rlo, .lro:
                local[k] = top.level
                let c = types[k]
                let level = next(top.level, odd: c == .rle || c == .rlo)
                if level <= Self.maximumDepth && overflowIsolates == 0 && overflowEmbeddings == 0 {
                    stack.append(Status(level: level, override: c == .rlo ? .r : c == .lro ? .l : nil, isolate: false))
                } else if overflowIsolates == 0 {
                    overflowEmbeddings += 1
                }
            case .rli, .lri, .fsi:
                local[k] = top.level
                if let o = top.override { types[k] = o }
                let rtl = classes[range.lowerBound + k] == .rli || firstStrong[range.lowerBound + k] == true
                let level = next(top.level, odd: rtl)
                if level <= Self.maximumDepth && overflowIsolates == 0 && overflowEmbeddings == 0 {
                    validIsolates += 1
                    stack.append(Status(level: level, override: nil, isolate: true))
                } else {
                    overflowIsolates += 1
                }
            case .pdi:
                if overflowIsolates > 0 {
                    overflowIsolates -= 1
                } else if validIsolates > 0 {
                    overflowEmbeddings = 0
                    while let last = stack.last, !last.isolate { stack.removeLast() }
                    stack.removeLast()
                    validIsolates -= 1
                }
                let current = stack[stack.count - 1]
                local[k] = current.level
                if let o = current.override { types[k] = o }
            case .pdf:
                local[k] = top.level
                if overflowIsolates > 0 {
                } else if overflowEmbeddings > 0 {
                    overflowEmbeddings -= 1
                } else if !top.isolate && stack.count >= 2 {
                    stack.removeLast()
                }
            case .b:
                local[k] = paragraphLevel
            case .bn:
                local[k] = top.level
            default:
                local[k] = top.level
                if let o = top.override { types[k] = o }
            }
        }
        // X9 leaves out the removed classes; X10: each run of one level is resolved on its own.
        let kept = types.indices.filter { !types[$0].isRemovedByX9 }
        var runStart = 0
        while runStart < kept.count {
            var runEnd = runStart
            while runEnd + 1 < kept.count, local[kept[runEnd + 1]] == local[kept[runStart]] { runEnd += 1 }
            let level = local[kept[runStart]]
            let before = runStart > 0 ? local[kept[runStart - 1]] : paragraphLevel
            let after = runEnd + 1 < kept.count ? local[kept[runEnd + 1]] : paragraphLevel
            let sos: BidiClass = max(level, before) & 1 == 1 ? .r : .l
            let eos: BidiClass = max(level, after) & 1 == 1 ? .r : .l
            Self.resolveRun(Array(kept[runStart...runEnd]), types: &types, levels: &local, level: level, sos: sos, eos: eos)
            runStart = runEnd + 1
        }
        // Removed characters take the level of the character before them (they are dropped or invisible).
        var previous = paragraphLevel
        for k in types.indices {
            if types[k].isRemovedByX9 { local[k] = previous } else { previous = local[k] }
        }
        levels.replaceSubrange(range, with: local)
    }

    /// Whether each first-strong isolate (FSI) in `range` opens a right-to-left
    /// isolate: its content's first strong character, nested isolates skipped
    /// (rule P2 on it). One backward pass, whatever the nesting.
    private static func firstStrongIsolates(_ classes: [BidiClass], in range: Range<Int>) -> [Int: Bool] {
        var result: [Int: Bool] = [:]
        // Walking backwards, the first strong character seen so far at each open isolate depth.
        var stack: [BidiClass?] = [nil]
        for k in range.reversed() {
            let c = classes[k]
            if c == .pdi {
                stack.append(nil)
            } else if c.isIsolateInitiator {
                let first: BidiClass?
                if stack.count > 1 {
                    first = stack.removeLast()
                } else {
                    // Unmatched: its isolate ran to the paragraph's end, which P2 skips for what comes before.
                    first = stack[0]
                    stack[0] = nil
                }
                if c == .fsi { result[k] = first?.isRightToLeft ?? false }
            } else if c == .l || c.isRightToLeft {
                stack[stack.count - 1] = c
            }
        }
        return result
    }

    /// Rules W1–W7, N1–N2 and I1–I2 on one level run (`run`: its indices, in order).
    private static func resolveRun(_ run: [Int], types: inout [BidiClass], levels: inout [UInt8], level: UInt8, sos: BidiClass, eos: BidiClass) {
        let n = run.count
        // W1: a non-spacing mark takes the type before it.
        for (j, k) in run.enumerated() where types[k] == .nsm {
            let prior = j == 0 ? sos : types[run[j - 1]]
            types[k] = prior.isIsolateInitiator || prior == .pdi ? .on : prior
        }
        // W2: European numbers after Arabic letters are Arabic numbers; W3: Arabic letters are right to left.
        var strong = sos
        for k in run {
            switch types[k] {
            case .l, .r, .al: strong = types[k]
            case .en where strong == .al: types[k] = .an
            default: break
            }
        }
        for k in run where types[k] == .al { types[k] = .r }
        // W4: one separator between two numbers of a kind joins them.
        if n >= 3 {
            for j in 1..<(n - 1) {
                let prior = types[run[j - 1]], following = types[run[j + 1]]
                switch types[run[j]] {
                case .es where prior == .en && following == .en: types[run[j]] = .en
                case .cs where prior == following && (prior == .en || prior == .an): types[run[j]] = prior
                default: break
                }
            }
        }
        // W5: terminators next to European numbers are European numbers.
        var j = 0
        while j < n {
            guard types[run[j]] == .et else {
                j += 1
                continue
            }
            var end = j
            while end + 1 < n, types[run[end + 1]] == .et { end += 1 }
            if (j > 0 && types[run[j - 1]] == .en) || (end + 1 < n && types[run[end + 1]] == .en) {
                for m in j...end { types[run[m]] = .en }
            }
            j = end + 1
        }
        // W6: the other separators and terminators are neutral.
        for k in run where types[k] == .es || types[k] == .et || types[k] == .cs { types[k] = .on }
        // W7: European numbers after left-to-right text are left to right.
        strong = sos
        for k in run {
            if types[k] == .l || types[k] == .r { strong = types[k] }
            if types[k] == .en && strong == .l { types[k] = .l }
        }
        // N1, N2: neutrals between two of one direction take it (numbers count as right to left), others the embedding's.
        let embedding: BidiClass = level & 1 == 1 ? .r : .l
        func direction(_ c: BidiClass) -> BidiClass { c == .en || c == .an ? .r : c }
        j = 0
        while j < n {
            guard types[run[j]].isNeutralOrIsolate else {
                j += 1
                continue
            }
            var end = j
            while end + 1 < n, types[run[end + 1]].isNeutralOrIsolate { end += 1 }
            let leading = j > 0 ? direction(types[run[j - 1]]) : sos
            let trailing = end + 1 < n ? direction(types[run[end + 1]]) : eos
            let resolved = leading == trailing ? leading : embedding
            for m in j...end { types[run[m]] = resolved }
            j = end + 1
        }
        // I1, I2: implicit levels.
        for k in run {
            let c = types[k]
            if level & 1 == 0 {
                if c == .r { levels[k] = level + 1 } else if c == .an || c == .en { levels[k] = level + 2 } else { levels[k] = level }
            } else {
                levels[k] = c == .l || c == .en || c == .an ? level + 1 : level
            }
        }
    }
}
