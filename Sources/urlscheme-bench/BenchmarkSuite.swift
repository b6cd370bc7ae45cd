import Foundation

/// A group of benchmark rows that share inputs: one issue's speed goals.
///
/// A suite times our side and asks its reference script (Python, same inputs,
/// same machine, same run) to time the other side, then returns rows that pair
/// them. Register new suites in `BenchmarkSuites.all`.
protocol BenchmarkSuite: Sendable {
    /// Short name used on the command line (`urlscheme-bench png`).
    var name: String { get }
    /// One line on what the suite compares.
    var summary: String { get }
    func run(_ context: BenchmarkContext) throws -> [BenchmarkRow]
}

/// One measured comparison: our time, the reference's time, and their ratio.
struct BenchmarkRow {
    var name: String
    /// Median seconds for our side.
    var ours: Double
    /// Median seconds for the reference side, when there is one.
    var reference: Double?
    /// What the reference is ("Pillow 12.0", "nginx on 127.0.0.1").
    var referenceName: String
    /// The goal as a ratio ours/reference (e.g. 1.2 for "≤ 1.2× Pillow's time"), if any.
    var goal: Double?
    /// Anything else worth printing: sizes, rates.
    var detail: String = ""

    /// ours / reference: below 1 means we are faster.
    var ratio: Double? { reference.map { ours / $0 } }

    /// Whether the ratio is within the goal; nil when either is missing.
    var meetsGoal: Bool? {
        guard let ratio, let goal else { return nil }
        return ratio <= goal
    }
}
