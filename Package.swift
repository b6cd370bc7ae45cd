// swift-tools-version:6.0
// Swift 6 language mode (the tools version's default). No package dependencies:
// Foundation, FoundationNetworking, Dispatch and XCTest only.
import PackageDescription

let package = Package(
    name: "URLSchemeKit",
    // Apple platforms only bound the minimum versions (Synchronization's Mutex
    // and Atomic need macOS 15 / iOS 18); Linux is the primary platform.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "URLSchemeKit", targets: ["URLSchemeKit"]),
        .library(name: "ImageCodecs", targets: ["ImageCodecs"]),
        .library(name: "Raster", targets: ["Raster"]),
        .library(name: "MapRendering", targets: ["MapRendering"]),
        .library(name: "URLSchemeServer", targets: ["URLSchemeServer"]),
        .library(name: "URLSchemeKitTesting", targets: ["URLSchemeKitTesting"]),
        .executable(name: "urlscheme", targets: ["urlscheme"]),
        .executable(name: "urlscheme-bench", targets: ["urlscheme-bench"]),
        .executable(name: "maplibre-render-tests", targets: ["maplibre-render-tests"]),
    ],
    targets: [
        // Pixels and geometry; no I/O. The embedded font's licence travels beside it.
        .target(name: "Raster", exclude: ["Text/Fonts/DejaVuSans-LICENSE.txt"]),
        // Bytes <-> bitmaps: deflate, PNG, JPEG.
        .target(name: "ImageCodecs", dependencies: ["Raster"]),
        // Geography: projection, basemap, styles, map renderers. The built-in glyphs' licence travels beside them.
        .target(name: "MapRendering", dependencies: ["Raster", "ImageCodecs"], exclude: ["Symbols/Fonts/OpenSans-LICENSE.txt"]),
        // The URL Loading System face: protocols, cache, stores, builders.
        .target(name: "URLSchemeKit", dependencies: ["Raster", "ImageCodecs", "MapRendering"]),
        // HTTP/1.1 over POSIX sockets and Dispatch: every scheme for browsers and caches.
        .target(name: "URLSchemeServer", dependencies: ["URLSchemeKit", "CLinuxEvents"]),
        // Linux's epoll and eventfd, which Swift's Glibc module leaves out, for the server's event loops.
        .target(name: "CLinuxEvents"),
        // Recorded HTTP sessions (HAR 1.2) and stubs, for users' test suites (links XCTest).
        .target(name: "URLSchemeKitTesting", dependencies: ["URLSchemeKit", "ImageCodecs"]),
        .executableTarget(name: "urlscheme", dependencies: ["URLSchemeKit", "URLSchemeServer"], exclude: ["Gallery/IJG-LICENSE.txt"]),
        .executableTarget(
            name: "urlscheme-bench",
            dependencies: ["URLSchemeKit", "ImageCodecs", "Raster", "MapRendering", "URLSchemeKitTesting"]
        ),
        // MapLibre's render tests run against MapRendering: the runner and its
        // comparison, shared by the executable and the tests (not a product).
        .target(name: "MapRenderTesting", dependencies: ["MapRendering", "ImageCodecs", "Raster"]),
        .executableTarget(name: "maplibre-render-tests", dependencies: ["MapRenderTesting"], exclude: ["README.md"]),
        .testTarget(name: "RasterTests", dependencies: ["Raster"], exclude: ["Fixtures"]),
        .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs"], exclude: ["Fixtures"]),
        .testTarget(name: "MapRenderingTests", dependencies: ["MapRendering", "ImageCodecs", "MapRenderTesting"], exclude: ["Fixtures"]),
        .testTarget(name: "URLSchemeKitTests", dependencies: ["URLSchemeKit"], exclude: ["Fixtures", "Hostile"]),
        .testTarget(name: "URLSchemeServerTests", dependencies: ["URLSchemeServer", "URLSchemeKit"]),
        .testTarget(name: "URLSchemeKitTestingTests", dependencies: ["URLSchemeKitTesting", "URLSchemeKit"], exclude: ["Recordings"]),
        // Examples/RecordedAPI: a user's test target recording against a local server once, then replaying offline.
        .testTarget(name: "RecordedAPIExampleTests", dependencies: ["URLSchemeKitTesting"], path: "Examples/RecordedAPI",
                    exclude: ["Recordings", "Origin", "README.md"]),
    ]
)
