/// One PMTiles v3 directory (the root or a leaf), decoded from its varint
/// columns: entry count, tile id deltas, run lengths, lengths, offsets (0 =
/// straight after the previous entry, else offset + 1). An entry with a run
/// length of 0 points at a leaf directory instead of a tile.
struct PMTilesDirectory: Sendable {
    struct Entry: Equatable, Sendable {
        var tileID: UInt64
        /// Offset from the start of the tile data (tiles) or leaf section (leaves).
        var offset: UInt64
        var length: UInt32
        /// Consecutive tile ids sharing these bytes; 0 for a leaf directory.
        var runLength: UInt32
    }

    let entries: [Entry]

    /// The bytes one parsed entry takes in memory.
    static let bytesPerEntry = MemoryLayout<Entry>.stride

    /// The bytes the parsed entries take (what a directory cache counts).
    var byteCount: Int { entries.count * Self.bytesPerEntry }

    /// Decodes an inflated directory; `what` names it in errors. A directory
    /// whose entry count (its first varint) would take more than
    /// `byteLimit` bytes parsed is refused before anything is allocated for it.
    init(_ bytes: [UInt8], what: String, byteLimit: Int = .max) throws {
        entries = try bytes.withUnsafeBufferPointer { buffer in
            var reader = ProtobufReader(buffer)
            do {
                let count = try reader.varint()
                // Each entry takes at least four one-byte varints: a count the
                // bytes cannot hold is refused before allocating for it.
                guard count <= UInt64(reader.remaining / 4) else {
                    throw VectorTileError(.corrupt, "it claims \(count) entries in \(reader.remaining) bytes")
                }
                guard count > 0 else { throw VectorTileError(.corrupt, "it has no entries") }
                try Self.check(count, byteLimit: byteLimit)
                var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: Int(count))
                var id: UInt64 = 0
                for i in entries.indices {
                    let delta = try reader.varint()
                    guard i == 0 || delta > 0 else { throw VectorTileError(.corrupt, "entry \(i) repeats tile id \(id)") }
                    let (next, overflow) = id.addingReportingOverflow(delta)
                    guard !overflow else { throw VectorTileError(.corrupt, "entry \(i)'s tile id overflows") }
                    id = next
                    entries[i].tileID = id
                }
                for i in entries.indices { entries[i].runLength = try reader.uint32("entry \(i)'s run length") }
                for i in entries.indices {
                    entries[i].length = try reader.uint32("entry \(i)'s length")
                    guard entries[i].length > 0 else { throw VectorTileError(.corrupt, "entry \(i) has length 0") }
                }
                for i in entries.indices {
                    let value = try reader.varint()
                    if value == 0 {
                        guard i > 0 else { throw VectorTileError(.corrupt, "entry 0's offset says 'after the previous entry'") }
                        let (offset, overflow) = entries[i - 1].offset.addingReportingOverflow(UInt64(entries[i - 1].length))
                        guard !overflow else { throw VectorTileError(.corrupt, "entry \(i)'s offset overflows") }
                        entries[i].offset = offset
                    } else {
                        entries[i].offset = value - 1
                    }
                }
                return entries
            } catch let error as VectorTileError {
                throw error.prefixed(what)
            }
        }
    }

    /// Refuses a directory whose first bytes (`head`, inflated) give an
    /// entry count that would take more than `byteLimit` bytes parsed; `what`
    /// names it. Head bytes too short to hold the count pass (the whole
    /// directory is checked again when parsed).
    static func checkEntryCount(head: [UInt8], byteLimit: Int, what: String) throws {
        try head.withUnsafeBufferPointer { buffer in
            var reader = ProtobufReader(buffer)
            guard let count = try? reader.varint() else { return }
            do {
                try check(count, byteLimit: byteLimit)
            } catch let error as VectorTileError {
                throw error.prefixed(what)
            }
        }
    }

    private static func check(_ count: UInt64, byteLimit: Int) throws {
        guard count <= UInt64(max(0, byteLimit) / bytesPerEntry) else {
            throw VectorTileError(.limitExceeded, "it has \(count) entries, \(count * UInt64(bytesPerEntry)) bytes parsed, over the \(byteLimit) bytes of directories it may take (VectorTileLimits.directoryBytes)")
        }
    }

    /// The entry covering `id`: a tile entry whose run includes it, or the
    /// leaf directory entry whose range may hold it; nil when none does.
    func entry(covering id: UInt64) -> Entry? {
        // The last entry whose tile id is ≤ id.
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].tileID <= id { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let entry = entries[low - 1]
        if entry.runLength == 0 { return entry }
        return id - entry.tileID < UInt64(entry.runLength) ? entry : nil
    }
}
