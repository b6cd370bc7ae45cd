import XCTest
import Synchronization
import ImageCodecs
import Raster
@testable import URLSchemeKit

final class FileAssetStoreTests: XCTestCase {
    /// Reads a test "image": the text `IMG w h orientation`.
    private static let fakeInfo: @Sendable (Data) throws -> ImageInfo = { data in
        let parts = String(decoding: data, as: UTF8.self).split(separator: " ")
        guard parts.count == 4, parts[0] == "IMG", let w = Int(parts[1]), let h = Int(parts[2]),
              let o = Int(parts[3]).flatMap(ImageOrientation.init(rawValue:)) else {
            throw AssetStoreError.unreadableImage("not a test image")
        }
        return ImageInfo(format: .jpeg, width: w, height: h, orientation: o, hasAlpha: false)
    }

    private func store(_ directory: URL? = nil) throws -> FileAssetStore {
        try FileAssetStore(directory: directory ?? makeTemporaryDirectory(), readInfo: Self.fakeInfo)
    }

    func testAddReadDescribeListRemove() throws {
        let store = try store()
        let bytes = Data("IMG 4000 3000 6".utf8)
        let id = try store.add(bytes)
        XCTAssertEqual(try store.data(for: id), bytes)
        let metadata = try store.metadata(for: id)
        XCTAssertEqual(metadata.width, 4000)
        XCTAssertEqual(metadata.orientation, .right)
        XCTAssertEqual(metadata.uprightSize.width, 3000)
        XCTAssertEqual(metadata.byteCount, bytes.count)
        XCTAssertEqual(try store.list(), [id])
        try store.remove(id)
        XCTAssertEqual(try store.list(), [])
        XCTAssertThrowsError(try store.data(for: id)) { XCTAssertEqual($0 as? AssetStoreError, .notFound(id)) }
        XCTAssertThrowsError(try store.remove(id)) { XCTAssertEqual($0 as? AssetStoreError, .notFound(id)) }
    }

    /// The header keeps the format's name and the EXIF number on disk, so
    /// files written when `format` was a String and `orientation` an Int read
    /// back as the codec types, and new files read in old versions.
    func testHeadersKeepTheirOnDiskEncodingOfFormatAndOrientation() throws {
        func file(_ json: String, original: [UInt8] = [1, 2, 3]) -> Data {
            var file = Data()
            withUnsafeBytes(of: UInt32(json.utf8.count).littleEndian) { file.append(contentsOf: $0) }
            return file + Data(json.utf8) + original
        }
        let old = #"{"width":64,"format":"jpeg","height":96,"added":817173548.2,"checksum":285275194,"orientation":6,"byteCount":3,"id":"25sprme5dxnyzqj77fyf7ketya"}"#
        let header = try XCTUnwrap(AssetFileHeader(parsing: file(old), fileSize: file(old).count))
        XCTAssertEqual(header.metadata.format, .jpeg)
        XCTAssertEqual(header.metadata.orientation, .right)
        XCTAssertEqual([header.metadata.uprightSize.width, header.metadata.uprightSize.height], [96, 64])

        let written = try AssetFileHeader.encode(header.metadata)
        let fields = try XCTUnwrap(JSONSerialization.jsonObject(with: written.dropFirst(4)) as? [String: Any])
        XCTAssertEqual(fields["format"] as? String, "jpeg")
        XCTAssertEqual(fields["orientation"] as? Int, 6)
        // A value no version wrote is a damaged header, not a guess.
        for bad in [old.replacingOccurrences(of: "\"jpeg\"", with: "\"tiff\""),
                    old.replacingOccurrences(of: "\"orientation\":6", with: "\"orientation\":9")] {
            XCTAssertNil(AssetFileHeader(parsing: file(bad), fileSize: file(bad).count), bad)
        }
    }

    func testIDsAreOpaqueURLSafeAndUnique() throws {
        let store = try store()
        let ids = try (0..<200).map { _ in try store.add(Data("IMG 1 1 1".utf8)) }
        XCTAssertEqual(Set(ids).count, 200)
        for id in ids {
            XCTAssertNoThrow(try FileAssetStore.validate(id))
            XCTAssertEqual(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics), id)
        }
    }

    func testNothingAURLCarriesReachesOutsideTheDirectory() throws {
        let store = try store()
        for id in ["../../etc/passwd", "", ".", "..", "/etc/passwd", "AAAAAAAAAAAAAAAAAAAAAAAAAA", "aaaaaaaaaaaaaaaaaaaaaaaaa/", "aaaaaaaaaaaaaaaaaaaaaaaaa1", String(repeating: "a", count: 27)] {
            XCTAssertThrowsError(try store.data(for: id), id) { XCTAssertEqual($0 as? AssetStoreError, .invalidID(id)) }
            XCTAssertThrowsError(try store.remove(id), id)
        }
    }

    func testUnreadableAndDamagedFilesAreErrorsNotCrashes() throws {
        let directory = try makeTemporaryDirectory()
        let store = try store(directory)
        XCTAssertThrowsError(try store.add(Data("GIF89a".utf8))) {
            guard case .unreadableImage = $0 as? AssetStoreError else { return XCTFail("\($0)") }
        }
        let id = try store.add(Data("IMG 2 2 1".utf8))
        let file = directory.appendingPathComponent("\(id).asset")
        for damaged in [Data(), Data([1, 2]), Data([255, 255, 255, 127, 0]), Data([4, 0, 0, 0]) + Data("{bad".utf8)] {
            try damaged.write(to: file)
            XCTAssertThrowsError(try store.metadata(for: id))
        }
        // A crash mid-add leaves only a temporary file, which is not an asset.
        try Data("half".utf8).write(to: directory.appendingPathComponent(".tmp-123"))
        XCTAssertEqual(try store.list(), [id])
    }

    func testTwoStoresOnOneDirectorySeeEachOthersAssets() throws {
        let directory = try makeTemporaryDirectory()
        let a = try store(directory), b = try store(directory)
        let ids = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            let store = i % 2 == 0 ? a : b
            for _ in 0..<25 {
                if let id = try? store.add(Data("IMG \(i + 1) 1 1".utf8)) { ids.withLock { $0.append(id) } }
            }
        }
        let added = ids.withLock { $0 }
        XCTAssertEqual(Set(try a.list()), Set(added))
        XCTAssertEqual(added.count, 200)
        for id in added { XCTAssertNoThrow(try b.metadata(for: id)) }
    }
}

final class FileAssetStoreDefaultReaderTests: XCTestCase {
    func testTheDefaultReaderDescribesRealPNGsAndRefusesOtherBytes() throws {
        let store = try FileAssetStore(directory: makeTemporaryDirectory())
        let png = try PNGEncoder().encode(Bitmap(width: 40, height: 30, fill: RGBA(10, 20, 30, 128)))
        let id = try store.add(png)
        let metadata = try store.metadata(for: id)
        XCTAssertEqual([metadata.width, metadata.height], [40, 30])
        XCTAssertEqual(metadata.format, .png)
        XCTAssertEqual(try store.data(for: id), png)
        XCTAssertThrowsError(try store.add(Data("not an image".utf8))) { error in
            XCTAssertEqual("\(error)", "not a readable image: the data is not PNG, JPEG, GIF or WebP: its first bytes 6E 6F 74 20 61 6E 20 69 6D 61 67 65 match no known signature")
        }
    }
}
