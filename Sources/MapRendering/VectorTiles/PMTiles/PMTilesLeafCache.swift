/// The leaf directories a `PMTilesArchive` keeps, by offset in the leaf
/// section, counted in parsed bytes: inserting one lets go of the oldest
/// until the total fits the budget (a leaf larger than the budget is never
/// kept, though the archive refuses those before parsing them).
struct PMTilesLeafCache: Sendable {
    private var directories: [UInt64: PMTilesDirectory] = [:]
    /// Offsets in the order they were inserted, oldest first.
    private var order: [UInt64] = []
    /// The parsed bytes of every directory kept.
    private(set) var byteCount = 0

    /// The directory kept for `offset`, if any.
    func directory(at offset: UInt64) -> PMTilesDirectory? { directories[offset] }

    /// Keeps `directory` for `offset`, letting go of the oldest until all
    /// kept fit in `budget` bytes.
    mutating func insert(_ directory: PMTilesDirectory, at offset: UInt64, budget: Int) {
        guard directories[offset] == nil, directory.byteCount <= budget else { return }
        var dropped = 0
        while byteCount + directory.byteCount > budget, dropped < order.count {
            if let old = directories.removeValue(forKey: order[dropped]) { byteCount -= old.byteCount }
            dropped += 1
        }
        order.removeFirst(dropped)
        directories[offset] = directory
        order.append(offset)
        byteCount += directory.byteCount
    }
}
