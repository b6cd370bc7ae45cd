import XCTest
import ImageCodecs
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MapRendering
@testable import URLSchemeKit

/// Real URLSessions for `map://` camera tests (bearing, pitch): URLSchemeKit
/// installed with the given tile sources, and the pictures they load.
enum MapURLTestSession {
    /// A session with `sources` and an in-memory image cache.
    static func session(_ sources: MapTileSources) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.installURLSchemeKit(URLSchemeKitEnvironment(tileSources: sources, imageCache: QueryKeyedURLCache(memoryCapacity: 16 << 20, diskCapacity: 0),
                                                                  httpCache: nil))
        return URLSession(configuration: configuration)
    }

    /// A session with the Helsinki archive as `hel`.
    static func helsinki() throws -> URLSession {
        var sources = MapTileSources()
        sources.register("hel", try VectorTileSource.open(VectorMapURLTests.archive("openmaptiles"), style: .automatic))
        return session(sources)
    }

    /// The picture `map://?` + `query` loads, checked to be a 200 response.
    static func image(_ session: URLSession, _ query: String) async throws -> Bitmap {
        let (data, response) = try await session.data(from: try XCTUnwrap(URL(string: "map://?" + query)))
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        return try ImageDecoder.decode(data).bitmap
    }

    /// Whether `c` is the tests' magenta (paths and markers).
    static func isMagenta(_ c: RGBA) -> Bool { c.r > 230 && c.g < 30 && c.b > 230 }

    /// Each of `values` given as `parameter` after `query` fails to load with
    /// `badURL`, its message holding the text paired with it.
    static func assertRefused(_ session: URLSession, _ query: String, parameter: String, _ values: [(value: String, expected: String)],
                              file: StaticString = #filePath, line: UInt = #line) async {
        for (value, expected) in values {
            let text = "map://?" + query + "&" + parameter + "=" + value
            do {
                _ = try await session.data(from: URL(string: text)!)
                XCTFail("\(text) loaded", file: file, line: line)
            } catch let error as URLError {
                XCTAssertEqual(error.code, .badURL, text, file: file, line: line)
                XCTAssertTrue(error.localizedDescription.contains(expected), error.localizedDescription, file: file, line: line)
            } catch {
                XCTFail("\(text): \(error)", file: file, line: line)
            }
        }
    }
}
