import Foundation
import ImageCodecs
@testable import MapRendering
import Raster
import XCTest

/// `raster` layers over `raster` and `image` sources, and the `raster-dem`
/// `hillshade` layer, drawn from real files through ``VectorMapRenderer``.
final class RasterLayerTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("raster-layer-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes `bitmap` as the PNG tile `z/x/y.png` of the folder.
    private func writeTile(_ bitmap: Bitmap, _ z: Int, _ x: Int, _ y: Int) throws {
        let directory = folder.appendingPathComponent("\(z)/\(x)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try PNGEncoder().encode(bitmap).write(to: directory.appendingPathComponent("\(y).png"))
    }

    /// A `width` × `height` picture whose left half is `left` and right half `right`.
    private func halves(_ left: RGBA, _ right: RGBA, width: Int = 256, height: Int = 256) throws -> Bitmap {
        var bitmap = try Bitmap(width: width, height: height, fill: left)
        for y in 0..<height { for x in width / 2..<width { bitmap[x, y] = right } }
        return bitmap
    }

    /// `styleJSON` drawn with the folder bound to each picture source in it.
    private func render(_ styleJSON: String, limits: RasterSourceLimits = .default, size: Int = 512,
                        center: GeoCoordinate = GeoCoordinate(latitude: 0, longitude: 0), zoom: Double = 1) throws -> Bitmap {
        try renderer(styleJSON, limits: limits).render(VectorMapCamera(center: center, zoom: zoom, width: size, height: size))
    }

    /// The renderer of `styleJSON` with the folder bound to each picture source in it.
    private func renderer(_ styleJSON: String, limits: RasterSourceLimits = .default) throws -> VectorMapRenderer {
        let style = try VectorStyle(json: styleJSON)
        var sources: [String: MapRasterSource] = [:]
        for source in style.sources.values {
            let loader = DirectoryTileLoader(directory: folder, template: "{z}/{x}/{y}.png", missingFilesAreEmpty: true)
            let range = (source.minimumZoom ?? 0)...(source.maximumZoom ?? 22)
            switch source.kind {
            case .raster(let options): sources[source.name] = .tiles(RasterTileSource(loader: loader, options: options, scheme: source.scheme ?? .xyz,
                                                                                       bounds: source.bounds, zoomRange: range, limits: limits))
            case .rasterDEM(let options): sources[source.name] = .elevation(RasterTileSource(loader: loader, options: options, scheme: source.scheme ?? .xyz,
                                                                                              bounds: source.bounds, zoomRange: range, limits: limits))
            case .image(let image):
                guard case .url(let url) = image.content else { continue }
                sources[source.name] = .image(try ImageSource(data: Data(contentsOf: folder.appendingPathComponent(url)), corners: image.corners, limits: limits))
            case .vector, .geojson: break
            }
        }
        let none = LoadedVectorTiles(loader: DirectoryTileLoader(directory: folder, template: "none/{z}/{x}/{y}", missingFilesAreEmpty: true), zoomRange: 0...0)
        return VectorMapRenderer(tiles: none, sourceName: "", style: style, rasterSources: sources)
    }

    private func rasterStyle(paint: String = "{}", source: String = #""type": "raster", "tiles": ["{z}/{x}/{y}.png"], "tileSize": 256, "maxzoom": 0"#) -> String {
        """
        {"version": 8, "sources": {"pictures": {\(source)}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "r", "type": "raster", "source": "pictures", "paint": \(paint)}]}
        """
    }

    func testRasterTileIsDrawnOverZoomedWithItsPixels() throws {
        try writeTile(try halves(RGBA(255, 0, 0), RGBA(0, 0, 255)), 0, 0, 0)
        // Style zoom 0 over 256-point tiles wants zoom 1; the source stops at 0, so its one tile covers the 512-pixel world.
        let image = try render(rasterStyle())
        XCTAssertEqual(image[100, 256], RGBA(255, 0, 0))
        XCTAssertEqual(image[400, 256], RGBA(0, 0, 255))
        XCTAssertEqual(image[5, 5], RGBA(255, 0, 0))
    }

    func testMissingTileIsDrawnFromItsParent() throws {
        try writeTile(try halves(RGBA(255, 0, 0), RGBA(0, 0, 255)), 0, 0, 0)
        // Zoom 1 is in the source's range but has no files: zoom 0's tile stands in, as MapLibre keeps a parent.
        let image = try render(rasterStyle(source: #""type": "raster", "tiles": ["{z}/{x}/{y}.png"], "tileSize": 256, "maxzoom": 1"#))
        XCTAssertEqual(image[100, 256], RGBA(255, 0, 0))
        XCTAssertEqual(image[400, 100], RGBA(0, 0, 255))
    }

    /// MapLibre looks at most three zooms up for a missing tile's stand-in
    /// (`maxUnderzooming`): a tile whose nearest ancestor is four zooms up is left out.
    func testAnAncestorMoreThanThreeZoomsUpDoesNotStandIn() throws {
        try writeTile(try Bitmap(width: 256, height: 256, fill: RGBA(255, 0, 0)), 0, 0, 0)
        let source = #""type": "raster", "tiles": ["{z}/{x}/{y}.png"], "tileSize": 256, "maxzoom": 4"#
        // Style zoom 2 over 256-point tiles wants zoom 3: zoom 0 is three up.
        XCTAssertEqual(try render(rasterStyle(source: source), zoom: 3)[256, 256], RGBA(255, 0, 0))
        // Style zoom 3 wants zoom 4: zoom 0 is four up, so the background shows.
        XCTAssertEqual(try render(rasterStyle(source: source), zoom: 4)[256, 256], RGBA(255, 255, 255))
    }

    func testRasterPaintRecoloursAsMapLibreShaderDoes() throws {
        try writeTile(try halves(RGBA(255, 0, 0), RGBA(0, 0, 255)), 0, 0, 0)
        // Half opacity over white: red is drawn as 128 of 255 alpha, leaving 127 of the white.
        let faded = try render(rasterStyle(paint: #"{"raster-opacity": 0.5}"#))
        XCTAssertEqual(faded[100, 256], RGBA(255, 127, 127))
        // Saturation -1: each channel becomes the average, 85.
        let grey = try render(rasterStyle(paint: #"{"raster-saturation": -1}"#))
        XCTAssertEqual(grey[100, 256], RGBA(85, 85, 85))
        // Brightness squeezed into 0.2…0.4: red's channels become 0.4 and 0.2.
        let dim = try render(rasterStyle(paint: #"{"raster-brightness-min": 0.2, "raster-brightness-max": 0.4}"#))
        XCTAssertEqual(dim[100, 256], RGBA(102, 51, 51))
        // A hue turned 120°: red becomes green.
        let turned = try render(rasterStyle(paint: #"{"raster-hue-rotate": 120}"#))
        XCTAssertEqual(turned[100, 256], RGBA(0, 255, 0))
    }

    func testTMSSchemeFlipsRowsAndBoundsLeaveTilesOut() throws {
        // The file of zoom 1, column 0, row 1: the south-west tile in xyz, the north-west one in TMS.
        try writeTile(try Bitmap(width: 256, height: 256, fill: RGBA(0, 128, 0)), 1, 0, 1)
        let xyz = #""type": "raster", "tiles": ["{z}/{x}/{y}.png"], "tileSize": 256, "minzoom": 1, "maxzoom": 1"#
        let plain = try render(rasterStyle(source: xyz))
        XCTAssertEqual(plain[100, 400], RGBA(0, 128, 0))
        XCTAssertEqual(plain[100, 100], RGBA(255, 255, 255))
        let tms = try render(rasterStyle(source: xyz + #", "scheme": "tms""#))
        XCTAssertEqual(tms[100, 100], RGBA(0, 128, 0))
        XCTAssertEqual(tms[100, 400], RGBA(255, 255, 255))
        let bounded = try render(rasterStyle(source: xyz + #", "bounds": [10, -80, 170, -10]"#))
        XCTAssertEqual(bounded[100, 400], RGBA(255, 255, 255), "the tile lies outside the source's bounds")
    }

    func testImageSourceIsPinnedToItsCorners() throws {
        try PNGEncoder().encode(try halves(RGBA(255, 0, 0), RGBA(0, 0, 255), width: 4, height: 4)).write(to: folder.appendingPathComponent("picture.png"))
        // The picture on the quarter of the world east of 0° and north of the equator-ish: pixels 256…512 × 0…256 of the 512 world.
        let source = #""type": "image", "url": "picture.png", "coordinates": [[0, 85.0511], [180, 85.0511], [180, 0], [0, 0]]"#
        let image = try render(rasterStyle(paint: #"{"raster-resampling": "nearest"}"#, source: source))
        XCTAssertEqual(image[300, 100], RGBA(255, 0, 0))
        XCTAssertEqual(image[480, 100], RGBA(0, 0, 255))
        XCTAssertEqual(image[100, 100], RGBA(255, 255, 255), "west of the picture")
        XCTAssertEqual(image[300, 300], RGBA(255, 255, 255), "south of the picture")
    }

    func testImageSourceFarOffTheViewDrawsNothing() throws {
        try PNGEncoder().encode(try halves(RGBA(255, 0, 0), RGBA(0, 0, 255), width: 4, height: 4)).write(to: folder.appendingPathComponent("picture.png"))
        // Corners 10³⁰⁰ degrees east: far past any pixel, and no crash turning them into integers.
        let source = #""type": "image", "url": "picture.png", "coordinates": [[1e300, 10], [2e300, 10], [2e300, 0], [1e300, 0]]"#
        let image = try render(rasterStyle(source: source))
        XCTAssertEqual(image[256, 256], RGBA(255, 255, 255))
    }

    /// A Terrarium tile whose height rises `step` metres per pixel eastwards.
    private func terrariumRamp(step: Double) throws -> Bitmap {
        var bitmap = try Bitmap(width: 256, height: 256)
        for y in 0..<256 {
            for x in 0..<256 {
                let metres = 1000 + Double(x) * step + 32768
                bitmap[x, y] = RGBA(UInt8(Int(metres) / 256), UInt8(Int(metres) % 256), UInt8((metres - metres.rounded(.down)) * 256))
            }
        }
        return bitmap
    }

    private func hillshadeStyle(paint: String = "{}") -> String {
        """
        {"version": 8, "sources": {"dem": {"type": "raster-dem", "tiles": ["{z}/{x}/{y}.png"], "tileSize": 256, "maxzoom": 11, "encoding": "terrarium"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "rgb(128, 128, 128)"}},
                    {"id": "h", "type": "hillshade", "source": "dem", "paint": \(paint)}]}
        """
    }

    /// The hillshade of `style` over the DEM tile 11/1024/1024 (its north-west
    /// corner at 0°, 0°), seen at style zoom 10: 128 points inside the tile.
    private func renderHillshade(_ style: String) throws -> Bitmap {
        let middle = 360.0 / 2048 / 2
        return try render(style, size: 128, center: GeoCoordinate(latitude: -middle, longitude: middle), zoom: 11)
    }

    func testHillshadeOfFlatGroundLeavesTheBackground() throws {
        try writeTile(try terrariumRamp(step: 0), 11, 1024, 1024)
        let pixel = try renderHillshade(hillshadeStyle())[64, 64]
        // Flat ground's slope 0 is stored as 128 of 255, a hair above 0 as MapLibre's 8-bit texture holds it.
        XCTAssertEqual(Double(pixel.r), 128, accuracy: 1)
    }

    func testHillshadeLightsSlopesFacingTheLight() throws {
        // Ground rising eastwards faces west: lit by the default light from the north-west (335°), shadowed when lit from the east.
        try writeTile(try terrariumRamp(step: 100), 11, 1024, 1024)
        let lit = try renderHillshade(hillshadeStyle())
        let shadowed = try renderHillshade(hillshadeStyle(paint: #"{"hillshade-illumination-direction": 90}"#))[64, 64]
        XCTAssertGreaterThan(lit[64, 64].r, 136, "\(lit[64, 64])")
        XCTAssertLessThan(shadowed.r, 108, "\(shadowed)")
        // The slope is the same everywhere inside the tile: so is the shade.
        XCTAssertEqual(lit[20, 100], lit[64, 64])
        // An accent colour darkens by (1 − cos(slope)) of its own: shown in red.
        let accented = try renderHillshade(hillshadeStyle(paint: #"{"hillshade-accent-color": "red", "hillshade-highlight-color": "rgba(0,0,0,0)"}"#))[64, 64]
        XCTAssertGreaterThan(accented.r, accented.g)
    }

    func testHillshadeSlopesAreKeptBetweenDrawsUntilANeighbourArrives() throws {
        // Ground rising eastwards on tile 1024; the view straddles its east edge, where tile 1025 is missing at first.
        try writeTile(try terrariumRamp(step: 100), 11, 1024, 1024)
        let camera = VectorMapCamera(center: GeoCoordinate(latitude: -360.0 / 2048 / 2, longitude: 360.0 / 2048), zoom: 11, width: 128, height: 128)
        let renderer = try renderer(hillshadeStyle())
        guard case .elevation(let source)? = renderer.rasterSources["dem"] else { return XCTFail("no elevation source") }
        let first = try renderer.render(camera)
        XCTAssertEqual(source.memory.slopesPrepared, 1)
        // Drawn again: the slopes kept are used, and give the same pixels.
        XCTAssertTrue(try renderer.render(camera) == first, "drawn again from kept slopes, the pixels differ")
        XCTAssertEqual(source.memory.slopesPrepared, 1)
        // A flat plateau far above appears east: tile 1024's border now comes from it, so its slopes are made again.
        try writeTile(try Bitmap(width: 256, height: 256, fill: RGBA(200, 0, 0)), 11, 1025, 1024)
        let withNeighbour = try renderer.render(camera)
        XCTAssertEqual(source.memory.slopesPrepared, 3)
        XCTAssertTrue(try withNeighbour == self.renderer(hillshadeStyle()).render(camera), "stale slopes: not what a new renderer draws")
        XCTAssertTrue(withNeighbour != first, "the neighbour's border changed nothing")
    }

    func testNonSquareElevationTileIsRefused() throws {
        try writeTile(try Bitmap(width: 256, height: 128), 11, 1024, 1024)
        XCTAssertThrowsError(try renderHillshade(hillshadeStyle())) { error in
            XCTAssertTrue("\(error)".contains("256×128 pixels; a raster-dem tile is square"), "\(error)")
        }
    }

    func testOversizedTileIsRefusedNamingTheLimit() throws {
        try writeTile(try Bitmap(width: 300, height: 300, fill: RGBA(1, 2, 3)), 0, 0, 0)
        XCTAssertThrowsError(try render(rasterStyle(), limits: RasterSourceLimits(tilePixels: 256 * 256))) { error in
            XCTAssertEqual((error as? VectorTileError)?.kind, .limitExceeded)
            XCTAssertTrue("\(error)".contains("RasterSourceLimits.tilePixels"), "\(error)")
            XCTAssertTrue("\(error)".contains("0/0/0"), "\(error)")
        }
    }

    /// A PNG header declaring `width` × `height` pixels, with no pixel data.
    private func pngHeader(width: UInt32, height: UInt32) -> Data {
        var chunk = Array("IHDR".utf8)
        for value in [width, height] { chunk += withUnsafeBytes(of: value.bigEndian, Array.init) }
        chunk += [8, 6, 0, 0, 0]
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        data += chunk
        data += withUnsafeBytes(of: CRC32.checksum(chunk).bigEndian, Array.init)
        return data
    }

    func testHostileTileHeaderIsRefusedBeforeDecoding() throws {
        // 100 000 × 100 000 pixels would be 40 GB: refused from the header by the default limit, at once.
        let directory = folder.appendingPathComponent("0/0")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try pngHeader(width: 100_000, height: 100_000).write(to: directory.appendingPathComponent("0.png"))
        let start = Date()
        XCTAssertThrowsError(try render(rasterStyle())) { error in
            XCTAssertEqual((error as? VectorTileError)?.kind, .limitExceeded, "\(error)")
            XCTAssertTrue("\(error)".contains("RasterSourceLimits.tilePixels is 4194304"), "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        let corners = [GeoCoordinate(latitude: 1, longitude: 0), GeoCoordinate(latitude: 1, longitude: 1),
                       GeoCoordinate(latitude: 0, longitude: 1), GeoCoordinate(latitude: 0, longitude: 0)]
        XCTAssertThrowsError(try ImageSource(data: pngHeader(width: 100_000, height: 100_000), corners: corners)) { error in
            XCTAssertTrue("\(error)".contains("RasterSourceLimits.imagePixels is 16777216"), "\(error)")
        }
    }

    func testViewOverTheTileLimitIsRefusedBeforeReading() throws {
        // Style zoom 10 over 256-point tiles wants zoom 11; a 2048-point view needs 5 × 5 of them.
        let style = try VectorStyle(json: rasterStyle(source: #""type": "raster", "tiles": ["{z}/{x}/{y}.png"], "tileSize": 256"#))
        let loader = DirectoryTileLoader(directory: folder, template: "{z}/{x}/{y}.png", missingFilesAreEmpty: true)
        let none = LoadedVectorTiles(loader: loader, zoomRange: 0...0)
        var renderer = VectorMapRenderer(tiles: none, sourceName: "", style: style,
                                         rasterSources: ["pictures": .tiles(RasterTileSource(loader: loader, options: RasterStyleSource(tileSize: 256)))])
        renderer.limits.tilesPerSnapshot = 16
        XCTAssertThrowsError(try renderer.render(VectorMapCamera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 11, width: 1024, height: 1024))) { error in
            XCTAssertTrue("\(error)".contains("raster tiles at zoom 11, over the limit of 16"), "\(error)")
        }
    }

    func testTilesOverThePixelsPerLayerAreRefused() throws {
        // Zoom 1 has four tiles of 256²: 262 144 pixels, over a limit of 200 000 at the third.
        for (x, y) in [(0, 0), (0, 1), (1, 0), (1, 1)] { try writeTile(try Bitmap(width: 256, height: 256, fill: RGBA(9, 9, 9)), 1, x, y) }
        let source = #""type": "raster", "tiles": ["{z}/{x}/{y}.png"], "tileSize": 256, "minzoom": 1, "maxzoom": 1"#
        XCTAssertNoThrow(try render(rasterStyle(source: source), limits: RasterSourceLimits(tilePixelsPerLayer: 262_144)))
        XCTAssertThrowsError(try render(rasterStyle(source: source), limits: RasterSourceLimits(tilePixelsPerLayer: 200_000))) { error in
            XCTAssertTrue("\(error)".contains("over 200000 pixels, the limit per layer (RasterSourceLimits.tilePixelsPerLayer)"), "\(error)")
        }
    }

    func testTileThatIsNoPictureIsNamed() throws {
        let directory = folder.appendingPathComponent("0/0")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("not a png".utf8).write(to: directory.appendingPathComponent("0.png"))
        XCTAssertThrowsError(try render(rasterStyle())) { error in
            XCTAssertEqual((error as? VectorTileError)?.kind, .corrupt)
            XCTAssertTrue("\(error)".contains("raster tile 0/0/0 is no picture"), "\(error)")
        }
    }

    func testOversizedImageSourceIsRefused() throws {
        try PNGEncoder().encode(try Bitmap(width: 64, height: 64)).write(to: folder.appendingPathComponent("big.png"))
        let data = try Data(contentsOf: folder.appendingPathComponent("big.png"))
        let corners = [GeoCoordinate(latitude: 1, longitude: 0), GeoCoordinate(latitude: 1, longitude: 1),
                       GeoCoordinate(latitude: 0, longitude: 1), GeoCoordinate(latitude: 0, longitude: 0)]
        XCTAssertThrowsError(try ImageSource(data: data, corners: corners, limits: RasterSourceLimits(imagePixels: 1000))) { error in
            XCTAssertTrue("\(error)".contains("RasterSourceLimits.imagePixels is 1000"), "\(error)")
        }
    }

    func testMalformedSourcesAndLayersAreNamed() {
        let cases: [(String, String)] = [
            (rasterStyle(source: #""type": "raster", "tiles": ["a"], "tileSize": "big""#), "'tileSize' is a whole number"),
            (rasterStyle(source: #""type": "raster", "tiles": ["a"], "scheme": "zxy""#), "'scheme' is \"xyz\" or \"tms\""),
            (rasterStyle(source: #""type": "raster", "tiles": ["a"], "bounds": [10, 0, 5, 1]"#), "'bounds' is [west, south, east, north]"),
            (rasterStyle(source: #""type": "raster-dem", "tiles": ["a"], "encoding": "lerc""#), "'encoding' is \"mapbox\" or \"terrarium\""),
            (rasterStyle(source: #""type": "image", "url": "a.png""#), "'coordinates' is needed"),
            (rasterStyle(source: #""type": "image", "url": "a.png", "coordinates": [[0, 0], [1, 0], [1, 100], [0, 1]]"#), "latitude within ±90"),
            (rasterStyle(source: #""type": "raster-dem", "tiles": ["a"]"#), "a raster layer draws from a 'raster' or 'image' source"),
            (rasterStyle(paint: #"{"raster-saturation": 2}"#), "raster-saturation"),
        ]
        for (json, expected) in cases {
            XCTAssertThrowsError(try VectorStyle(json: json), expected) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error) lacks \(expected)")
            }
        }
    }
}
