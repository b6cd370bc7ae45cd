import XCTest
import ImageCodecs
@testable import URLSchemeKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 41's newcomer, replayed: each trip that used to pass in silence (a
/// `200`, exit 0, nothing said) driven through the built `urlscheme` as they
/// drove it, now answered on standard error.
final class NewcomerTripTests: XCTestCase {
    static let tiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MapRenderingTests/Fixtures/tiles")
    static let archive = tiles.appendingPathComponent("helsinki-openmaptiles.pmtiles").path
    static let map = "map://?latitude=60.170&longitude=24.945&zoom=15&width=200&height=150&tiles=hel"

    /// A style of their own with a `color-relief` layer, a `fill-pattern`, the typo
    /// `line-colour` and Protomaps' `buildings` on an OpenMapTiles archive.
    static let style = """
        {
          "version": 8,
          "sources": {"hel": {"type": "vector", "url": "pmtiles://hel.pmtiles"}},
          "layers": [
            {"id": "bg", "type": "background", "paint": {"background-color": "#f8f4f0"}},
            {"id": "pois", "type": "color-relief", "source": "hel", "source-layer": "poi"},
            {"id": "parks", "type": "fill", "source": "hel", "source-layer": "park", "paint": {"fill-pattern": "dots", "fill-color": "green"}},
            {"id": "houses", "type": "fill", "source": "hel", "source-layer": "buildings", "paint": {"fill-color": "#ccc"}},
            {"id": "roads-casing", "type": "line", "source": "hel", "source-layer": "transportation",
             "paint": {"line-colour": "#999", "line-width": 3}}
          ]
        }
        """

    /// Trips 1, 2 and 8: every warning printed once, with the style's file
    /// name, before the status line; `--strict` makes them an error.
    func testAStylesWarningsArePrintedWithItsFileName() throws {
        _ = try CLIBinary.require()
        let directory = try makeTemporaryDirectory()
        try Data(Self.style.utf8).write(to: directory.appendingPathComponent("my.json"))
        let drawn = try ToolRun(["get", Self.map, "--no-cache", "--tiles", "hel=\(Self.archive),style=my.json", "-o", "map.png"], in: directory)
        XCTAssertEqual(drawn.status, 0, drawn.stderr)
        let lines = drawn.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(lines.dropLast()), [
            "urlscheme: warning: my.json: layer 'pois': layer type 'color-relief' is not supported",
            "urlscheme: warning: my.json: layer 'roads-casing': paint property 'line-colour' is not supported; did you mean 'line-color'?",
            "urlscheme: warning: my.json: image 'dots' is not in the sprite: layer 'parks' draws no fill-pattern",
            "urlscheme: warning: my.json: layer 'houses': source-layer 'buildings' is not in the tiles, so the layer draws nothing; "
                + "did you mean 'building'? (the tiles have aerodrome_label, aeroway, boundary, building, housenumber, landcover, landuse, "
                + "mountain_peak, park, place, poi, transportation, transportation_name, water, water_name, waterway)",
        ])
        XCTAssertTrue(lines.last?.hasPrefix("200 image/png ") == true, drawn.stderr)

        let strict = try ToolRun(["get", Self.map, "--no-cache", "--strict", "--tiles", "hel=\(Self.archive),style=my.json", "-o", "strict.png"], in: directory)
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.stderr.hasSuffix("urlscheme: --tiles hel: the style has 4 warnings, and --strict makes them errors\n"), strict.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("strict.png").path))

        // The built-in style has nothing to warn of: --strict passes.
        let builtin = try ToolRun(["get", Self.map, "--no-cache", "--strict", "--tiles", "hel=\(Self.archive)", "-o", "builtin.png"], in: directory)
        XCTAssertEqual(builtin.status, 0, builtin.stderr)
        XCTAssertFalse(builtin.stderr.contains("warning"), builtin.stderr)
    }

    /// Trip 4: a style error names the style's file, line and column, then the
    /// layer and property, in one sentence; so does a JSON syntax error.
    func testStyleErrorsNameTheFileLineAndColumn() throws {
        _ = try CLIBinary.require()
        let directory = try makeTemporaryDirectory()
        try Data(Self.style.replacingOccurrences(of: #""line-width": 3"#, with: #""line-width": "wide""#).utf8)
            .write(to: directory.appendingPathComponent("my.json"))
        let wide = try ToolRun(["get", Self.map, "--no-cache", "--tiles", "hel=\(Self.archive),style=my.json"], in: directory)
        XCTAssertEqual(wide.status, 1)
        XCTAssertEqual(wide.stderr, "urlscheme: my.json:10:53: layer 'roads-casing': paint 'line-width': 'wide' is not a valid value\n")

        try Data(Self.style.replacingOccurrences(of: #""line-width": 3"#, with: #""line-width": 3,"#).utf8)
            .write(to: directory.appendingPathComponent("comma.json"))
        let comma = try ToolRun(["get", Self.map, "--no-cache", "--tiles", "hel=\(Self.archive),style=comma.json"], in: directory)
        XCTAssertEqual(comma.status, 1)
        XCTAssertEqual(comma.stderr, "urlscheme: comma.json:10:55: the style is not valid JSON: a member name expected\n")
    }

    /// Trip 5: a missing archive is named once, as given, in our words; an
    /// MBTiles file is named as not read, with the command that converts it.
    func testFileErrorsNameThePathOnceAndMBTilesTheConversion() throws {
        _ = try CLIBinary.require()
        let directory = try makeTemporaryDirectory()
        try FileManager.default.copyItem(atPath: Self.tiles.appendingPathComponent("helsinki-openmaptiles.mbtiles").path,
                                         toPath: directory.appendingPathComponent("hel.mbtiles").path)
        let missing = try ToolRun(["get", Self.map, "--no-cache", "--tiles", "hel=hel.pmtiles"], in: directory)
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "urlscheme: --tiles hel: hel.pmtiles: no such file\n")

        let mbtiles = try ToolRun(["get", Self.map, "--no-cache", "--tiles", "hel=hel.mbtiles"], in: directory)
        XCTAssertEqual(mbtiles.status, 1)
        XCTAssertEqual(mbtiles.stderr, "urlscheme: --tiles hel: hel.mbtiles is an MBTiles file, which urlscheme does not read; convert it once with "
                       + "'pmtiles convert hel.mbtiles hel.pmtiles' (https://github.com/protomaps/go-pmtiles) and give hel.pmtiles\n")
    }

    /// Trip 3: a view a few streets east of the extract, or at `zoom=3`,
    /// still draws, and says why it is blank: a `Warning` header the tool
    /// prints (also when the answer comes from the disk cache); a view with
    /// data has none.
    func testAViewWithNoDataSaysSo() throws {
        _ = try CLIBinary.require()
        let directory = try makeTemporaryDirectory()
        let cache = ["XDG_CACHE_HOME": try makeTemporaryDirectory().path]
        let east = Self.map.replacingOccurrences(of: "longitude=24.945", with: "longitude=24.99")
        let outside = try ToolRun(["get", east, "--tiles", "hel=\(Self.archive)", "-o", "east.png"], environment: cache, in: directory)
        XCTAssertEqual(outside.status, 0, outside.stderr)
        let warning = "urlscheme: warning: tile source 'hel': the view (24.9857–24.9943 E, 60.1684–60.1716 N) shows none of the tiles' data "
            + "(24.9352–24.9534 E, 60.1642–60.1791 N): only the style's background is drawn\n"
        XCTAssertTrue(outside.stderr.hasPrefix(warning), outside.stderr)
        XCTAssertEqual(try PNGDecoder().decode(Data(contentsOf: directory.appendingPathComponent("east.png"))).width, 200, "still drawn")
        let cached = try ToolRun(["get", east, "--offline", "--tiles", "hel=\(Self.archive)", "-o", "east.png"], environment: cache, in: directory)
        XCTAssertEqual(cached.status, 0, cached.stderr)
        XCTAssertTrue(cached.stderr.hasPrefix(warning), "the stored answer keeps its warning: \(cached.stderr)")

        let far = try ToolRun(["get", Self.map.replacingOccurrences(of: "zoom=15", with: "zoom=3"), "--no-cache", "--tiles", "hel=\(Self.archive)", "-o", "far.png"],
                              in: directory)
        XCTAssertEqual(far.status, 0, far.stderr)
        XCTAssertTrue(far.stderr.hasPrefix("urlscheme: warning: tile source 'hel': the tiles' data (24.9352–24.9534 E, 60.1642–60.1791 N) "
                                           + "is 0.1 × 0.2 pixels in this view at zoom 3: zoom in to see it\n"), far.stderr)
        let strict = try ToolRun(["get", east, "--no-cache", "--strict", "--tiles", "hel=\(Self.archive)", "-o", "strict.png"], in: directory)
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.stderr.hasSuffix("urlscheme: the answer has 1 warning, and --strict makes them errors\n"), strict.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("strict.png").path), "nothing written")

        let inside = try ToolRun(["get", Self.map, "--no-cache", "--tiles", "hel=\(Self.archive)", "-o", "inside.png"], in: directory)
        XCTAssertEqual(inside.status, 0, inside.stderr)
        XCTAssertFalse(inside.stderr.contains("warning"), inside.stderr)
    }

    /// Trip 3 through the API: the `Warning` header of a `map://` answer from
    /// a URLSession, read back with `RenderedImage.warnings(inHeader:)`.
    func testTheWarningIsAResponseHeader() async throws {
        var sources = MapTileSources()
        sources.register("hel", try VectorTileSource.open(URL(fileURLWithPath: Self.archive)))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(tileSources: sources, imageCache: nil, httpCache: nil))
        let session = URLSession(configuration: configuration)
        let (_, response) = try await session.data(from: try XCTUnwrap(URL(string: Self.map.replacingOccurrences(of: "latitude=60.170", with: "latitude=60.19"))))
        let header = try XCTUnwrap((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Warning"))
        XCTAssertTrue(header.hasPrefix("199 - \"tile source 'hel': the view ("), header)
        XCTAssertEqual(RenderedImage.warnings(inHeader: header).count, 1)
        XCTAssertTrue(RenderedImage.warnings(inHeader: header)[0].hasSuffix("only the style's background is drawn"))
        let (_, inside) = try await session.data(from: try XCTUnwrap(URL(string: Self.map)))
        XCTAssertNil((inside as? HTTPURLResponse)?.value(forHTTPHeaderField: "Warning"))
    }

    /// A warning's quotes survive the header's quoting.
    func testWarningHeaderRoundTrips() {
        let image = RenderedImage(data: Data(), mimeType: "image/png", warnings: [#"a "quoted" \ one"#, "two, with a comma"])
        XCTAssertEqual(RenderedImage.warnings(inHeader: image.warningHeader ?? ""), [#"a "quoted" \ one"#, "two, with a comma"])
        XCTAssertNil(RenderedImage(data: Data(), mimeType: "image/png").warningHeader)
    }

    /// Trip 6: `-o x.png` of a photo (JPEG by default, being opaque) writes
    /// PNG and `-o x.webp` WebP; a `.gif` file, or one that disagrees with the URL's `format=`, is
    /// refused with the fix; a 404 page is never written into the file.
    func testOutputFilesHoldWhatTheirNamesSay() throws {
        _ = try CLIBinary.require()
        let directory = try makeTemporaryDirectory()
        let assets = ["URLSCHEME_ASSETS": directory.appendingPathComponent("store").path]
        let added = try ToolRun(["add", AssetFixtures.directory.appendingPathComponent("photo.jpg").path], environment: assets)
        XCTAssertEqual(added.status, 0, added.stderr)
        let id = String(decoding: added.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)

        for (file, format) in [("x.png", ImageFormat.png), ("x.jpg", .jpeg), ("x.JPEG", .jpeg), ("x.webp", .webp), ("x.gif", .gif)] {
            let got = try ToolRun(["get", "asset://?id=\(id)&width=48", "--no-cache", "-o", file], environment: assets, in: directory)
            XCTAssertEqual(got.status, 0, got.stderr)
            XCTAssertEqual(ImageFormat(sniffing: try Data(contentsOf: directory.appendingPathComponent(file))), format, file)
        }
        let tiff = try ToolRun(["get", "asset://?id=\(id)", "--no-cache", "-o", "x.tiff"], environment: assets, in: directory)
        XCTAssertEqual(tiff.status, 2)
        XCTAssertEqual(tiff.stderr, "urlscheme: -o x.tiff: urlscheme writes PNG, JPEG, WebP or GIF; name the file .png, .jpg, .webp or .gif\n")
        let disagreeing = try ToolRun(["get", "asset://?id=\(id)&format=jpeg", "--no-cache", "-o", "y.png"], environment: assets, in: directory)
        XCTAssertEqual(disagreeing.status, 2)
        XCTAssertEqual(disagreeing.stderr, "urlscheme: -o y.png is a .png file, but the URL asks for format=jpeg; name the file .jpg or drop format= from the URL\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("y.png").path))
        // Another name says nothing about the format: the URL's default stands.
        let plain = try ToolRun(["get", "asset://?id=\(id)", "--no-cache", "-o", "photo.out"], environment: assets, in: directory)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(ImageFormat(sniffing: try Data(contentsOf: directory.appendingPathComponent("photo.out"))), .jpeg)

        let server = try LoopbackFileServer(root: directory, test: self)
        let previous = Data("the file from before".utf8)
        try previous.write(to: directory.appendingPathComponent("kept.png"))
        for file in ["kept.png", "new.png"] {
            let missing = try ToolRun(["get", server.url("/no-such.png"), "--no-cache", "-o", file], in: directory)
            XCTAssertEqual(missing.status, 1)
            XCTAssertTrue(missing.stderr.hasPrefix("urlscheme: 404 "), missing.stderr)
            XCTAssertTrue(missing.stderr.hasSuffix("; nothing written to \(file)\n"), missing.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: directory.appendingPathComponent("kept.png")), previous, "the file there stays as it was")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("new.png").path), "no file is made")
    }

    /// Trip 7: the README's example as written (a 1600×1200 photo, `width=640`),
    /// and `enlarge=false`, which never scales a smaller photo up (by default
    /// `asset://` does: the URL asks for those pixels).
    func testTheREADMEPhotoAndEnlargeFalse() throws {
        _ = try CLIBinary.require()
        let directory = try makeTemporaryDirectory()
        let assets = ["URLSCHEME_ASSETS": directory.appendingPathComponent("store").path]
        func add(_ name: String) throws -> String {
            let added = try ToolRun(["add", AssetFixtures.directory.appendingPathComponent(name).path], environment: assets)
            XCTAssertEqual(added.status, 0, added.stderr)
            return String(decoding: added.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func size(_ query: String, _ id: String) throws -> [Int] {
            let got = try ToolRun(["get", "asset://?id=\(id)&\(query)", "--no-cache", "-o", "out.png"], environment: assets, in: directory)
            XCTAssertEqual(got.status, 0, got.stderr)
            let bitmap = try PNGDecoder().decode(Data(contentsOf: directory.appendingPathComponent("out.png")))
            return [bitmap.width, bitmap.height]
        }
        let photo = try add("photo-1600x1200.jpg")
        let listed = String(decoding: try ToolRun(["list"], environment: assets).stdout, as: UTF8.self)
        XCTAssertTrue(listed.contains("\(photo)\tjpeg\t1600x1200\t"), listed)
        XCTAssertEqual(try size("width=640&rotate=90&filter=sepia", photo), [640, 853], "a downscale, as the README says")
        XCTAssertEqual(try size("width=640&enlarge=false", photo), [640, 480], "a smaller box is unchanged by enlarge=false")

        let small = try add("photo.jpg")  // 96×64
        XCTAssertEqual(try size("width=640", small), [640, 427], "enlarged by default")
        XCTAssertEqual(try size("width=640&enlarge=false", small), [96, 64])
        XCTAssertEqual(try size("width=640&height=640&enlarge=false", small), [96, 64])
        XCTAssertEqual(try size("width=640&height=320&mode=fill&enlarge=false", small), [96, 48], "the largest 2:1 part, unscaled")
        XCTAssertEqual(try size("width=640&height=32&mode=stretch&enlarge=false", small), [96, 32])
        let bad = try ToolRun(["get", "asset://?id=\(small)&width=640&enlarge=no", "--no-cache"], environment: assets)
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("parameter 'enlarge' must be true, false, 1 or 0, got 'no'"), bad.stderr)
    }

    /// Trip 10: `urlscheme gallery DIR --tiles hel=…` adds the street map,
    /// light and dark, over the archive's data, to the page.
    func testTheGalleryShowsAStreetMap() throws {
        _ = try CLIBinary.require()
        let directory = try makeTemporaryDirectory().appendingPathComponent("gallery", isDirectory: true)
        let result = try ToolRun(["gallery", directory.path, "--tiles", "hel=\(Self.archive)"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let html = try String(contentsOf: directory.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("Street map: --tiles hel"), "the section is on the page")
        let urls = html.matches(of: /<code>(map:\/\/\?[^<]*tiles=hel[^<]*)<\/code>/).map { String($0.1) }
        XCTAssertEqual(urls, ["map://?latitude=60.17163&amp;longitude=24.94430&amp;zoom=15&amp;width=300&amp;height=200&amp;scale=2&amp;tiles=hel",
                              "map://?latitude=60.17163&amp;longitude=24.94430&amp;zoom=15&amp;width=300&amp;height=200&amp;scale=2&amp;tiles=hel&amp;style=dark"],
                       "light and dark, over the middle of the archive's bounds")
        XCTAssertFalse(result.stderr.contains("warning"), "the view shows the data: \(result.stderr)")
        // Each street map's image is a drawn PNG of the page's size (300×200 at 2×), light and dark unlike.
        let files = html.matches(of: /<img src="(images\/[^"]+)"[^>]*>(?:(?!<figure).)*tiles=hel/).map { String($0.1) }
        XCTAssertEqual(files.count, 2, "\(files)")
        let bitmaps = try files.map { try PNGDecoder().decode(Data(contentsOf: directory.appendingPathComponent($0))) }
        XCTAssertEqual(bitmaps.map { [$0.width, $0.height] }, [[600, 400], [600, 400]])
        XCTAssertFalse(bitmaps[0] == bitmaps[1], "style=dark draws the dark look")
    }

    /// Trip 11: two tenants in one process, their environments written with
    /// each part named where it is set, in the order the newcomer thought of
    /// them (which the positional initialiser refused); each session sees only
    /// its own store, and `configuration` makes a copy that differs in one part.
    func testTwoTenantsWrittenPartByPart() async throws {
        var tenants: [URLSchemeKitEnvironment] = []
        var ids: [String] = []
        for (index, name) in ["photo.jpg", "logo.png"].enumerated() {
            let store = try FileAssetStore(directory: try makeTemporaryDirectory("tenant\(index)"))
            ids.append(try store.add(contentsOf: AssetFixtures.directory.appendingPathComponent(name)))
            tenants.append(URLSchemeKitEnvironment { environment in
                environment.cachePartition = "tenant-\(index)"
                environment.httpCache = nil
                environment.imageCache = QueryKeyedURLCache(memoryCapacity: 1 << 20, diskCapacity: 0)
                environment.assets = AssetImageSource(store: store)
            })
        }
        XCTAssertEqual(tenants.map(\.cachePartition), ["tenant-0", "tenant-1"])
        XCTAssertNil(tenants[0].httpCache)
        XCTAssertTrue(tenants[0].tileSources.isEmpty, "parts left alone keep their defaults")
        XCTAssertEqual(tenants[0].budget.producedPixels, ResourceBudget().producedPixels)

        func load(_ id: String, in environment: URLSchemeKitEnvironment) async throws -> Int {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.installURLSchemeKit(environment)
            let (_, response) = try await URLSession(configuration: configuration).data(from: try XCTUnwrap(URL(string: "asset://?id=\(id)&width=16")))
            return (response as? HTTPURLResponse)?.statusCode ?? 0
        }
        let loaded = try await load(ids[0], in: tenants[0])
        XCTAssertEqual(loaded, 200)
        do {
            _ = try await load(ids[0], in: tenants[1])
            XCTFail("tenant 1 must not see tenant 0's photo")
        } catch let error as URLError {
            XCTAssertTrue(error.localizedDescription.contains("no asset with id"), "\(error)")
        }

        var stricter = tenants[0].configuration
        stricter.budget.producedPixels = 100
        let preview = URLSchemeKitEnvironment(stricter)
        XCTAssertEqual(preview.cachePartition, "tenant-0")
        XCTAssertTrue((preview.assets?.store as? FileAssetStore) === (tenants[0].assets?.store as? FileAssetStore), "the same store")
        XCTAssertEqual(preview.budget.producedPixels, 100)
        XCTAssertEqual(tenants[0].budget.producedPixels, ResourceBudget().producedPixels, "the first is unchanged")
    }
}
