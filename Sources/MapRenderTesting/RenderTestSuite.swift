import Foundation
import ImageCodecs
import Raster

/// MapLibre's render-test suite, or a copy of some of its tests: an
/// `integration/` folder with `render-tests/` and the resources the styles load.
public struct RenderTestSuite {
    /// The `integration/` folder.
    public var integration: URL

    /// The suite in `integration` (MapLibre's `metrics/integration`).
    public init(integration: URL) {
        self.integration = integration
    }

    /// Runs every static test whose name contains one of `filters` (all when
    /// empty), writing each drawn image to `actualImages/NAME/actual.png` and
    /// copying each passing test with the files it loaded into the suite
    /// folder `copyPassing` when given, and calling `progress` after each.
    /// Returns the Markdown table and the passing tests' names.
    public func run(matching filters: [String] = [], actualImages: URL? = nil, copyPassing: URL? = nil,
                    progress: (String, String) -> Void = { _, _ in }) throws -> (markdown: String, passed: [String]) {
        let start = Date()
        let tests = try RenderTest.all(in: integration.appendingPathComponent("render-tests"), matching: filters)
        let renderer = RenderTestRenderer(integration: integration)
        var rows: [RenderTestReport.Row] = []
        var skipped: [(name: String, reason: String)] = []
        for test in tests {
            if let reason = test.notStatic {
                skipped.append((test.name, reason))
                continue
            }
            let run = renderer.run(test)
            rows.append(RenderTestReport.Row(test: test, outcome: run.outcome))
            if let copyPassing, case .passed = run.outcome { try copy(test, loading: run.resources, into: copyPassing) }
            if let actualImages, let actual = run.actual {
                let folder = actualImages.appendingPathComponent(test.name)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try PNGEncoder().encode(actual).write(to: folder.appendingPathComponent("actual.png"))
            }
            progress(test.name, run.outcome.label)
        }
        let report = RenderTestReport(rows: rows, skipped: skipped, seconds: Date().timeIntervalSince(start))
        return (report.markdown, report.passed.map(\.test.name))
    }

    /// Copies `test` (its style and every expected image, since the nearest
    /// one decides) and the `resources` it loaded into the suite folder
    /// `destination`, at the same paths.
    private func copy(_ test: RenderTest, loading resources: Set<String>, into destination: URL) throws {
        let manager = FileManager.default
        let expected = test.expectedImages.map { "render-tests/\(test.name)/\($0.lastPathComponent)" }
        let paths = ["render-tests/\(test.name)/style.json"] + expected + resources.sorted()
        for path in paths {
            let target = destination.appendingPathComponent(path)
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? manager.removeItem(at: target)
            try manager.copyItem(at: integration.appendingPathComponent(path), to: target)
        }
    }

    /// Runs `name` alone: whether it passes, and the outcome in words.
    public func check(_ name: String) throws -> (passed: Bool, detail: String) {
        let test = try RenderTest(name: name, folder: integration.appendingPathComponent("render-tests").appendingPathComponent(name))
        let outcome = RenderTestRenderer(integration: integration).run(test).outcome
        switch outcome {
        case .passed(let difference): return (true, "\(difference) of pixels differ")
        case .failed(let difference): return (false, "\(difference) of pixels differ, \(test.allowed) allowed")
        case .unsupported(let feature): return (false, "unsupported: \(feature)")
        case .error(let message): return (false, message)
        }
    }
}
