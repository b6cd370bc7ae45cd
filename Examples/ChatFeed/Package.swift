// swift-tools-version:6.0
// An app's view of URLSchemeKit: depends on the package by path (as a user's
// app depends on it by URL) and imports only URLSchemeKit.
import PackageDescription

let package = Package(
    name: "ChatFeed",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "URLSchemeKit", path: "../..")],
    targets: [
        .executableTarget(name: "ChatFeed", dependencies: [.product(name: "URLSchemeKit", package: "URLSchemeKit")]),
    ]
)
