import XCTest
import Raster
@testable import MapRendering

/// A whole style document drawn from files beside it: its camera, its
/// sources by relative path and `pmtiles://`, and errors naming what failed.
final class StyleDocumentRendererTests: XCTestCase {
    static let tiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/tiles")

    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("StyleDocumentRendererTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// The centre of the red pixels of `bitmap`, nil when there are none.
    static func redCentre(_ bitmap: Bitmap) -> (x: Double, y: Double)? {
        var sum = (x: 0.0, y: 0.0, n: 0.0)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap[x, y].r > 200 && bitmap[x, y].g < 80 {
                sum = (sum.x + Double(x), sum.y + Double(y), sum.n + 1)
            }
        }
        return sum.n > 0 ? (sum.x / sum.n, sum.y / sum.n) : nil
    }

    func style(center: String = "[24.945, 60.17]", extra: String = "") -> String {
        ##"""
        {"version": 8, "center": \##(center), "zoom": 14, "bearing": 45\##(extra),
         "sources": {"hel": {"type": "vector", "url": "pmtiles://tiles/hel.pmtiles"},
                     "pins": {"type": "geojson", "data": "pins.geojson"}},
         "layers": [
          {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
          {"id": "water", "type": "fill", "source": "hel", "source-layer": "water", "paint": {"fill-color": "#0000ff"}},
          {"id": "pin", "type": "circle", "source": "pins", "paint": {"circle-radius": 6, "circle-color": "#ff0000"}}]}
        """##
    }

    /// The style's camera, a relative GeoJSON file and a relative archive:
    /// the point at the style's centre is drawn at the image's centre under
    /// the style's bearing, and the archive's water is drawn.
    func testTheStylesCameraAndRelativeSources() throws {
        let folder = try folder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("tiles"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.tiles.appendingPathComponent("helsinki-openmaptiles.pmtiles"),
                                        to: folder.appendingPathComponent("tiles/hel.pmtiles"))
        try Data(#"{"type": "Point", "coordinates": [24.945, 60.17]}"#.utf8).write(to: folder.appendingPathComponent("pins.geojson"))
        let document = try StyleDocumentRenderer(style: Data(style().utf8), resources: StyleFolderResources(folder: folder))
        XCTAssertEqual(document.camera, .init(center: GeoCoordinate(latitude: 60.17, longitude: 24.945), zoom: 14, bearing: 45))
        let bitmap = try document.render(width: 128, height: 96)
        let red = try XCTUnwrap(Self.redCentre(bitmap), "the pin is drawn")
        XCTAssertEqual(red.x, 63.5, accuracy: 0.6, "the pin at the centre, turned or not")
        XCTAssertEqual(red.y, 47.5, accuracy: 0.6)
        var wide = document.camera
        wide.zoom = 12
        let zoomedOut = try document.render(width: 256, height: 256, camera: wide)
        XCTAssertTrue((0..<256).contains { y in (0..<256).contains { zoomedOut[$0, y] == RGBA(0, 0, 255) } }, "the archive's water is drawn")
    }

    /// A missing file names its source; a value of the wrong type names the
    /// style's property; a pitch past 60 is held to 60, as MapLibre holds it.
    func testErrorsNameTheSourceOrProperty() throws {
        let folder = try folder()
        XCTAssertThrowsError(try StyleDocumentRenderer(style: Data(style().utf8), resources: StyleFolderResources(folder: folder))) { error in
            XCTAssertTrue("\(error)".contains("hel.pmtiles") || "\(error)".contains("source 'hel'"), "\(error)")
        }
        let noArchive = style().replacingOccurrences(of: #""url": "pmtiles://tiles/hel.pmtiles""#, with: #""url": "https://example.invalid/tiles.json""#)
        try Data(#"{"type": "Point", "coordinates": [0, 0]}"#.utf8).write(to: folder.appendingPathComponent("pins.geojson"))
        XCTAssertThrowsError(try StyleDocumentRenderer(style: Data(noArchive.utf8), resources: StyleFolderResources(folder: folder))) { error in
            XCTAssertEqual("\(error)", "source 'hel': 'https://example.invalid/tiles.json': only files are read (a path relative to the style, or a file:// URL)")
        }
        let badCenter = style(center: #""middle""#).replacingOccurrences(of: #""url": "pmtiles://tiles/hel.pmtiles""#, with: #""tiles": ["t/{z}/{x}/{y}.pbf"]"#)
        XCTAssertThrowsError(try StyleDocumentRenderer(style: Data(badCenter.utf8), resources: StyleFolderResources(folder: folder))) { error in
            XCTAssertEqual("\(error)", "the style's 'center' is not [longitude, latitude]")
        }
        let pitched = style(extra: #", "pitch": 75"#).replacingOccurrences(of: #""url": "pmtiles://tiles/hel.pmtiles""#, with: #""tiles": ["t/{z}/{x}/{y}.pbf"]"#)
        let document = try StyleDocumentRenderer(style: Data(pitched.utf8), resources: StyleFolderResources(folder: folder))
        XCTAssertEqual(document.camera.pitch, 75, "as the style says")
        let tilted = try document.render(width: 64, height: 48)
        var sixty = document.camera
        sixty.pitch = 60
        XCTAssertEqual(tilted.pixels, try document.render(width: 64, height: 48, camera: sixty).pixels, "held to MapLibre's maxPitch, 60")
    }

    /// A source whose `url` names a TileJSON document (as OpenMapTiles and
    /// MapTiler styles name theirs): its `tiles`, relative to the document,
    /// its zooms and its `scheme` (here `tms`, rows counted from the south)
    /// draw what the archive they came from draws; a style's `bounds` outside
    /// the view leave its tiles unread, as MapLibre leaves them.
    func testATileJSONSourceDrawsAsTheArchiveItCameFrom() throws {
        let folder = try folder()
        let archive = try PMTilesArchive(url: Self.tiles.appendingPathComponent("helsinki-openmaptiles.pmtiles"))
        for tile in [TileCoordinate(z: 12, x: 2331, y: 1185), TileCoordinate(z: 12, x: 2331, y: 1186),
                     TileCoordinate(z: 12, x: 2332, y: 1185), TileCoordinate(z: 12, x: 2332, y: 1186)] {
            guard let bytes = try archive.tileData(at: tile) else { continue }
            let row = (1 << tile.z) - 1 - tile.y
            let file = folder.appendingPathComponent("set/t/\(tile.z)/\(tile.x)/\(row).pbf")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: file)
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("tiles"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.tiles.appendingPathComponent("helsinki-openmaptiles.pmtiles"),
                                        to: folder.appendingPathComponent("tiles/hel.pmtiles"))
        try Data(#"{"tilejson": "3.0.0", "tiles": ["t/{z}/{x}/{y}.pbf"], "scheme": "tms", "minzoom": 12, "maxzoom": 12}"#.utf8)
            .write(to: folder.appendingPathComponent("set/tiles.json"))
        try Data(#"{"type": "Point", "coordinates": [0, 0]}"#.utf8).write(to: folder.appendingPathComponent("pins.geojson"))
        let fromArchive = try StyleDocumentRenderer(style: Data(style().utf8), resources: StyleFolderResources(folder: folder))
        let tileJSON = style().replacingOccurrences(of: "pmtiles://tiles/hel.pmtiles", with: "set/tiles.json")
        let fromTileJSON = try StyleDocumentRenderer(style: Data(tileJSON.utf8), resources: StyleFolderResources(folder: folder))
        var camera = fromArchive.camera
        camera.zoom = 12
        let expected = try fromArchive.render(width: 256, height: 256, camera: camera)
        XCTAssertTrue((0..<256).contains { y in (0..<256).contains { expected[$0, y] == RGBA(0, 0, 255) } },
                      "the archive's water is drawn")
        let drawn = try fromTileJSON.render(width: 256, height: 256, camera: camera)
        XCTAssertTrue(drawn.pixels == expected.pixels, "the TileJSON's tms tiles draw as the archive's")

        let elsewhere = tileJSON.replacingOccurrences(of: #""url": "set/tiles.json""#, with: #""url": "set/tiles.json", "bounds": [10, 50, 11, 51]"#)
        let outside = try StyleDocumentRenderer(style: Data(elsewhere.utf8), resources: StyleFolderResources(folder: folder))
        let empty = try outside.render(width: 256, height: 256, camera: camera)
        XCTAssertFalse((0..<256).contains { y in (0..<256).contains { empty[$0, y] == RGBA(0, 0, 255) } }, "no tile outside the bounds is read")
    }

    /// A TileJSON's relative `tiles` resolve as a browser resolves them.
    func testTileJSONTemplatesResolveAgainstTheDocument() {
        XCTAssertEqual(StyleURLs.resolve("t/{z}/{x}/{y}.pbf", against: "set/tiles.json"), "set/t/{z}/{x}/{y}.pbf")
        XCTAssertEqual(StyleURLs.resolve("t/{z}/{x}/{y}.pbf", against: "tiles.json"), "t/{z}/{x}/{y}.pbf")
        XCTAssertEqual(StyleURLs.resolve("{z}/{x}/{y}.pbf", against: "https://a.example/v3/tiles.json?key=k"), "https://a.example/v3/{z}/{x}/{y}.pbf")
        XCTAssertEqual(StyleURLs.resolve("/data/{z}/{x}/{y}.pbf", against: "https://a.example/v3/tiles.json"), "https://a.example/data/{z}/{x}/{y}.pbf")
        XCTAssertEqual(StyleURLs.resolve("{z}/{x}/{y}.pbf", against: "https://a.example"), "https://a.example/{z}/{x}/{y}.pbf")
        XCTAssertEqual(StyleURLs.resolve("https://b.example/{z}/{x}/{y}", against: "https://a.example/tiles.json"), "https://b.example/{z}/{x}/{y}")
        XCTAssertEqual(StyleURLs.resolve("{z}/{x}/{y}.pbf", against: "file:///srv/set/tiles.json"), "file:///srv/set/{z}/{x}/{y}.pbf")
    }
}
