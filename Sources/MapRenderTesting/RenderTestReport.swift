import Foundation

/// The table of a run of the suite: totals, per test group, per layer type,
/// and every test with its outcome, as Markdown.
struct RenderTestReport {
    /// One test's result.
    struct Row {
        var test: RenderTest
        var outcome: RenderTestOutcome
    }

    var rows: [Row]
    /// The tests left out as not static snapshots, with the reason.
    var skipped: [(name: String, reason: String)]
    /// How long the run took, in seconds.
    var seconds: Double

    /// The tests that passed.
    var passed: [Row] { rows.filter { if case .passed = $0.outcome { true } else { false } } }

    /// The table as Markdown.
    var markdown: String {
        var text = "# MapLibre render tests\n\n"
        text += "MapLibre's own render tests drawn by this package's renderer and compared as MapLibre Native compares them "
        text += "(pixelmatch, threshold 0.1285, anti-aliased pixels not counted, premultiplied RGBA). "
        text += "Made by `maplibre-render-tests INTEGRATION --table Benchmarks/render-tests.md`; "
        text += "see `Sources/maplibre-render-tests/README.md`.\n\n"
        text += "\(passed.count) of \(rows.count) static tests pass (\(percent(passed.count, rows.count))); "
        text += "\(skipped.count) tests that are not static snapshots are not run. "
        text += "Run time \(String(format: "%.1f", seconds)) s (\(Self.build) build, one test at a time, each render on every core).\n\n"
        let outcomes = ["pass", "fail", "unsupported", "error"]
        text += "| outcome | tests |\n|---|---:|\n"
        for label in outcomes { text += "| \(label) | \(rows.filter { $0.outcome.label == label }.count) |\n" }

        text += "\n## Why tests cannot be drawn\n\n| feature | tests |\n|---|---:|\n"
        var features: [String: Int] = [:]
        for row in rows { if case .unsupported(let feature) = row.outcome { features[feature, default: 0] += 1 } }
        for (feature, count) in features.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
            text += "| \(feature) | \(count) |\n"
        }

        text += "\n## By layer type\n\n| layer type | pass | of | share |\n|---|---:|---:|---:|\n"
        let types = Set(rows.flatMap(\.test.layerTypes)).sorted()
        for type in types {
            let with = rows.filter { $0.test.layerTypes.contains(type) }
            let pass = with.filter { $0.outcome.label == "pass" }.count
            text += "| \(type) | \(pass) | \(with.count) | \(percent(pass, with.count)) |\n"
        }

        text += "\n## By group\n\n| group | pass | fail | unsupported | error | share passing |\n|---|---:|---:|---:|---:|---:|\n"
        for (group, members) in Dictionary(grouping: rows, by: \.test.group).sorted(by: { $0.key < $1.key }) {
            let counts = outcomes.map { label in members.filter { $0.outcome.label == label }.count }
            text += "| \(group) | " + counts.map(String.init).joined(separator: " | ") + " | \(percent(counts[0], members.count)) |\n"
        }

        text += "\n## Every test\n\n| test | outcome | detail |\n|---|---|---|\n"
        for row in rows {
            let detail: String
            switch row.outcome {
            case .passed(let difference), .failed(let difference):
                detail = String(format: "%.5f of pixels differ (allowed %.5f)", difference, row.test.allowed)
            case .unsupported(let feature): detail = feature
            case .error(let message): detail = message
            }
            text += "| \(row.test.name) | \(row.outcome.label) | \(detail.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")) |\n"
        }
        text += "\n## Not static snapshots (not run)\n\n| test | why |\n|---|---|\n"
        for (name, reason) in skipped { text += "| \(name) | \(reason) |\n" }
        return text
    }

    #if DEBUG
    private static let build = "debug"
    #else
    private static let build = "release"
    #endif

    private func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "–" : String(format: "%.0f %%", 100 * Double(part) / Double(whole))
    }
}
