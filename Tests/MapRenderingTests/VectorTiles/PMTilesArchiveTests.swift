import Foundation
import XCTest
@testable import MapRendering

/// The Helsinki archive (`Fixtures/tiles`, made by
/// `Scripts/make_helsinki_tiles.sh`) against what PyPI `pmtiles` and
/// `mapbox-vector-tile` read from it (`Scripts/make_helsinki_references.py`),
/// and hostile archives built by `PMTilesTestArchive`.
final class PMTilesArchiveTests: XCTestCase {
    static let tiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/tiles").standardizedFileURL
    static let archiveURL = archive("openmaptiles")
    static let central = TileCoordinate(z: 14, x: 9327, y: 4742)
    static let schemas = ["openmaptiles", "protomaps"]

    static func archive(_ schema: String) -> URL { tiles.appendingPathComponent("helsinki-\(schema).pmtiles") }

    private func reference(_ schema: String = "openmaptiles") throws -> [String: Any] {
        let data = try Data(contentsOf: Self.tiles.appendingPathComponent("helsinki-\(schema)-reference.json"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func testHeaderAndMetadataMatchThePMTilesReader() throws {
        for schema in Self.schemas { try checkHeaderAndMetadata(schema) }
    }

    private func checkHeaderAndMetadata(_ schema: String) throws {
        let archive = try PMTilesArchive(url: Self.archive(schema))
        let expected = try XCTUnwrap(reference(schema)["header"] as? [String: Any])
        let header = archive.header
        XCTAssertEqual(header.rootDirectory.lowerBound, expected["root_offset"] as? UInt64)
        XCTAssertEqual(UInt64(header.rootDirectory.count), expected["root_length"] as? UInt64)
        XCTAssertEqual(header.metadata.lowerBound, expected["metadata_offset"] as? UInt64)
        XCTAssertEqual(UInt64(header.metadata.count), expected["metadata_length"] as? UInt64)
        XCTAssertEqual(header.tileData.lowerBound, expected["tile_data_offset"] as? UInt64)
        XCTAssertEqual(UInt64(header.tileData.count), expected["tile_data_length"] as? UInt64)
        XCTAssertEqual(header.addressedTileCount, expected["addressed_tiles_count"] as? UInt64)
        XCTAssertEqual(header.tileContentCount, expected["tile_contents_count"] as? UInt64)
        XCTAssertEqual(Int(header.internalCompression.rawValue), expected["internal_compression"] as? Int)
        XCTAssertEqual(Int(header.tileCompression.rawValue), expected["tile_compression"] as? Int)
        XCTAssertEqual(Int(header.tileType), expected["tile_type"] as? Int)
        XCTAssertEqual(header.minZoom, expected["min_zoom"] as? Int)
        XCTAssertEqual(header.maxZoom, expected["max_zoom"] as? Int)
        XCTAssertEqual(header.centerZoom, expected["center_zoom"] as? Int)
        XCTAssertEqual(header.isClustered, expected["clustered"] as? Bool)
        XCTAssertEqual(header.bounds.west, (expected["min_lon_e7"] as? Double ?? 0) / 1e7, accuracy: 1e-9)
        XCTAssertEqual(header.bounds.south, (expected["min_lat_e7"] as? Double ?? 0) / 1e7, accuracy: 1e-9)
        XCTAssertEqual(header.bounds.east, (expected["max_lon_e7"] as? Double ?? 0) / 1e7, accuracy: 1e-9)
        XCTAssertEqual(header.bounds.north, (expected["max_lat_e7"] as? Double ?? 0) / 1e7, accuracy: 1e-9)
        XCTAssertEqual(header.centerLatitude, (expected["center_lat_e7"] as? Double ?? 0) / 1e7, accuracy: 1e-9)
        XCTAssertEqual(header.centerLongitude, (expected["center_lon_e7"] as? Double ?? 0) / 1e7, accuracy: 1e-9)
        XCTAssertEqual(header.centerLatitude, 60.17, accuracy: 0.01)

        let metadata = try archive.metadata()
        let expectedMetadata = try XCTUnwrap(reference(schema)["metadata"] as? [String: Any])
        XCTAssertEqual(metadata["name"] as? String, expectedMetadata["name"] as? String)
        XCTAssertEqual(metadata["attribution"] as? String, "© OpenStreetMap contributors")
        let layers = (metadata["vector_layers"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }.sorted()
        XCTAssertEqual(layers, expectedMetadata["vector_layers"] as? [String])
    }

    func testTileIDsMatchThePMTilesReader() throws {
        let cases = try XCTUnwrap(reference()["tile_ids"] as? [[NSNumber]])
        XCTAssertEqual(cases.count, 7)
        for row in cases {
            let tile = TileCoordinate(z: row[0].intValue, x: row[1].intValue, y: row[2].intValue)
            XCTAssertEqual(try PMTilesTileID.id(of: tile), row[3].uint64Value, "\(tile)")
            XCTAssertEqual(try PMTilesTileID.tile(of: row[3].uint64Value), tile)
        }
        for z in 0...4 {
            let n = 1 << z
            let ids = try (0..<n * n).map { try PMTilesTileID.id(of: TileCoordinate(z: z, x: $0 % n, y: $0 / n)) }
            XCTAssertEqual(Set(ids).count, n * n)
            XCTAssertEqual(ids.min(), PMTilesTileID.firstID(ofZoom: z))
        }
        XCTAssertThrowsError(try PMTilesTileID.id(of: TileCoordinate(z: 3, x: 8, y: 0)))
        XCTAssertThrowsError(try PMTilesTileID.id(of: TileCoordinate(z: 32, x: 0, y: 0)))
    }

    /// The z14 tile over central Helsinki decodes as mapbox-vector-tile reads
    /// it: the same layers, extents and feature counts, and the first features
    /// of each layer with the same type, properties and points.
    func testTheCentralHelsinkiTileMatchesMapboxVectorTile() throws {
        for schema in Self.schemas { try checkCentralTile(schema) }
    }

    /// Our Protomaps profile's tile over central Helsinki: streets, buildings,
    /// water (the sea among it), the land, Kaisaniemi park and the Kaisaniemi place name.
    func testTheProtomapsTileHasTheSchemasLayersAndKinds() throws {
        let tile = try XCTUnwrap(PMTilesArchive(url: Self.archive("protomaps")).vectorTile(at: Self.central))
        for name in ["roads", "buildings", "water", "landuse", "places", "pois", "earth"] {
            XCTAssertGreaterThan(tile.layer(named: name)?.featureCount ?? 0, 0, name)
        }
        // The harbour's sea and the land, from the coastline (Scripts/make_helsinki_sea.py).
        let water = Set(try XCTUnwrap(tile.layer(named: "water")).features.compactMap { $0.value(forKey: "kind")?.string })
        XCTAssertTrue(water.isSuperset(of: ["ocean", "lake"]), "\(water)")
        XCTAssertEqual(Set(try XCTUnwrap(tile.layer(named: "earth")).features.compactMap { $0.value(forKey: "kind")?.string }), ["earth"])
        let kinds = Set(try XCTUnwrap(tile.layer(named: "roads")).features.compactMap { $0.value(forKey: "kind")?.string })
        XCTAssertTrue(kinds.isSuperset(of: ["major_road", "minor_road", "path", "rail"]), "\(kinds)")
        let parks = try XCTUnwrap(tile.layer(named: "landuse")).features.filter { $0.value(forKey: "kind") == .string("park") }
        XCTAssertTrue(parks.contains { $0.value(forKey: "name") == .string("Kaisaniemen puisto") }, "\(parks.map(\.properties))")
        let places = try XCTUnwrap(tile.layer(named: "places")).features
        XCTAssertTrue(places.contains { $0.value(forKey: "name") == .string("Kaisaniemi") && $0.value(forKey: "name:sv") == .string("Kajsaniemi") })
    }

    private func checkCentralTile(_ schema: String) throws {
        let archive = try PMTilesArchive(url: Self.archive(schema))
        let tile = try XCTUnwrap(archive.vectorTile(at: Self.central))
        let expected = try XCTUnwrap(reference(schema)["tile"] as? [String: Any])
        XCTAssertEqual(try archive.tileData(at: Self.central)?.count, expected["inflated_bytes"] as? Int)
        let layers = try XCTUnwrap(expected["layers"] as? [String: [String: Any]])
        XCTAssertEqual(Set(tile.layers.map(\.name)), Set(layers.keys))
        let required = schema == "openmaptiles" ? ["transportation", "building", "water", "landcover"] : ["roads", "buildings", "water", "landuse"]
        for name in required {
            XCTAssertGreaterThan(tile.layer(named: name)?.featureCount ?? 0, 0, "\(schema) \(name)")
        }
        var compared = 0
        for (name, json) in layers {
            let layer = try XCTUnwrap(tile.layer(named: name))
            XCTAssertEqual(Int(layer.extent), json["extent"] as? Int, name)
            XCTAssertEqual(layer.featureCount, json["feature_count"] as? Int, name)
            for (feature, jsonFeature) in zip(layer.features, json["features"] as? [[String: Any]] ?? []) {
                let context = "\(schema) \(name) feature \(feature.index)"
                XCTAssertEqual(Int(feature.geometryType.rawValue), jsonFeature["type"] as? Int, context)
                XCTAssertEqual(Int(feature.id ?? 0), jsonFeature["id"] as? Int ?? 0, context)
                let properties = jsonFeature["properties"] as? [String: Any] ?? [:]
                XCTAssertEqual(feature.propertyCount, properties.count, context)
                for (key, value) in properties {
                    switch (feature.value(forKey: key), value) {
                    case let (.string(ours)?, theirs as String): XCTAssertEqual(ours, theirs, "\(context) \(key)")
                    case let (ours?, theirs as NSNumber): XCTAssertEqual(ours.number ?? Double(ours.description == "true" ? 1 : 0), theirs.doubleValue,
                                                                                     accuracy: 1e-12 * max(1, abs(theirs.doubleValue)), "\(context) \(key)")
                    default: XCTFail("\(context): \(key) is \(String(describing: feature.value(forKey: key))), expected \(value)")
                    }
                }
                let parts = (jsonFeature["parts"] as? [[[Int]]] ?? []).map { $0.map { VectorTilePoint(x: Int32($0[0]), y: Int32($0[1])) } }
                XCTAssertEqual(feature.geometry, parts, context)
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 50)
    }

    /// Every tile of the archive (all 19, zooms 0–14, some empty) decodes
    /// with the layers and feature counts mapbox-vector-tile finds.
    func testEveryTileMatchesMapboxVectorTileFeatureCounts() throws {
        for schema in Self.schemas { try checkEveryTile(schema) }
    }

    private func checkEveryTile(_ schema: String) throws {
        let archive = try PMTilesArchive(url: Self.archive(schema))
        let tiles = try XCTUnwrap(reference(schema)["every_tile"] as? [[String: Any]])
        XCTAssertEqual(UInt64(tiles.count), archive.header.addressedTileCount)
        for json in tiles {
            let coordinate = TileCoordinate(z: json["z"] as? Int ?? -1, x: json["x"] as? Int ?? -1, y: json["y"] as? Int ?? -1)
            let tile = try XCTUnwrap(archive.vectorTile(at: coordinate), "\(coordinate)")
            let counts = Dictionary(uniqueKeysWithValues: tile.layers.map { ($0.name, $0.featureCount) })
            XCTAssertEqual(counts, json["layers"] as? [String: Int], "\(coordinate)")
            XCTAssertEqual(tile.skippedCount, 0, "\(coordinate)")
        }
    }

    func testATruncatedArchiveIsAnErrorNamingIt() throws {
        let data = try Data(contentsOf: Self.archiveURL)
        for length in [0, 100, 500, data.count / 2, data.count - 1] {
            XCTAssertThrowsError(try PMTilesArchive(source: PMTilesDataSource(data.prefix(length))), "cut at \(length)") { error in
                let error = error as? VectorTileError
                XCTAssertEqual(error?.kind, .truncated, "cut at \(length): \(String(describing: error))")
                XCTAssertTrue(error?.message.contains("truncated") == true || error?.message.contains("shorter") == true, error?.message ?? "")
            }
        }
    }

    func testACorruptedTileIsAnErrorNamingIt() throws {
        var bytes = try [UInt8](Data(contentsOf: Self.archiveURL))
        let archive = try PMTilesArchive(url: Self.archiveURL)
        let range = try XCTUnwrap(archive.tileRange(PMTilesTileID.id(of: Self.central)))
        for i in stride(from: Int(range.lowerBound) + 20, to: Int(range.upperBound) - 10, by: 97) { bytes[i] ^= 0x5A }
        let damaged = try PMTilesArchive(source: PMTilesDataSource(Data(bytes)))
        XCTAssertThrowsError(try damaged.vectorTile(at: Self.central)) { error in
            let error = error as? VectorTileError
            XCTAssertTrue(error?.message.hasPrefix("tile 14/9327/4742") == true, error?.message ?? "")
        }
        XCTAssertNil(try damaged.tileData(at: TileCoordinate(z: 14, x: 0, y: 0)), "a tile the archive lacks is nil")
    }

    // MARK: - Hostile archives

    private func assertError(_ kind: VectorTileError.Kind, containing text: String, _ body: () throws -> Void,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            let error = error as? VectorTileError
            XCTAssertEqual(error?.kind, kind, "\(String(describing: error))", file: file, line: line)
            XCTAssertTrue(error?.message.contains(text) == true, "\(error?.message ?? "nil") lacks '\(text)'", file: file, line: line)
        }
    }

    func testALeafDirectoryPointingAtItselfIsALoop() throws {
        let id = try PMTilesTileID.id(of: TileCoordinate(z: 3, x: 1, y: 1))
        // The leaf's one entry is a leaf entry pointing at the same leaf.
        var leaf = PMTilesTestArchive.directory([.init(tileID: 0, offset: 0, length: 0, runLength: 0)])
        leaf = PMTilesTestArchive.directory([.init(tileID: 0, offset: 0, length: UInt64(leaf.count), runLength: 0)])
        var archive = PMTilesTestArchive(root: [.init(tileID: 0, offset: 0, length: UInt64(leaf.count), runLength: 0)])
        archive.leaves = leaf
        assertError(.corrupt, containing: "loop") { _ = try archive.archive.tileData(at: TileCoordinate(z: 3, x: 1, y: 1)) }
        _ = id
    }

    func testLeafDirectoriesNestedTooDeepAreRefused() throws {
        // Leaves each pointing at the next: five levels, one more than the limit of 4.
        var leaves = [UInt8]()
        var offsets = [UInt64]()
        var pieces = [[UInt8]]()
        for level in 0..<6 {
            offsets.append(UInt64(leaves.count))
            // Every leaf has the same size, so the next one's offset is known.
            let next = UInt64((level + 1) * 8)
            var piece = PMTilesTestArchive.directory([.init(tileID: 0, offset: next, length: 8, runLength: 0)])
            piece += [UInt8](repeating: 0, count: 8 - piece.count)
            pieces.append(piece)
            leaves += piece
        }
        var archive = PMTilesTestArchive(root: [.init(tileID: 0, offset: 0, length: 8, runLength: 0)])
        archive.leaves = leaves
        XCTAssertEqual(offsets[1], 8)
        assertError(.limitExceeded, containing: "deeper than 4") { _ = try archive.archive.tileData(at: TileCoordinate(z: 0, x: 0, y: 0)) }
    }

    func testEntriesPointingOutsideTheFileAreRefused() throws {
        let tile = PMTilesTestArchive.gzip([0x1A, 0])
        var archive = PMTilesTestArchive(root: [.init(tileID: 0, offset: 5, length: UInt64(tile.count), runLength: 1)])
        archive.tiles = tile
        assertError(.corrupt, containing: "tile data section") { _ = try archive.archive.tileData(at: TileCoordinate(z: 0, x: 0, y: 0)) }
        archive.root = [.init(tileID: 0, offset: 1 << 40, length: 10, runLength: 0)]
        assertError(.corrupt, containing: "leaf directories section") { _ = try archive.archive.tileData(at: TileCoordinate(z: 0, x: 0, y: 0)) }
        // A root directory claiming a billion entries in 24 bytes: refused by count.
        var bytes = PMTilesTestArchive(root: [.init(tileID: 0, offset: 0, length: 1, runLength: 1)]).bytes
        let root = PMTilesTestArchive.varint(1_000_000_000) + [UInt8](repeating: 1, count: 24)
        bytes.replaceSubrange(127..<bytes.count, with: root)
        bytes.replaceSubrange(16..<24, with: (0..<8).map { UInt8(truncatingIfNeeded: root.count >> (8 * $0)) })
        for section in [32, 48, 64] { bytes.replaceSubrange(section - 8..<section, with: (0..<8).map { UInt8(truncatingIfNeeded: (127 + root.count) >> (8 * $0)) }) }
        assertError(.corrupt, containing: "claims 1000000000 entries") { _ = try PMTilesArchive(source: PMTilesDataSource(Data(bytes))) }
        // A tile of no zoom level is simply absent.
        XCTAssertNil(try PMTilesArchive(url: Self.archiveURL).tileData(at: TileCoordinate(z: 40, x: 0, y: 0)))
    }

    func testARasterArchiveIsNotReadAsVectorTiles() throws {
        var bytes = try [UInt8](Data(contentsOf: Self.archiveURL))
        bytes[99] = 2  // tile type PNG
        let archive = try PMTilesArchive(source: PMTilesDataSource(Data(bytes)))
        assertError(.unsupported, containing: "PNG tiles") { _ = try archive.vectorTile(at: Self.central) }
        XCTAssertNotNil(try archive.tileData(at: Self.central))
    }

    func testAGzipBombStopsAtTheInflatedLimit() throws {
        let bomb = PMTilesTestArchive.gzip([UInt8](repeating: 0, count: 4 << 20))
        XCTAssertLessThan(bomb.count, 10_000)
        var archive = PMTilesTestArchive(root: [.init(tileID: 0, offset: 0, length: UInt64(bomb.count), runLength: 1)])
        archive.tiles = bomb
        archive.tileCompression = 2
        let limits = VectorTileLimits(inflatedTileBytes: 1 << 20)
        let opened = try PMTilesArchive(source: PMTilesDataSource(Data(archive.bytes)), limits: limits)
        assertError(.limitExceeded, containing: "tile 0/0/0") { _ = try opened.tileData(at: TileCoordinate(z: 0, x: 0, y: 0)) }
    }

    /// Ten million MoveTo points in one command: refused by the vertex limit
    /// before a point is decoded.
    func testATileOfTenMillionCommandsIsRefusedByTheVertexLimit() throws {
        let count: UInt64 = 10_000_000
        var geometry = PMTilesTestArchive.varint(count << 3 | 1)
        geometry += [UInt8](repeating: 2, count: Int(count * 2))
        var feature: [UInt8] = [0x18, 1, 0x22] + PMTilesTestArchive.varint(UInt64(geometry.count)) + geometry
        feature = [0x12] + PMTilesTestArchive.varint(UInt64(feature.count)) + feature
        var layer: [UInt8] = [0x78, 2, 0x0A, 1, 0x61] + feature
        layer = [0x1A] + PMTilesTestArchive.varint(UInt64(layer.count)) + layer
        let tile = PMTilesTestArchive.gzip(layer)
        var archive = PMTilesTestArchive(root: [.init(tileID: 0, offset: 0, length: UInt64(tile.count), runLength: 1)])
        archive.tiles = tile
        archive.tileCompression = 2
        let start = Date()
        assertError(.limitExceeded, containing: "vertices") { _ = try archive.archive.vectorTile(at: TileCoordinate(z: 0, x: 0, y: 0)) }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    /// Directories are held to `directoryBytes` parsed: one whose entry count
    /// would not fit (the root's, or a leaf's beside the root) is refused
    /// before it is parsed, and leaves are kept by bytes, oldest let go.
    func testDirectoriesAreHeldWithinTheirByteBudget() throws {
        // Four leaves of 1,000 one-tile entries (24,000 bytes parsed each).
        let tile = PMTilesTestArchive.gzip([0x1A, 0])
        var leaves = [UInt8](), root = [PMTilesTestArchive.Entry]()
        for leaf in 0..<4 {
            let first = UInt64(leaf * 1000)
            let bytes = PMTilesTestArchive.directory((0..<1000).map { .init(tileID: first + $0, offset: 0, length: UInt64(tile.count), runLength: 1) })
            root.append(.init(tileID: first, offset: UInt64(leaves.count), length: UInt64(bytes.count), runLength: 0))
            leaves += bytes
        }
        var archive = PMTilesTestArchive(root: root)
        archive.leaves = leaves
        archive.tiles = tile
        let data = Data(archive.bytes)
        let rootBytes = 4 * PMTilesDirectory.bytesPerEntry
        let ids: [UInt64] = [5, 1500, 2500, 3500, 10, 1999]

        // Room for the root and two leaves: every tile is found, two leaves kept.
        let roomy = try PMTilesArchive(source: PMTilesDataSource(data), limits: VectorTileLimits(directoryBytes: rootBytes + 50_000))
        for id in ids { XCTAssertNotNil(try roomy.tileRange(id), "tile id \(id)") }
        XCTAssertEqual(roomy.keptLeafBytes, 48_000)

        // Room for the root and less than a leaf: refused, naming the count and the limit.
        let tight = try PMTilesArchive(source: PMTilesDataSource(data), limits: VectorTileLimits(directoryBytes: rootBytes + 20_000))
        assertError(.limitExceeded, containing: "leaf directory at offset 0: it has 1000 entries, 24000 bytes parsed, over the 20000 bytes") {
            _ = try tight.tileRange(5)
        }
        XCTAssertEqual(tight.keptLeafBytes, 0)

        // A root that alone is over the limit is refused on opening.
        assertError(.limitExceeded, containing: "root directory: it has 4 entries, 96 bytes parsed, over the 95 bytes") {
            _ = try PMTilesArchive(source: PMTilesDataSource(data), limits: VectorTileLimits(directoryBytes: rootBytes - 1))
        }
        // Gzipped, the count is read from the first inflated bytes: refused
        // by it before the rest would pass the (here tiny) inflated limit.
        archive.internalCompression = 2
        let gzipped = Data(archive.bytes)
        let small = VectorTileLimits(inflatedTileBytes: 8, directoryBytes: rootBytes - 1)
        assertError(.limitExceeded, containing: "root directory: it has 4 entries, 96 bytes parsed") {
            _ = try PMTilesArchive(source: PMTilesDataSource(gzipped), limits: small)
        }
        assertError(.limitExceeded, containing: "exceeds the limit of 8 bytes") {
            _ = try PMTilesArchive(source: PMTilesDataSource(gzipped), limits: VectorTileLimits(inflatedTileBytes: 8))
        }
    }
}
