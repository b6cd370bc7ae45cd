import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit

// urlscheme: load any URL the package understands and save the body.

let usage = """
    usage: urlscheme get URL [-o FILE] [--reload] [--no-cache]

    Loads URL through a URLSession configured with every URLSchemeKit protocol
    and the shared ImageURLCache (~/.cache/URLSchemeKit), writes the body to
    FILE (or standard output), and prints status, type, size and time to
    standard error.

      -o, --output FILE   write the body to FILE instead of standard output
      --reload            ignore cached responses (still stores the new one)
      --no-cache          use no cache at all
      -h, --help          show this help
    """

func fail(_ message: String, code: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("urlscheme: \(message)\n".utf8))
    exit(code)
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments.contains("-h") || arguments.contains("--help") {
    print(usage)
    exit(arguments.isEmpty ? 2 : 0)
}
guard arguments.removeFirst() == "get" else { fail("unknown command; try 'urlscheme --help'", code: 2) }

var urlText: String?
var output: String?
var policy = URLRequest.CachePolicy.useProtocolCachePolicy
var useCache = true
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "-o", "--output":
        guard !arguments.isEmpty else { fail("\(argument) needs a file name", code: 2) }
        output = arguments.removeFirst()
    case "--reload":
        policy = .reloadIgnoringLocalCacheData
    case "--no-cache":
        useCache = false
    default:
        guard urlText == nil, !argument.hasPrefix("-") else { fail("unexpected argument '\(argument)'", code: 2) }
        urlText = argument
    }
}
guard let urlText else { fail("no URL given; try 'urlscheme --help'", code: 2) }
guard let url = URL(string: urlText), url.scheme != nil else { fail("'\(urlText)' is not a URL", code: 2) }

let configuration = URLSessionConfiguration.ephemeral
configuration.installURLSchemeKit()
if !useCache { configuration.urlCache = nil }
let session = URLSession(configuration: configuration)

let start = DispatchTime.now()
let result: (Data, URLResponse)
do {
    result = try await session.data(for: URLRequest(url: url, cachePolicy: policy))
} catch {
    fail(error.localizedDescription)
}
let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
let (data, response) = result
let status = (response as? HTTPURLResponse)?.statusCode ?? 200
let type = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") ?? response.mimeType ?? "unknown type"

if let output {
    do {
        try data.write(to: URL(fileURLWithPath: output), options: .atomic)
    } catch {
        fail("cannot write \(output): \(error.localizedDescription)")
    }
} else {
    FileHandle.standardOutput.write(data)
}
FileHandle.standardError.write(Data("\(status) \(type) \(data.count) bytes in \(String(format: "%.1f", milliseconds)) ms\n".utf8))
exit(status < 400 ? 0 : 1)
