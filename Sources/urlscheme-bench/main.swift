import Foundation

// urlscheme-bench: runs our side and the reference side of each benchmark in
// one process run, on the same inputs, and prints the ratios as a Markdown table.
// Build with `swift build -c release`; `Benchmarks/run.sh` installs the references.

let usage = """
    usage: urlscheme-bench [SUITE ...] [--iterations N] [--list]
           urlscheme-bench cache-proxy --origin URL [--port N] [--cache-directory PATH] [--verbose]

    Runs the named suites (default: all) and prints one Markdown table row per
    comparison: our median time, the reference's, ours/reference, and the goal.
    `cache-proxy` serves an origin through HTTPCacheURLProtocol instead, for the
    HTTP caching conformance suite (Benchmarks/cache-tests.sh).
    """

if CommandLine.arguments.dropFirst().first == "cache-proxy" {
    CacheTestProxy.run(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.dropFirst().first == "animation-memory-child" {
    AnimationMemoryBenchmarks.runChild(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.dropFirst().first == "recording-load-child" {
    RecordingLoadBenchmark.runChild(Array(CommandLine.arguments.dropFirst(2)))
}

var arguments = Array(CommandLine.arguments.dropFirst())
var iterations = 7
var selected: [String] = []
while let argument = arguments.first {
    arguments.removeFirst()
    switch argument {
    case "--help", "-h":
        print(usage)
        exit(0)
    case "--list":
        for suite in BenchmarkSuites.all { print("\(suite.name)\t\(suite.summary)") }
        exit(0)
    case "--iterations":
        guard let value = arguments.first.flatMap(Int.init), value > 0 else {
            FileHandle.standardError.write(Data("urlscheme-bench: --iterations needs a positive number\n".utf8))
            exit(2)
        }
        arguments.removeFirst()
        iterations = value
    default:
        selected.append(argument)
    }
}

let unknown = selected.filter { name in !BenchmarkSuites.all.contains { $0.name == name } }
if !unknown.isEmpty {
    let known = BenchmarkSuites.all.map(\.name).joined(separator: ", ")
    FileHandle.standardError.write(Data("urlscheme-bench: unknown suite \(unknown.joined(separator: ", ")); known: \(known)\n".utf8))
    exit(2)
}
let suites = BenchmarkSuites.all.filter { selected.isEmpty || selected.contains($0.name) }

func milliseconds(_ seconds: Double) -> String { String(format: "%.2f", seconds * 1000) }

/// A goal ratio with at most two decimals and no trailing zeros: 0.33, 0.5, 1, 1.15.
func goalText(_ ratio: Double) -> String {
    var text = String(format: "%.2f", ratio)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
}

print("| benchmark | ours (ms) | reference | reference (ms) | ours/ref | goal | notes |")
print("|---|---:|---|---:|---:|---:|---|")
var failures = 0
do {
    let context = try BenchmarkContext(iterations: iterations)
    for suite in suites {
        do {
            for row in try suite.run(context) {
                let reference = row.reference.map(milliseconds) ?? "–"
                let ratio = row.ratio.map { String(format: "%.2f×", $0) } ?? "–"
                let goal = row.goal.map { "≤ " + goalText($0) + "×" } ?? "–"
                let met = row.meetsGoal.map { $0 ? " ✓" : " ✗" } ?? ""
                print("| \(row.name) | \(milliseconds(row.ours)) | \(row.referenceName) | \(reference) | \(ratio)\(met) | \(goal) | \(row.detail) |")
            }
        } catch {
            failures += 1
            print("| \(suite.name) | failed: \(error) | | | | | |")
        }
    }
} catch {
    FileHandle.standardError.write(Data("urlscheme-bench: \(error)\n".utf8))
    exit(1)
}
exit(failures == 0 ? 0 : 1)
