/// What `asset://` and `avatar://` say in an environment without a store.
enum UnconfiguredAssetStore {
    static let message = "this session's environment has no asset store: install URLSchemeKitEnvironment(assets: AssetImageSource(store: …))"
}
