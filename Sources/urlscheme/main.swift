import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit
import URLSchemeServer

// urlscheme: load any URL the package understands and save the body.

let usage = """
    usage: urlscheme get URL [-o FILE] [--reload] [--offline] [--no-cache] [--strict] [--assets DIR]
                         [--tiles NAME=ARCHIVE|FOLDER|URL-TEMPLATE[,style=FILE.json|light|dark]
                                  [,minzoom=Z][,maxzoom=Z]]...
           urlscheme add FILE... [--assets DIR]
           urlscheme list [--assets DIR]
           urlscheme remove ID... [--assets DIR]
           urlscheme gallery DIR [--tiles NAME=ARCHIVE|FOLDER|URL-TEMPLATE]...
           urlscheme render STYLE.json [-o FILE] [--size WxH] [--scale R] [--center LON,LAT]
                            [--zoom Z] [--bearing B] [--pitch P] [--no-cache] [--strict]
           urlscheme glyphs FONT.ttf OUT [--name NAME] [--ranges FIRST-LAST]
           urlscheme serve [--bind ADDR] [--port N] [--workers N] [--queue N] [--max-age S]
                           [--max-connections N] [--public-url URL] [--trust-proxy] [--leaflet DIR]
                           [--cors-origin ORIGIN|none] [--answer-cache MB] [--signing-key HEX[,HEX…] --signing-salt HEX[,HEX…]]
                           [--assets DIR] [--tiles …]... [--no-cache]

    get     Loads URL through a URLSession configured with every URLSchemeKit
            protocol, the shared QueryKeyedURLCache and, for http(s), the shared
            HTTPCache (both under ~/.cache/URLSchemeKit), writes the body to FILE
            (or standard output), and prints status, type, size, time and the
            Cache-Status of an http(s) answer to standard error.
    add     Stores PNG, JPEG, GIF or WebP files in the asset store (asset://
            edits an animation's first frame, or the one frame=N names, from 1)
            and prints each new id, for asset://?id=ID and avatar://?id=ID.
    list    Prints every stored asset: id, format, upright size, bytes.
    remove  Deletes assets.
    gallery Builds the seed app's screens (chat list of avatar://, conversations
            with map://, asset:// and poll://, both styles) as DIR/index.html
            plus DIR/images/, every image loaded through ImageLoader, each
            image's URL shown under it; progress on standard error. With
            --tiles, a street map of each source (its built-in style,
            light and dark, over the middle of its data) too.
    render  Draws a whole MapLibre style as MapLibre Native's mbgl-render does:
            its sources (tile templates, pmtiles://, GeoJSON, raster,
            raster-dem, image), sprites and glyphs from files beside it,
            file:// or http(s) (through the HTTP cache). The camera is the
            style's center, zoom (512-point tiles, as MapLibre), bearing and
            pitch unless given; 512x512 at scale 1 by default. Writes PNG to
            FILE (.jpg and .webp too) or standard output.
    glyphs  Makes MapLibre glyph ranges (signed-distance fields, as fontnik
            makes them) from a TrueType font: OUT/NAME/{start}-{end}.pbf for
            every 256 code points the font covers (or those of --ranges), NAME
            the font's family and style (Open Sans Semibold) unless --name.
            A style then says "glyphs": ".../OUT/{fontstack}/{range}.pbf".
    serve   Serves /map?…, /asset?…, /avatar?…, /poll?… (the scheme's query,
            loaded as get loads it), for each --tiles NAME raster tiles
            /tiles/NAME/{z}/{x}/{y}[@2x].png and /tiles/NAME.json, vector
            tiles /data/NAME/{z}/{x}/{y}.pbf, /data/NAME.json and
            /styles/NAME/style.json for MapLibre GL JS, tileserver-gl's
            /styles/NAME/static/LON,LAT,ZOOM/WxH.png, a Leaflet map viewer at
            / (Leaflet from --leaflet DIR, else Debian's libjs-leaflet),
            /health and /metrics over HTTP/1.1 until SIGTERM or SIGINT, then
            drains. Defaults: 127.0.0.1:8080, workers
            as many as cores, queue 64, max-age 86400, 512 connections, a
            64 MB answer cache. With a signing key (hex; several, comma-
            separated, for rotation) /map, /asset, /avatar, /poll and static
            maps answer only imgproxy-signed URLs /SIGNATURE/map?…, others 403.
            Every answer says Access-Control-Allow-Origin: * (--cors-origin),
            so pages of other origins may read tiles, styles and images.
            Each option also from URLSCHEME_BIND, URLSCHEME_PORT, URLSCHEME_WORKERS,
            URLSCHEME_QUEUE, URLSCHEME_MAX_AGE, URLSCHEME_MAX_CONNECTIONS,
            URLSCHEME_PUBLIC_URL, URLSCHEME_TRUST_PROXY=1, URLSCHEME_LEAFLET,
            URLSCHEME_CORS_ORIGIN,
            URLSCHEME_ANSWER_CACHE, URLSCHEME_SIGNING_KEY, URLSCHEME_SIGNING_SALT
            (prefer these for keys: flags show in ps),
            URLSCHEME_ASSETS, URLSCHEME_TILES (';' between sources) and
            URLSCHEME_NO_CACHE=1. Absolute URLs (TileJSON, styles) start with
            --public-url, else the request's Host (X-Forwarded-Proto/-Host
            only with --trust-proxy). One JSON access-log line per request on
            standard output. See docs/serving.md.

      -o, --output FILE   write the body to FILE instead of standard output
                          (nothing is written for an HTTP error). For map://,
                          asset://, avatar:// and poll:// URLs without format=,
                          FILE's .png or .jpg picks the format
      --reload            ignore cached responses (still stores the new one)
      --offline           answer from the caches only; fail if nothing is stored
      --no-cache          use no cache at all
      --strict            treat a warning (a style's, or a response's Warning
                          header) as an error: exit 1
      --assets DIR        the asset store's directory (default: $URLSCHEME_ASSETS,
                          else ~/.local/share/URLSchemeKit/Assets)
      --tiles NAME=SOURCE[,style=STYLE][,minzoom=Z][,maxzoom=Z]
                          makes SOURCE the vector tiles map:// draws with
                          tiles=NAME: a PMTiles archive (a file, or an http(s)
                          URL read with Range requests), a folder of
                          {z}/{x}/{y}.pbf (or .mvt) tiles, or an http(s) URL
                          template https://host/{z}/{x}/{y}.pbf (tiles kept in
                          the HTTP cache; 404 is an empty tile). STYLE is a
                          MapLibre style JSON file, or light or dark (default:
                          the built-in style for the tiles' schema, light or
                          dark as the URL's style=). minzoom/maxzoom: the zooms
                          a folder or template has (default: a folder's
                          metadata.json or zoom folders; 0-14 for a template).
                          What a style asks for that is not drawn is printed
                          once per style on standard error, as a warning
      -h, --help          show this help
    """

func fail(_ message: String, code: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("urlscheme: \(message)\n".utf8))
    exit(code)
}

/// Prints each of `warnings` on standard error, once each, in order.
func printWarnings(_ warnings: [String]) {
    var printed: Set<String> = []
    for warning in warnings where printed.insert(warning).inserted {
        FileHandle.standardError.write(Data("urlscheme: warning: \(warning)\n".utf8))
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments.contains("-h") || arguments.contains("--help") {
    print(usage)
    exit(arguments.isEmpty ? 2 : 0)
}
let command = arguments.removeFirst()
if command == "render" { RenderCommand.run(arguments) }
if command == "glyphs" { GlyphsCommand.run(arguments) }
guard ["get", "add", "list", "remove", "gallery", "serve"].contains(command) else { fail("unknown command '\(command)'; try 'urlscheme --help'", code: 2) }

var operands: [String] = []
var output: String?
var policy = URLRequest.CachePolicy.useProtocolCachePolicy
var useCache = true
var strict = false
var tileArguments: [String] = []
var serveArguments: [String] = []
var tileArgumentsFromFlags = false
/// The MapLibre style JSON of each `--tiles` source given one (a file, or `light`/`dark`), by name.
var servedStyles: [String: Data] = [:]
let processEnvironment = ProcessInfo.processInfo.environment
if command == "serve" {
    // What serve shares with get may come from the environment too (a flag wins: it is read after).
    tileArguments = processEnvironment["URLSCHEME_TILES"].map { $0.split(separator: ";").map(String.init) } ?? []
    useCache = processEnvironment["URLSCHEME_NO_CACHE"] != "1"
}
var assetDirectory = ProcessInfo.processInfo.environment["URLSCHEME_ASSETS"].map { URL(fileURLWithPath: $0, isDirectory: true) }
    ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/URLSchemeKit/Assets", isDirectory: true)
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "-o" where command == "get", "--output" where command == "get":
        guard !arguments.isEmpty else { fail("\(argument) needs a file name", code: 2) }
        output = arguments.removeFirst()
    case "--reload" where command == "get":
        policy = .reloadIgnoringLocalCacheData
    case "--offline" where command == "get":
        policy = .returnCacheDataDontLoad
    case "--no-cache" where command == "get" || command == "serve":
        useCache = false
    case "--strict" where command == "get":
        strict = true
    case "--tiles" where command == "get" || command == "gallery" || command == "serve":
        guard !arguments.isEmpty else { fail("--tiles needs NAME=ARCHIVE|FOLDER|URL-TEMPLATE", code: 2) }
        if !tileArgumentsFromFlags { tileArguments = [] }  // flags replace URLSCHEME_TILES
        tileArgumentsFromFlags = true
        tileArguments.append(arguments.removeFirst())
    case _ where command == "serve" && ServeOptions.switches.contains(argument):
        serveArguments.append(argument)
    case _ where command == "serve" && ServeOptions.flags.contains(argument):
        guard !arguments.isEmpty else { fail("\(argument) needs a value", code: 2) }
        serveArguments += [argument, arguments.removeFirst()]
    case "--assets":
        guard !arguments.isEmpty else { fail("--assets needs a directory", code: 2) }
        assetDirectory = URL(fileURLWithPath: arguments.removeFirst(), isDirectory: true)
    default:
        guard !argument.hasPrefix("-") else { fail("unexpected option '\(argument)' for '\(command)'", code: 2) }
        operands.append(argument)
    }
}

/// The environment serving the photos of `store`, its answers kept in
/// `imageCache` under a partition named for the store's directory, so that
/// later runs on the same store find them (and runs on another never do).
func assetEnvironment(_ store: FileAssetStore, imageCache: QueryKeyedURLCache?) -> URLSchemeKitEnvironment {
    URLSchemeKitEnvironment(assets: AssetImageSource(store: store), imageCache: imageCache, httpCache: nil,
                            cachePartition: "assets:" + store.directory.standardizedFileURL.path)
}

/// The environment `serve` answers from: the asset store's photos (in the
/// same cache partition `get` uses for them, so either finds what the other
/// rendered), every `--tiles` source (whose snapshot keys name the archive's
/// and style's contents, so sharing that partition is safe) and the caches.
@MainActor func servingEnvironment(_ store: FileAssetStore, imageCache: QueryKeyedURLCache?) -> URLSchemeKitEnvironment {
    var sources = MapTileSources()
    for argument in tileArguments {
        let (name, source) = openTileSource(argument)
        sources.register(name, source)
    }
    return URLSchemeKitEnvironment(assets: AssetImageSource(store: store), tileSources: sources, imageCache: imageCache,
                                   httpCache: useCache ? .standard : nil, cachePartition: "assets:" + store.directory.standardizedFileURL.path)
}

/// An error in one plain line: a file error as what went wrong ("no such
/// file"), anything else as its own description.
func plainDescription(_ error: Error) -> String {
    if let cocoa = error as? CocoaError {
        switch cocoa.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file"
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileReadCorruptFile: return "the file cannot be read"
        default: return cocoa.localizedDescription
        }
    }
    return "\(error)"
}

/// The vector source `NAME=SOURCE[,style=STYLE][,minzoom=Z][,maxzoom=Z]`
/// asks for (an archive, a folder or a URL template), opened (or a one-line failure).
@MainActor func openTileSource(_ argument: String) -> (String, VectorTileSource) {
    let expected = "expected NAME=ARCHIVE|FOLDER|URL-TEMPLATE[,style=FILE.json|light|dark][,minzoom=Z][,maxzoom=Z]"
    guard let equals = argument.firstIndex(of: "="), argument.startIndex != equals else {
        fail("--tiles \(argument): \(expected)", code: 2)
    }
    let name = String(argument[..<equals])
    guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
        fail("--tiles \(argument): the name '\(name)' may have letters, digits, '-' and '_' only", code: 2)
    }
    var location = String(argument[argument.index(after: equals)...])
    // Options come last, each ",key=value"; peeled off from the end so a URL's own commas stay.
    var options: [String: String] = [:]
    while let comma = location.lastIndex(of: ","), let optionEquals = location[comma...].firstIndex(of: "="),
          case let key = String(location[location.index(after: comma)..<optionEquals]), ["style", "minzoom", "maxzoom"].contains(key) {
        guard options[key] == nil else { fail("--tiles \(name): \(key) is given twice", code: 2) }
        options[key] = String(location[location.index(after: optionEquals)...])
        location = String(location[..<comma])
    }
    var style = VectorSourceStyle.automatic
    switch options["style"] {
    case nil: break
    case "light": style = .builtin(.light)
    case "dark": style = .builtin(.dark)
    case let file?:
        // Read when the source opens, with the sprites and glyphs it names beside it.
        style = .file(URL(fileURLWithPath: file))
    }
    func zoom(_ key: String) -> Int? {
        guard let text = options[key] else { return nil }
        guard let zoom = Int(text), (0...24).contains(zoom) else { fail("--tiles \(name): \(key)=\(text) is not a zoom from 0 to 24", code: 2) }
        return zoom
    }
    let minimumZoom = zoom("minzoom"), maximumZoom = zoom("maxzoom")
    guard !location.isEmpty else { fail("--tiles \(argument): no archive, folder or URL template given", code: 2) }
    let isRemote = location.hasPrefix("http://") || location.hasPrefix("https://")
    var isDirectory: ObjCBool = false
    let isFolder = !isRemote && FileManager.default.fileExists(atPath: location, isDirectory: &isDirectory) && isDirectory.boolValue
    var zoomRange: ClosedRange<Int>?
    if minimumZoom != nil || maximumZoom != nil {
        let low = minimumZoom ?? 0, high = maximumZoom ?? (isFolder ? 24 : VectorTileSource.defaultZoomRange.upperBound)
        guard low <= high else { fail("--tiles \(name): minzoom \(low) is above maxzoom \(high)", code: 2) }
        zoomRange = low...high
    }
    let source = openVectorSource(name: name, location: location, isRemote: isRemote, isFolder: isFolder, zoomRange: zoomRange, style: style)
    // The style serve hands browsers (/styles/NAME/style.json); the automatic one the server finds itself.
    switch style {
    case .json(let data, _): servedStyles[name] = data
    case .file(let file): servedStyles[name] = styleForServing(file)
    case .builtin(let look): servedStyles[name] = (try? BuiltinVectorStyle.Schema(detecting: source.tiles)).map { Data(BuiltinVectorStyle(schema: $0, look: look).json.utf8) }
    case .automatic: break
    }
    // A style's warnings, once per style (a style file is both looks' style).
    let warnings = source.lightStyle.warnings + source.darkStyle.warnings
    printWarnings(warnings)
    if strict && !warnings.isEmpty {
        fail("--tiles \(name): the style has \(Set(warnings).count) warning\(Set(warnings).count == 1 ? "" : "s"), and --strict makes them errors")
    }
    return (name, source)
}

/// The style file `file` as `serve` hands it on, its relative `sprite` and
/// `glyphs` made absolute paths from the file's folder (the server reads them
/// from there, whatever its working directory); nil when it cannot be read
/// (opening its source has said why).
func styleForServing(_ file: URL) -> Data? {
    guard let data = try? VectorTileSource.readStyle(file, budget: ResourceBudget()),
          var document = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
    let folder = file.deletingLastPathComponent().path
    func absolute(_ url: String) -> String {
        url.hasPrefix("/") || url.contains("://") || url.hasPrefix("mapbox:") ? url : folder + "/" + url
    }
    if let glyphs = document["glyphs"] as? String { document["glyphs"] = absolute(glyphs) }
    if let sprite = document["sprite"] as? String {
        document["sprite"] = absolute(sprite)
    } else if let sprites = document["sprite"] as? [[String: Any]] {
        document["sprite"] = sprites.map { entry in entry.merging(["url": absolute(entry["url"] as? String ?? "")]) { $1 } }
    }
    return try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
}

/// The source `--tiles NAME=LOCATION` names, opened (or a one-line failure).
@MainActor func openVectorSource(name: String, location: String, isRemote: Bool, isFolder: Bool, zoomRange: ClosedRange<Int>?,
                                 style: VectorSourceStyle) -> VectorTileSource {
    do {
        // Tiles, and a style's http(s) sprites and glyphs, are fetched through a session over the
        // HTTP cache: kept there as the server's answers.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: nil, httpCache: useCache ? .standard : nil))
        if isRemote && location.contains("{z}") {
            return try VectorTileSource.open(template: location, zoomRange: zoomRange, style: style, configuration: configuration)
        }
        if isFolder {
            return try VectorTileSource.open(folder: URL(fileURLWithPath: location, isDirectory: true), zoomRange: zoomRange, style: style,
                                             configuration: configuration)
        }
        guard zoomRange == nil else { fail("--tiles \(name): minzoom and maxzoom are for a folder or URL template; an archive states its own", code: 2) }
        let archive = isRemote ? URL(string: location) : URL(fileURLWithPath: location)
        guard let archive else { fail("--tiles \(name): '\(location)' is not a URL", code: 2) }
        // An http(s) archive's ranges are kept in the image cache, so a later run reads them from disk.
        return try VectorTileSource.open(archive, style: style, configuration: configuration, rangeStore: useCache ? .standard : nil)
    } catch let error as VectorStyleError where error.file != nil {
        fail("\(error)")  // my.json:14:30: layer …: the file, line and column name the place
    } catch {
        if "\(error)".contains("MBTiles (SQLite)") {
            let base = (location as NSString).deletingPathExtension
            let converted = base + (location.lowercased().hasSuffix(".mbtiles") ? ".pmtiles" : "-converted.pmtiles")
            fail("--tiles \(name): \(location) is an MBTiles file, which urlscheme does not read; convert it once with "
                 + "'pmtiles convert \(location) \(converted)' (https://github.com/protomaps/go-pmtiles) and give \(converted)")
        }
        // The path as the user wrote it, once (the library names the absolute path).
        let absolute = URL(fileURLWithPath: location).path
        var message = plainDescription(error)
        if !isRemote, absolute != location { message = message.replacingOccurrences(of: absolute, with: location) }
        fail("--tiles \(name): \(message)")
    }
}

/// The asset store at `assetDirectory`, created if missing.
@MainActor func openStore() -> FileAssetStore {
    do {
        return try FileAssetStore(directory: assetDirectory)
    } catch {
        fail("cannot open the asset store at \(assetDirectory.path): \(error.localizedDescription)")
    }
}

switch command {
case "add":
    let store = openStore()
    guard !operands.isEmpty else { fail("no file given; try 'urlscheme --help'", code: 2) }
    for path in operands {
        do {
            print(try store.add(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            fail("cannot add \(path): \(plainDescription(error))")
        }
    }
    exit(0)
case "list":
    let store = openStore()
    do {
        for id in try store.list().sorted() {
            let metadata = try store.metadata(for: id)
            let size = metadata.uprightSize
            print("\(id)\t\(metadata.format.rawValue)\t\(size.width)x\(size.height)\t\(metadata.byteCount) bytes")
        }
    } catch {
        fail("cannot list \(assetDirectory.path): \(error)")
    }
    exit(0)
case "gallery":
    guard operands.count == 1 else { fail("gallery needs one directory; try 'urlscheme --help'", code: 2) }
    do {
        let streetMaps = tileArguments.map(openTileSource)
        let result = try await GalleryBuilder(directory: URL(fileURLWithPath: operands[0], isDirectory: true), streetMaps: streetMaps).run()
        GalleryProgress.note("wrote \(operands[0])/index.html: \(result.imageCount) images, \(result.byteCount) bytes in \(String(format: "%.2f", result.seconds)) s"
            + " (loader: \(result.statistics.sessionLoads) session loads, \(result.statistics.joins) joined a prefetch in flight, \(result.statistics.memoryHits) found it done, \(result.statistics.decodes) decodes)")
    } catch {
        fail("\(error)")
    }
    exit(0)
case "remove":
    // Through the environment, so the cached renditions of the photo go with it.
    let environment = assetEnvironment(openStore(), imageCache: .standard)
    for id in operands {
        do {
            try environment.removeAsset(id)
        } catch {
            fail("cannot remove \(id): \(error)")
        }
    }
    exit(0)
case "serve":
    guard operands.isEmpty else { fail("unexpected argument '\(operands[0])' for 'serve'", code: 2) }
    let configuration: ServerConfiguration
    do {
        configuration = try ServeOptions.configuration(arguments: serveArguments, environment: processEnvironment)
    } catch {
        fail("\(error)", code: 2)
    }
    let environment = servingEnvironment(openStore(), imageCache: useCache ? .standard : nil)
    // Access-log lines on standard output, written in batches (AccessLogWriter).
    let accessLog = AccessLogWriter()
    let server = SchemeServer(environment: environment, configuration: configuration, styles: servedStyles) { line in
        accessLog.write(line)
    }
    await ServeOptions.serve(server, accessLog: accessLog)
default:
    break
}

guard operands.count <= 1 else { fail("unexpected argument '\(operands[1])'", code: 2) }
guard let urlText = operands.first else { fail("no URL given; try 'urlscheme --help'", code: 2) }
guard var url = URL(string: urlText), let scheme = url.scheme?.lowercased() else { fail("'\(urlText)' is not a URL", code: 2) }
let supportedSchemes = [MapURL.scheme, AssetURL.scheme, AvatarURL.scheme, PollURL.scheme, "http", "https", "file"]
guard supportedSchemes.contains(scheme) else {
    fail("unsupported URL scheme '\(scheme)': urlscheme gets " + supportedSchemes.map { $0 + "://" }.joined(separator: ", ") + " URLs", code: 2)
}
if let output {
    do {
        url = try OutputFileFormat.url(url, writingTo: output)
    } catch {
        fail("\(error)", code: 2)
    }
}
let imageCache: QueryKeyedURLCache? = useCache ? .standard : nil
let environment: URLSchemeKitEnvironment
if url.scheme == AssetURL.scheme || url.scheme == AvatarURL.scheme {
    environment = assetEnvironment(openStore(), imageCache: imageCache)
} else if !tileArguments.isEmpty {
    var sources = MapTileSources()
    for argument in tileArguments {
        let (name, source) = openTileSource(argument)
        sources.register(name, source)
    }
    // Every vector snapshot's cache key names its archive's and style's
    // contents, so one partition serves every run safely.
    environment = URLSchemeKitEnvironment(tileSources: sources, imageCache: imageCache, httpCache: useCache ? .standard : nil,
                                          cachePartition: "urlscheme-tiles")
} else {
    environment = URLSchemeKitEnvironment(imageCache: imageCache, httpCache: useCache ? .standard : nil)
}
let configuration = URLSessionConfiguration.ephemeral
configuration.installURLSchemeKit(environment)
let session = URLSession(configuration: configuration)

let start = DispatchTime.now()
let result: (Data, URLResponse)
do {
    if url.isFileURL {
        // Linux's URLSession has no file protocol: read it here, typed by its content.
        let body = try Data(contentsOf: url)
        let type = ImageFormat(sniffing: body.prefix(ImageFormat.sniffedByteCount))?.mimeType ?? "application/octet-stream"
        result = (body, URLResponse(url: url, mimeType: type, expectedContentLength: body.count, textEncodingName: nil))
    } else {
        result = try await session.data(for: URLRequest(url: url, cachePolicy: policy))
    }
} catch {
    fail(url.isFileURL ? "cannot read \(url.path): \(plainDescription(error))" : error.localizedDescription)
}
let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
let (data, response) = result
// The caches write behind the answer: their files must be whole before the process exits.
environment.imageCache?.flush()
environment.httpCache?.flush()
let status = (response as? HTTPURLResponse)?.statusCode ?? 200
let type = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") ?? response.mimeType ?? "unknown type"

// What the answer lacks (a map view outside its tiles' data), said by a Warning header.
let responseWarnings = ((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Warning")).map(RenderedImage.warnings(inHeader:)) ?? []
printWarnings(responseWarnings)
let cacheStatus = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Cache-Status").map { " (\($0))" } ?? ""
let statusLine = "\(status) \(type) \(data.count) bytes in \(String(format: "%.1f", milliseconds)) ms\(cacheStatus)"
if strict && !responseWarnings.isEmpty {
    fail("the answer has \(responseWarnings.count) warning\(responseWarnings.count == 1 ? "" : "s"), and --strict makes them errors")
}

if let output {
    // An error page is not the file asked for: nothing is written, and the file there stays.
    guard status < 400 else { fail("\(statusLine); nothing written to \(output)") }
    do {
        // A new or regular file is replaced atomically; anything else (/dev/null, a pipe)
        // is written in place: an atomic write would rename a file over the device.
        var status = stat()
        let isSpecial = stat(output, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG
        try data.write(to: URL(fileURLWithPath: output), options: isSpecial ? [] : .atomic)
    } catch {
        fail("cannot write \(output): \(plainDescription(error))")
    }
} else {
    FileHandle.standardOutput.write(data)
}
FileHandle.standardError.write(Data("\(statusLine)\n".utf8))
exit(status < 400 ? 0 : 1)
