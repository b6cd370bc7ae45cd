import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The store `asset://` and `avatar://` use before the app names one: every
/// call fails with an error that says how to configure a real store.
struct UnconfiguredAssetStore: AssetStore {
    private var error: URLError {
        URLErrors.make(.resourceUnavailable, "no asset store is configured: call URLSchemeKitProtocols.useAssetStore(_:) first", url: nil)
    }

    func add(_ data: Data) throws -> String { throw error }
    func data(for id: String) throws -> Data { throw error }
    func metadata(for id: String) throws -> AssetMetadata { throw error }
    func remove(_ id: String) throws { throw error }
    func list() throws -> [String] { throw error }
}
