import Foundation
import XCTest
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLSchemeKit

/// The `Fixtures/assets` files (see `make_asset_fixtures.py` there) and the
/// plumbing the asset and avatar tests share.
enum AssetFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/assets", isDirectory: true)

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    /// One row of `cases.tsv`: a name, the source file and the URL's query after `id`.
    struct Case {
        var name: String
        var source: String
        var query: String
    }

    static func cases() throws -> [Case] {
        try String(contentsOf: directory.appendingPathComponent("cases.tsv"), encoding: .utf8)
            .split(separator: "\n").map { line in
                let fields = line.split(separator: "\t").map(String.init)
                return Case(name: fields[0], source: fields[1], query: fields[2])
            }
    }

    /// Decodes a loaded body by its content type.
    static func decode(_ data: Data, mimeType: String?) throws -> Bitmap {
        switch mimeType {
        case "image/png": return try PNGDecoder().decode(data)
        case "image/jpeg": return try JPEGDecoder().decode(data)
        case "image/webp": return try WebPDecoder().decode(data)
        case "image/gif": return try GIFDecoder().decode(data)
        default: throw URLError(.cannotDecodeContentData)
        }
    }

    /// PSNR in dB of two same-sized bitmaps over premultiplied RGB and alpha,
    /// so colour under transparent pixels does not count; infinity when equal.
    /// `opaqueOnly` compares only pixels opaque in both.
    static func psnr(_ a: Bitmap, _ b: Bitmap, opaqueOnly: Bool = false) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        var squares = 0.0, count = 0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            let alphaA = Double(a.pixels[i + 3]), alphaB = Double(b.pixels[i + 3])
            if opaqueOnly, alphaA < 255 || alphaB < 255 { continue }
            count += 4
            for c in 0..<3 {
                let d = (Double(a.pixels[i + c]) * alphaA - Double(b.pixels[i + c]) * alphaB) / 255
                squares += d * d
            }
            squares += (alphaA - alphaB) * (alphaA - alphaB)
        }
        let mse = squares / Double(max(1, count))
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}

extension XCTestCase {
    /// A file store in a fresh directory, and a source of its photos (with a
    /// new decoded-image cache) for `makeSchemeSession(_:)`.
    func makeAssetStore(budget: ResourceBudget = ResourceBudget()) throws -> (store: FileAssetStore, source: AssetImageSource) {
        let store = try FileAssetStore(directory: makeTemporaryDirectory(), budget: budget)
        return (store, AssetImageSource(store: store))
    }

    /// A session with every URLSchemeKit protocol, a memory-only
    /// `QueryKeyedURLCache`, and an environment of `assets` and `budget`.
    func makeSchemeSession(_ assets: AssetImageSource? = nil, budget: ResourceBudget = ResourceBudget()) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(assets: assets, budget: budget,
                                                                  imageCache: QueryKeyedURLCache(memoryCapacity: 16 << 20, diskCapacity: 0), httpCache: nil))
        return URLSession(configuration: configuration)
    }

    /// Loads `url` and decodes the image it answers with.
    func loadImage(_ session: URLSession, _ url: String) async throws -> (bitmap: Bitmap, mimeType: String?) {
        let (data, response) = try await session.data(from: XCTUnwrap(URL(string: url)))
        return (try AssetFixtures.decode(data, mimeType: response.mimeType), response.mimeType)
    }

    /// The `URLError` loading `url` fails with.
    func loadError(_ session: URLSession, _ url: String, file: StaticString = #filePath, line: UInt = #line) async -> URLError? {
        do {
            _ = try await session.data(from: URL(string: url)!)
            XCTFail("\(url) loaded", file: file, line: line)
            return nil
        } catch {
            guard let error = error as? URLError else {
                XCTFail("\(url): \(error) is no URLError", file: file, line: line)
                return nil
            }
            return error
        }
    }
}
