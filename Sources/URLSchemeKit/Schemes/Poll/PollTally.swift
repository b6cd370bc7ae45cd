/// A poll's counts as the card shows them: the total and each option's
/// percentage, whole numbers that add up to exactly 100.
///
/// Percentages are rounded by the largest remainder method: each option gets
/// the floor of its exact share, then the points still missing go one each to
/// the options with the largest remainders (earlier options first on a tie),
/// so 1, 3 and 3 votes show as 14, 43 and 43, not 14, 43, 43 rounded to 100
/// by luck or 14, 42, 42 adding up to 98. With no votes every option shows 0.
struct PollTally: Equatable {
    let total: Int
    let percentages: [Int]

    init(votes: [Int]) {
        let total = votes.reduce(0, +)
        self.total = total
        guard total > 0 else {
            percentages = votes.map { _ in 0 }
            return
        }
        var percentages = votes.map { $0 * 100 / total }
        let missing = 100 - percentages.reduce(0, +)
        let byRemainder = votes.indices.sorted { a, b in
            let ra = votes[a] * 100 % total, rb = votes[b] * 100 % total
            return ra != rb ? ra > rb : a < b
        }
        for index in byRemainder.prefix(missing) { percentages[index] += 1 }
        self.percentages = percentages
    }
}
