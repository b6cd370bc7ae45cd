// Runs MapLibre's render tests against this package's map renderer and writes
// the table of outcomes. See README.md beside this file.
import Foundation
import MapRenderTesting

let usage = """
usage: maplibre-render-tests INTEGRATION [--table FILE] [--passed FILE] [--actual DIR] [--copy-passing DIR] [--quiet] [FILTER…]
  INTEGRATION   MapLibre's metrics/integration folder (render-tests/ and the resources styles load)
  --table FILE  write the Markdown table there (default: print it)
  --passed FILE write the names of the passing tests there, one a line
  --actual DIR  write each drawn image to DIR/<test>/actual.png
  --copy-passing DIR  copy each passing test, and only the files it loaded, into the suite folder DIR
  FILTER        run only tests whose name contains one of these
"""

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name) else { return nil }
    guard index + 1 < arguments.count else {
        FileHandle.standardError.write(Data("maplibre-render-tests: \(name) needs a value\n\(usage)\n".utf8))
        exit(2)
    }
    defer { arguments.removeSubrange(index...index + 1) }
    return arguments[index + 1]
}
let table = option("--table"), passedList = option("--passed"), actual = option("--actual"), copyPassing = option("--copy-passing")
let quiet = arguments.contains("--quiet")
arguments.removeAll { $0 == "--quiet" }
guard let folder = arguments.first, !folder.hasPrefix("-") else {
    FileHandle.standardError.write(Data("\(usage)\n".utf8))
    exit(2)
}
let integration = URL(fileURLWithPath: folder)
guard FileManager.default.fileExists(atPath: integration.appendingPathComponent("render-tests").path) else {
    FileHandle.standardError.write(Data("maplibre-render-tests: \(folder) has no render-tests/ folder; give MapLibre's metrics/integration\n".utf8))
    exit(2)
}
do {
    let suite = RenderTestSuite(integration: integration)
    let result = try suite.run(matching: Array(arguments.dropFirst()), actualImages: actual.map { URL(fileURLWithPath: $0) },
                                 copyPassing: copyPassing.map { URL(fileURLWithPath: $0) }) { name, outcome in
        if !quiet { FileHandle.standardError.write(Data("\(outcome)\t\(name)\n".utf8)) }
    }
    if let table {
        try result.markdown.write(toFile: table, atomically: true, encoding: .utf8)
    } else {
        print(result.markdown)
    }
    if let passedList { try (result.passed.joined(separator: "\n") + "\n").write(toFile: passedList, atomically: true, encoding: .utf8) }
    let summary = result.markdown.split(separator: "\n").first { $0.contains("static tests pass") } ?? ""
    FileHandle.standardError.write(Data("\(summary)\n".utf8))
} catch {
    FileHandle.standardError.write(Data("maplibre-render-tests: \(error)\n".utf8))
    exit(1)
}
