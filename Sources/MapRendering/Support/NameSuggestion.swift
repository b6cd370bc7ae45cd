/// Finds the known parameter name closest to a mistyped one, so that
/// `lattitude=` is answered with "did you mean 'latitude'?" rather than ignored,
/// and a style's `line-colour` with "did you mean 'line-color'?". (In
/// MapRendering, the lowest module both the URL readers and the style reader see.)
package enum NameSuggestion {
    /// The nearest of `candidates` by edit distance, if it is near enough to be a typo
    /// (at most a third of the longer name's length, and at least 1 edit allowed).
    package static func nearest(to name: String, in candidates: [String]) -> String? {
        let lowered = name.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(Array(lowered), Array(candidate.lowercased()))
            if distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        guard let best else { return nil }
        let allowed = max(1, max(name.count, best.name.count) / 3)
        return best.distance <= allowed ? best.name : nil
    }

    /// `; did you mean 'NAME'?` for the nearest of `candidates`, or "" when none is near.
    package static func didYouMean(_ name: String, in candidates: [String]) -> String {
        nearest(to: name, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
    package static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
