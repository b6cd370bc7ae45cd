import XCTest
import Synchronization
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs the built `urlscheme` binary the way a user does, against a real HTTP
/// server (python3's http.server) on loopback.
final class CommandLineToolTests: XCTestCase {
    private var binary: URL { ToolRun.binary }

    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ToolRun {
        try ToolRun(arguments, environment: environment)
    }

    func testGetSavesTheBodyAndReportsOnStandardError() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary.path), "build the urlscheme product first: \(binary.path)")
        let root = try makeTemporaryDirectory()
        let body = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        try body.write(to: root.appendingPathComponent("photo.png"))
        let server = try LoopbackFileServer(root: root, test: self)
        let cacheHome = try makeTemporaryDirectory()
        let output = root.appendingPathComponent("out.png").path
        let result = try run(["get", server.url("/photo.png"), "-o", output], environment: ["XDG_CACHE_HOME": cacheHome.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: output)), body)
        XCTAssertTrue(result.stderr.hasPrefix("200 image/png 5000 bytes in "), result.stderr)

        let toStdout = try run(["get", server.url("/photo.png"), "--no-cache"])
        XCTAssertEqual(toStdout.stdout, body)

        // A pipe or device (`-o /dev/null`) is written in place, never replaced by a renamed file.
        let fifo = root.appendingPathComponent("pipe").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let received = Mutex(Data())
        let reader = Thread {
            // Opening a pipe for reading waits for its writer; then read until the writer closes it.
            guard let handle = FileHandle(forReadingAtPath: fifo) else { return }
            let data = handle.readDataToEndOfFile()
            received.withLock { $0 = data }
        }
        reader.start()
        let piped = try run(["get", server.url("/photo.png"), "-o", fifo], environment: ["XDG_CACHE_HOME": cacheHome.path])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        for _ in 0..<100 where received.withLock({ $0.isEmpty }) { usleep(10_000) }
        XCTAssertEqual(received.withLock { $0 }, body)
        var status = stat()
        XCTAssertEqual(stat(fifo, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFIFO, "the pipe is still a pipe")
    }

    func testFailuresAreOneLineWithANonZeroExit() throws {
        let unsupported = try run(["get", "nosuchscheme://?a=1"])
        XCTAssertEqual(unsupported.status, 2)
        XCTAssertEqual(unsupported.stderr, "urlscheme: unsupported URL scheme 'nosuchscheme': urlscheme gets map://, asset://, "
                       + "avatar://, poll://, http://, https://, file:// URLs\n", "names the scheme and the ones that work")

        let missing = try run(["add", "no-such-photo.jpg", "--assets", try makeTemporaryDirectory().path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "urlscheme: cannot add no-such-photo.jpg: no such file\n")

        let usage = try run(["get"])
        XCTAssertEqual(usage.status, 2)
        XCTAssertEqual(usage.stderr, "urlscheme: no URL given; try 'urlscheme --help'\n")

        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(String(decoding: help.stdout, as: UTF8.self).contains("usage: urlscheme get URL"))
    }

    /// Static-map habits through the tool (issue 29, point 7): a Google-style
    /// URL is answered with the map:// spelling, and a zoom given with markers
    /// but no centre draws, centred on them.
    func testStaticMapHabitsThroughTheTool() throws {
        let habit = try run(["get", "map://?lat=59.9&lng=30.3&zoom=4", "--no-cache"])
        XCTAssertEqual(habit.status, 1, habit.stderr)
        XCTAssertTrue(habit.stderr.contains("parameter 'lat' is unknown; did you mean 'latitude'?"), habit.stderr)
        let google = try run(["get", "map://?center=59.9,30.3&size=600x400", "--no-cache"])
        XCTAssertTrue(google.stderr.contains("did you mean 'latitude=59.9&longitude=30.3'?"), google.stderr)

        let output = try makeTemporaryDirectory().appendingPathComponent("overlays.png")
        let drawn = try run(["get", "map://?marker=59.9386,30.3141&marker=55.7539,37.6208&zoom=4&width=64&height=48&labels=none",
                             "-o", output.path, "--no-cache"])
        XCTAssertEqual(drawn.status, 0, drawn.stderr)
        let image = try PNGDecoder().decode(Data(contentsOf: output))
        XCTAssertEqual([image.width, image.height], [64, 48])
    }

    /// `file://`, which Linux's URLSession does not load, is read by the tool itself.
    func testFileURLsAreRead() throws {
        let file = try makeTemporaryDirectory().appendingPathComponent("hello.txt")
        try Data("hello".utf8).write(to: file)
        let read = try run(["get", file.absoluteString])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(read.stdout, Data("hello".utf8))
        XCTAssertTrue(read.stderr.hasPrefix("200 application/octet-stream 5 bytes"), read.stderr)
        let gone = try run(["get", file.deletingLastPathComponent().appendingPathComponent("gone.txt").absoluteString])
        XCTAssertEqual(gone.status, 1)
        XCTAssertTrue(gone.stderr.hasSuffix("gone.txt: no such file\n"), gone.stderr)
    }

    /// add → get asset:// and avatar:// → list → remove, in a store directory of the test's own.
    func testAddedPhotosLoadByAssetAndAvatarURLs() throws {
        let assets = try makeTemporaryDirectory().path
        let photo = AssetFixtures.directory.appendingPathComponent("photo.jpg").path
        let added = try run(["add", photo, "--assets", assets])
        XCTAssertEqual(added.status, 0, added.stderr)
        let id = String(decoding: added.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(id.count, 26, id)

        let listed = try run(["list", "--assets", assets])
        XCTAssertEqual(String(decoding: listed.stdout, as: UTF8.self), "\(id)\tjpeg\t96x64\t\(try AssetFixtures.data("photo.jpg").count) bytes\n")

        let output = try makeTemporaryDirectory().appendingPathComponent("thumb.jpg")
        let got = try run(["get", "asset://?id=\(id)&width=48&rotate=90", "-o", output.path, "--no-cache", "--assets", assets])
        XCTAssertEqual(got.status, 0, got.stderr)
        let thumbnail = try JPEGDecoder().decode(Data(contentsOf: output))
        XCTAssertEqual([thumbnail.width, thumbnail.height], [48, 72])

        let avatar = try run(["get", "avatar://?id=\(id)&id=\(id)&size=40", "--no-cache"], environment: ["URLSCHEME_ASSETS": assets])
        XCTAssertEqual(avatar.status, 0, avatar.stderr)
        XCTAssertEqual(try PNGDecoder().decode(avatar.stdout).width, 40)

        XCTAssertEqual(try run(["remove", id, "--assets", assets]).status, 0)
        let gone = try run(["get", "asset://?id=\(id)", "--no-cache", "--assets", assets])
        XCTAssertEqual(gone.status, 1)
        XCTAssertTrue(gone.stderr.contains("no asset with id"), gone.stderr)

        let notAnImage = try run(["add", binary.path, "--assets", assets])
        XCTAssertEqual(notAnImage.status, 1)
        XCTAssertTrue(notAnImage.stderr.hasPrefix("urlscheme: cannot add "), notAnImage.stderr)
    }

    /// `urlscheme add photo.webp` and `photo.gif` store them; `get` edits a
    /// frame of each, equal to gifsicle's and libwebp's composited frame.
    func testAddedGIFAndWebPPhotosLoadByFrame() throws {
        let assets = try makeTemporaryDirectory()
        let gif = try AnimationFixtures.gif("disposal_previous"), webP = try AnimationFixtures.webP("anim_mux.webp")
        try gif.file.write(to: assets.appendingPathComponent("photo.gif"))
        try webP.file.write(to: assets.appendingPathComponent("photo.webp"))
        let store = assets.appendingPathComponent("store").path
        let added = try run(["add", assets.appendingPathComponent("photo.gif").path, assets.appendingPathComponent("photo.webp").path, "--assets", store])
        XCTAssertEqual(added.status, 0, added.stderr)
        let ids = String(decoding: added.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(ids.count, 2, "\(ids)")

        let listed = String(decoding: try run(["list", "--assets", store]).stdout, as: UTF8.self)
        XCTAssertTrue(listed.contains("\(ids[0])\tgif\t24x16\t\(gif.file.count) bytes"), listed)
        XCTAssertTrue(listed.contains("\(ids[1])\twebp\t48x40\t\(webP.file.count) bytes"), listed)

        let third = try run(["get", "asset://?id=\(ids[0])&frame=3&format=png", "--no-cache", "--assets", store])
        XCTAssertEqual(third.status, 0, third.stderr)
        XCTAssertTrue(try PNGDecoder().decode(third.stdout) == gif.frames[2], "gifsicle's third frame")
        let fifth = try run(["get", "asset://?id=\(ids[1])&frame=5&format=png", "--no-cache", "--assets", store])
        XCTAssertEqual(fifth.status, 0, fifth.stderr)
        XCTAssertEqual(AnimationFixtures.fnv1a64(try PNGDecoder().decode(fifth.stdout).pixels), webP.frames[4].hash, "libwebp's fifth frame")
        let past = try run(["get", "asset://?id=\(ids[1])&frame=9", "--no-cache", "--assets", store])
        XCTAssertEqual(past.status, 1)
        XCTAssertTrue(past.stderr.contains("parameter 'frame' asks for frame 9, but it has 8 frames (frame=1 to frame=8)"), past.stderr)
    }

    /// `urlscheme remove` reaches the disk cache another run filled: the
    /// removed photo's renditions are not answered even offline, and an
    /// avatar it was part of is drawn again with a grey tile.
    func testRemovingAPhotoPurgesItsCachedRenditions() throws {
        let assets = try makeTemporaryDirectory().path
        let environment = ["XDG_CACHE_HOME": try makeTemporaryDirectory().path, "URLSCHEME_ASSETS": assets]
        let added = try run(["add", AssetFixtures.directory.appendingPathComponent("photo.jpg").path], environment: environment)
        let id = String(decoding: added.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let other = String(decoding: try run(["add", AssetFixtures.directory.appendingPathComponent("logo.png").path], environment: environment).stdout,
                           as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let thumbnail = "asset://?id=\(id)&width=32", avatar = "avatar://?id=\(id)&id=\(other)&size=32"
        for url in [thumbnail, avatar] {
            XCTAssertEqual(try run(["get", url, "-o", "/dev/null"], environment: environment).status, 0)
            let cached = try run(["get", url, "-o", "/dev/null", "--offline"], environment: environment)
            XCTAssertEqual(cached.status, 0, "cached before the removal: \(cached.stderr)")
        }
        XCTAssertEqual(try run(["remove", id], environment: environment).status, 0)
        for url in [thumbnail, avatar] {
            let offline = try run(["get", url, "-o", "/dev/null", "--offline"], environment: environment)
            XCTAssertEqual(offline.status, 1, "\(url) is still cached")
            XCTAssertTrue(offline.stderr.contains("no cached response"), offline.stderr)
        }
        XCTAssertEqual(try run(["get", avatar, "-o", "/dev/null"], environment: environment).status, 0, "the other member is still drawn")
    }

    /// `get https://…` goes through the HTTP cache: the status line shows its
    /// Cache-Status, a repeat is a hit, and with the origin gone `--offline`
    /// (and a plain load) still answer from the store.
    func testHTTPLoadsAreCachedAndServedOffline() throws {
        let origin = try OriginServer(test: self)
        try origin.route("/page", headers: ["Cache-Control": "max-age=0", "ETag": "\"p1\"", "Content-Type": "text/html"], body: "<p>hi</p>")
        let environment = ["XDG_CACHE_HOME": try makeTemporaryDirectory().path]
        let url = origin.url("/page").absoluteString

        let first = try run(["get", url], environment: environment)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stderr.hasSuffix("ms (URLSchemeKit; fwd=uri-miss; fwd-status=200; stored)\n"), first.stderr)
        let second = try run(["get", url], environment: environment)
        XCTAssertTrue(second.stderr.contains("(URLSchemeKit; fwd=stale; fwd-status=304; stored)"), second.stderr)

        origin.stop()
        let offline = try run(["get", url, "--offline"], environment: environment)
        XCTAssertEqual(offline.status, 0, offline.stderr)
        XCTAssertEqual(String(decoding: offline.stdout, as: UTF8.self), "<p>hi</p>")
        XCTAssertTrue(offline.stderr.contains("(URLSchemeKit; hit; ttl="), offline.stderr)
        let unreachable = try run(["get", url], environment: environment)
        XCTAssertEqual(unreachable.status, 0, unreachable.stderr)
        XCTAssertTrue(unreachable.stderr.contains("(URLSchemeKit; fwd=stale; detail=offline)"), unreachable.stderr)

        let neverSeen = try run(["get", origin.url("/other").absoluteString, "--offline"], environment: environment)
        XCTAssertEqual(neverSeen.status, 1)
        XCTAssertTrue(neverSeen.stderr.hasPrefix("urlscheme: no stored response for "), neverSeen.stderr)
    }

    /// A process killed with SIGKILL at any moment while it stores a response
    /// leaves either the whole entry or none: a later load never gets a damaged
    /// body (entries are written to a temporary file, renamed, and checksummed).
    /// The 6 MiB body is past the 4 MiB spool threshold: it arrives through a
    /// spool file, and its entry is written behind the answer, then flushed
    /// before the process exits, so an unkilled run always leaves it whole.
    func testAProcessKilledWhileStoringLeavesNoDamagedEntry() throws {
        let origin = try OriginServer(test: self)
        let size = 6 << 20
        try origin.route("/big", headers: ["Cache-Control": "max-age=3600"], bodySize: size)
        let expected = Data((0..<size).map { UInt8(truncatingIfNeeded: $0) })
        let cacheHome = try makeTemporaryDirectory()
        let url = origin.url("/big").absoluteString
        // The whole load takes about 130 ms in a debug build: the kills sweep across it,
        // before the request, while the body arrives, while it is written, and after.
        for round in 0..<12 {
            try? FileManager.default.removeItem(at: cacheHome.appendingPathComponent("URLSchemeKit"))
            let process = Process()
            process.executableURL = binary
            process.arguments = ["get", url, "-o", cacheHome.appendingPathComponent("body").path]
            process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": cacheHome.path]) { $1 }
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(round * 12_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let after = try run(["get", url, "--offline"], environment: ["XDG_CACHE_HOME": cacheHome.path])
            if after.status == 0 {
                XCTAssertEqual(after.stdout, expected, "round \(round): a stored entry is whole")
            } else {
                XCTAssertTrue(after.stderr.contains("no stored response"), "round \(round): \(after.stderr)")
            }
        }
        try? FileManager.default.removeItem(at: cacheHome.appendingPathComponent("URLSchemeKit"))
        let whole = try run(["get", url, "-o", cacheHome.appendingPathComponent("body").path], environment: ["XDG_CACHE_HOME": cacheHome.path])
        XCTAssertEqual(whole.status, 0, whole.stderr)
        let stored = try run(["get", url, "--offline"], environment: ["XDG_CACHE_HOME": cacheHome.path])
        XCTAssertEqual(stored.status, 0, "a run that is not killed flushes its entry before it exits: \(stored.stderr)")
        XCTAssertEqual(stored.stdout, expected)
    }

    /// `urlscheme gallery DIR` on a fresh directory: a page whose every image
    /// file decodes, each shown with its URL, and plain progress lines when
    /// standard error is not a terminal.
    func testGalleryWritesAPageWhoseEveryImageDecodes() throws {
        let directory = try makeTemporaryDirectory().appendingPathComponent("gallery", isDirectory: true)
        let result = try run(["gallery", directory.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let html = try String(contentsOf: directory.appendingPathComponent("index.html"), encoding: .utf8)
        let sources = html.matches(of: /<img src="(images\/[^"]+)"/).map { String($0.1) }
        let urls = html.matches(of: /<code>([a-z]+):\/\/\?/).map { String($0.1) }
        XCTAssertGreaterThanOrEqual(sources.count, 20)
        XCTAssertEqual(urls.count, sources.count, "every image has its URL under it")
        XCTAssertEqual(Set(urls), ["asset", "avatar", "map", "poll"])
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("images").path)
        XCTAssertEqual(Set(files.map { "images/" + $0 }), Set(sources), "the page shows every file written, and only those")
        for source in sources {
            let data = try Data(contentsOf: directory.appendingPathComponent(source))
            let bitmap: Bitmap
            switch ImageFormat(sniffing: data) {
            case .png: bitmap = try PNGDecoder().decode(data)
            case .jpeg: bitmap = try JPEGDecoder().decode(data)
            case .gif?, .webp?, nil: return XCTFail("\(source) is neither PNG nor JPEG")
            }
            XCTAssertGreaterThan(bitmap.width * bitmap.height, 0, source)
        }
        XCTAssertTrue(html.contains("id=\"gallery-check\""), "the page carries the browser check's verdict element")
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.hasPrefix("gallery: ") }.count, sources.count, result.stderr)
        XCTAssertFalse(result.stderr.contains("\r"), "no bar when standard error is a pipe")
        XCTAssertTrue(lines.last?.hasPrefix("wrote \(directory.path)/index.html: \(sources.count) images") == true, result.stderr)
    }

    func testGalleryFailsClearlyWhenTheDirectoryIsNotWritable() throws {
        let root = try makeTemporaryDirectory()
        let file = root.appendingPathComponent("file.txt")
        try Data("not a directory".utf8).write(to: file)
        let inside = try run(["gallery", file.appendingPathComponent("gallery").path])
        XCTAssertEqual(inside.status, 1)
        XCTAssertEqual(inside.stderr, "urlscheme: cannot write the gallery to \(file.path)/gallery: Not a directory\n")
        // Root writes through permission bits, so a read-only directory only stops other users.
        if getuid() != 0 {
            let readOnly = root.appendingPathComponent("read-only", isDirectory: true)
            try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o500])
            let denied = try run(["gallery", readOnly.path])
            XCTAssertEqual(denied.status, 1)
            XCTAssertEqual(denied.stderr, "urlscheme: cannot write the gallery to \(readOnly.path): Permission denied\n")
        }
        let missing = try run(["gallery"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.hasPrefix("urlscheme: gallery needs one directory"), missing.stderr)
    }

    /// `--tiles NAME=ARCHIVE[,style=…]` makes a PMTiles archive (a file or an
    /// http(s) URL) the source `tiles=NAME` draws; every failure is one line naming what failed.
    func testGetDrawsAVectorSourceGivenWithTiles() throws {
        let tiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MapRenderingTests/Fixtures/tiles")
        let archive = tiles.appendingPathComponent("helsinki-openmaptiles.pmtiles").path
        let root = try makeTemporaryDirectory()
        let map = "map://?latitude=60.170&longitude=24.945&zoom=15&width=200&height=150&tiles=hel"
        var outputs: [String: Data] = [:]
        for (label, option) in [("auto", archive), ("dark", archive + ",style=dark"),
                                ("json", archive + ",style=" + tiles.appendingPathComponent("helsinki-label-free-style.json").path)] {
            let output = root.appendingPathComponent("\(label).png").path
            let result = try run(["get", map, "--no-cache", "--tiles", "hel=" + option, "-o", output])
            XCTAssertEqual(result.status, 0, "\(label): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("200 image/png "), result.stderr)
            let data = try Data(contentsOf: URL(fileURLWithPath: output))
            let bitmap = try PNGDecoder().decode(data)
            XCTAssertEqual([bitmap.width, bitmap.height], [200, 150])
            outputs[label] = data
        }
        XCTAssertNotEqual(outputs["auto"], outputs["dark"], "style=dark draws the dark style")

        // An archive on an HTTP server with Range support, named by URL.
        try FileManager.default.copyItem(atPath: archive, toPath: root.appendingPathComponent("hel.pmtiles").path)
        let server = try LoopbackFileServer(root: root, ranges: true, test: self)
        let cacheHome = ["XDG_CACHE_HOME": try makeTemporaryDirectory().path]
        let remote = try run(["get", map, "--tiles", "hel=" + server.url("/hel.pmtiles"), "-o", root.appendingPathComponent("remote.png").path], environment: cacheHome)
        XCTAssertEqual(remote.status, 0, remote.stderr)
        XCTAssertEqual(try Data(contentsOf: root.appendingPathComponent("remote.png")), outputs["auto"], "the same map as from the file")
        let firstRun = server.requests.count
        XCTAssertGreaterThan(firstRun, 1)
        // Another view of the same tiles in a later run: the ranges come from the disk cache.
        let later = try run(["get", map.replacingOccurrences(of: "width=200", with: "width=180"), "--tiles", "hel=" + server.url("/hel.pmtiles"),
                             "-o", root.appendingPathComponent("later.png").path], environment: cacheHome)
        XCTAssertEqual(later.status, 0, later.stderr)
        XCTAssertEqual(server.requests.count, firstRun + 1, "only the opening request")

        let unknown = try run(["get", map.replacingOccurrences(of: "tiles=hel", with: "tiles=city"), "--no-cache", "--tiles", "hel=" + archive, "--tiles", "sea=" + archive])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("names no registered tile source 'city'; registered: hel, sea"), unknown.stderr)
        let missing = try run(["get", map, "--no-cache", "--tiles", "hel=/no/such.pmtiles"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "urlscheme: --tiles hel: /no/such.pmtiles: no such file\n")
        let badStyle = try run(["get", map, "--no-cache", "--tiles", "hel=\(archive),style=/no/style.json"])
        XCTAssertEqual(badStyle.status, 1)
        XCTAssertEqual(badStyle.stderr, "urlscheme: /no/style.json: no such file\n")
        let malformed = try run(["get", map, "--tiles", "noequals"])
        XCTAssertEqual(malformed.status, 2)
        XCTAssertTrue(malformed.stderr.contains("expected NAME=ARCHIVE"), malformed.stderr)
    }

    /// `--tiles NAME=FOLDER` and `--tiles 'NAME=https://…/{z}/{x}/{y}.pbf,…'`
    /// draw what the archive draws; a template's tiles are kept in the disk
    /// HTTP cache, so a later run asks the server nothing; bad zooms are usage errors.
    func testGetDrawsAFolderOrURLTemplateGivenWithTiles() throws {
        let root = try makeTemporaryDirectory()
        let folder = root.appendingPathComponent("hel", isDirectory: true)
        _ = try VectorTileSetTests.extractFolder(to: folder)
        let map = "map://?latitude=60.170&longitude=24.945&zoom=16&width=200&height=150&tiles=hel"
        let server = try LoopbackFileServer(root: root, test: self)
        let cacheHome = ["XDG_CACHE_HOME": try makeTemporaryDirectory().path]
        var outputs: [String: Data] = [:]
        for (label, option, cache) in [("archive", VectorTileSetTests.archive.path, false), ("folder", folder.path + ",maxzoom=14", false),
                                       ("template", server.url("/hel/{z}/{x}/{y}.pbf") + ",minzoom=0,maxzoom=14", true)] {
            let output = root.appendingPathComponent("\(label).png").path
            let result = try run(["get", map, "--tiles", "hel=" + option, "-o", output] + (cache ? [] : ["--no-cache"]), environment: cacheHome)
            XCTAssertEqual(result.status, 0, "\(label): \(result.stderr)")
            outputs[label] = try Data(contentsOf: URL(fileURLWithPath: output))
        }
        XCTAssertEqual(outputs["folder"], outputs["archive"], "the folder draws the archive's map")
        XCTAssertEqual(outputs["template"], outputs["archive"], "the template draws the archive's map")
        let asked = server.requests.count
        XCTAssertGreaterThan(asked, 1)
        let later = try run(["get", map.replacingOccurrences(of: "width=200", with: "width=190"), "--tiles", "hel=" + server.url("/hel/{z}/{x}/{y}.pbf"),
                             "-o", root.appendingPathComponent("later.png").path], environment: cacheHome)
        XCTAssertEqual(later.status, 0, later.stderr)
        XCTAssertEqual(server.requests.count, asked, "the metadata and tiles come from the disk HTTP cache")

        let upsideDown = try run(["get", map, "--no-cache", "--tiles", "hel=\(folder.path),minzoom=5,maxzoom=2"])
        XCTAssertEqual(upsideDown.status, 2)
        XCTAssertEqual(upsideDown.stderr, "urlscheme: --tiles hel: minzoom 5 is above maxzoom 2\n")
        let archiveZooms = try run(["get", map, "--no-cache", "--tiles", "hel=\(VectorTileSetTests.archive.path),maxzoom=12"])
        XCTAssertEqual(archiveZooms.status, 2)
        XCTAssertTrue(archiveZooms.stderr.contains("an archive states its own"), archiveZooms.stderr)
    }
}
