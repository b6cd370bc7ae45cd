import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit

// ChatFeed: what a chat app's feed (or a server rendering one) asks of
// URLSchemeKit. Everything it shows is loaded by URL through one session:
// a map snapshot, edited photos, a group avatar, a page's image from the web
// (a local origin this program starts, so it runs anywhere; an https:// URL
// takes the same path), and an unread badge from a scheme of its own.
//
// Every image it loads is written into a folder to look at: the first
// argument, or ChatFeed-images in the current directory
// (`swift run ChatFeed /tmp/feed`); the last line says where.

let imagesFolder = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "ChatFeed-images", isDirectory: true).standardizedFileURL
try FileManager.default.createDirectory(at: imagesFolder, withIntermediateDirectories: true)
var written: [String] = []

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ChatFeed-\(getpid())", isDirectory: true)
defer { try? FileManager.default.removeItem(at: scratch) }
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)

// 1. One configured session: every URLSchemeKit scheme and the app's own,
//    with one environment: the photo store, the renderers (the built-in ones
//    and the badge's), the rendered images' cache and the HTTP cache.
let store = try FileAssetStore(directory: scratch.appendingPathComponent("assets"))
var renderers = SchemeRenderers()
renderers.set(BadgeRenderer())
let environment = URLSchemeKitEnvironment { environment in
    environment.assets = AssetImageSource(store: store)
    environment.imageCache = QueryKeyedURLCache(memoryCapacity: 32 << 20, diskCapacity: 64 << 20, directory: scratch.appendingPathComponent("images"))
    environment.httpCache = HTTPCache(directory: scratch.appendingPathComponent("web"))
    environment.renderers = renderers
}
let configuration = URLSessionConfiguration.ephemeral
configuration.installURLSchemeKit(environment, extraProtocols: [BadgeURLProtocol.self])
let session = URLSession(configuration: configuration)

/// Loads `request`, writes the image into `imagesFolder` (named for `label`)
/// and prints one line: what came back, from where, and the file.
@MainActor @discardableResult
func show(_ label: String, _ request: URLRequest) async throws -> Data {
    let (data, response) = try await session.data(for: request)
    let http = response as? HTTPURLResponse
    let type = http?.value(forHTTPHeaderField: "Content-Type") ?? "?"
    let info = try? ImageDecoder.readInfo(data)
    let size = info.map { " \($0.width)x\($0.height)" } ?? ""
    let cacheStatus = http?.value(forHTTPHeaderField: "Cache-Status").map { " [\($0)]" } ?? ""
    var file = ""
    if let info {
        let name = label.replacingOccurrences(of: " ", with: "-") + "." + (info.format == .jpeg ? "jpg" : info.format.rawValue)
        try data.write(to: imagesFolder.appendingPathComponent(name))
        written.append(name)
        file = " -> \(name)"
    }
    print("\(label): \(http?.statusCode ?? 0) \(type)\(size), \(data.count) bytes\(cacheStatus)\(file)")
    return data
}

@MainActor @discardableResult
func show(_ label: String, _ url: URL) async throws -> Data {
    try await show(label, URLRequest(url: url))
}

// 2. A map snapshot of the place a message shares.
try await show("map", try MapURL(options: MapSnapshotOptions(
    camera: .zoom(center: GeoCoordinate(latitude: 59.935634, longitude: 30.325935), zoom: 11),
    width: 240, height: 160, scale: 2,
    markers: [MapMarker(coordinate: GeoCoordinate(latitude: 59.935634, longitude: 30.325935))])).url)

// 3. Photos the user picked, stored once, then shown edited by URL.
var ids: [String] = []
for (index, colour) in [RGBA(200, 80, 60), RGBA(60, 140, 200), RGBA(90, 170, 90)].enumerated() {
    let photo = try Bitmap(width: 320, height: 240, fill: colour)
    let file = scratch.appendingPathComponent("photo\(index).jpg")
    try JPEGEncoder(quality: 90).encode(photo).write(to: file)
    ids.append(try store.add(contentsOf: file))
}
try await show("asset", try AssetURL(id: ids[0], width: 160, rotate: 90, filters: [.sepia]).url)

// 4. The chat's avatar, composed from its members' photos.
try await show("avatar", try AvatarURL(ids: ids, size: 96).url)

// 5. An image from a web page, through the HTTP cache: stored on the first
//    load, answered from the store on the second; with the origin gone, a
//    pull-to-refresh (a request that insists on the origin) still gets it.
let site = scratch.appendingPathComponent("site", isDirectory: true)
try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
let logoFile = site.appendingPathComponent("logo.png")
try PNGEncoder().encode(try Bitmap(width: 32, height: 32, fill: RGBA(250, 200, 40))).write(to: logoFile)
// Unchanged for ten days: the origin's Last-Modified gives it a day of heuristic freshness.
try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-10 * 86_400)], ofItemAtPath: logoFile.path)
let origin = try LocalOrigin(serving: site)
let logo = URL(string: "http://127.0.0.1:\(origin.port)/logo.png")!
try await show("web", logo)
try await show("web again", logo)
origin.stop()
var refresh = URLRequest(url: logo)
refresh.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
try await show("web offline", refresh)

// 6. The app's own scheme.
try await show("badge", BadgeURL(text: "42").url)

// 7. A mistake in a URL is an error that names it.
do {
    try await show("typo", URL(string: "map://?latitude=59.9&longitude=30.3&zoomm=4")!)
} catch {
    print("typo: \(error.localizedDescription)")
}
session.finishTasksAndInvalidate()
print("images: \(written.count) files in \(imagesFolder.path): \(written.joined(separator: " "))")
