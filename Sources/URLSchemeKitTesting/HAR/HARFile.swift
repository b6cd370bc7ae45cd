import Foundation

/// A HAR 1.2 file (the HTTP Archive format browsers export and devtools open):
/// the `log` of recorded exchanges. URLSchemeKitTesting reads and writes
/// recordings as these; fields of our own start with `_`, as the format asks.
///
/// Only what replay needs is kept: a browser's export (pages, timings,
/// initiators) reads, and its other fields are dropped when written again.
public struct HARFile: Codable, Sendable, Equatable {
    /// The archive.
    public var log: HARLog

    /// A file holding `log`.
    public init(log: HARLog) {
        self.log = log
    }
}

/// The root of a HAR file: format version, the tool that wrote it, and the entries in recorded order.
public struct HARLog: Codable, Sendable, Equatable {
    /// The format version, `"1.2"` when we write.
    public var version: String
    /// The tool that wrote the file.
    public var creator: HARCreator
    /// The recorded exchanges, oldest first.
    public var entries: [HAREntry]

    /// A log of `entries`, written by URLSchemeKitTesting.
    public init(entries: [HAREntry], creator: HARCreator = HARCreator(name: "URLSchemeKitTesting", version: "1")) {
        version = "1.2"
        self.creator = creator
        self.entries = entries
    }

    private enum CodingKeys: String, CodingKey {
        case version, creator, entries
    }

    /// Counts the entries before decoding any (``HARReader`` puts the limit in
    /// the decoder's `userInfo`), so a file of 100,000 entries is refused
    /// without building them.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(String.self, forKey: .version)
        creator = try container.decodeIfPresent(HARCreator.self, forKey: .creator) ?? HARCreator(name: "unknown", version: "")
        var list = try container.nestedUnkeyedContainer(forKey: .entries)
        let limit = decoder.userInfo[HARReader.entryLimitKey] as? Int ?? Int.max
        if let count = list.count, count > limit {
            throw HARReadError.tooManyEntries(count: count, limit: limit)
        }
        var entries: [HAREntry] = []
        while !list.isAtEnd {
            guard entries.count < limit else { throw HARReadError.tooManyEntries(count: entries.count + 1, limit: limit) }
            entries.append(try list.decode(HAREntry.self))
        }
        self.entries = entries
    }
}

/// The tool that wrote a HAR file.
public struct HARCreator: Codable, Sendable, Equatable {
    /// Its name.
    public var name: String
    /// Its version.
    public var version: String

    /// A creator named `name` at `version`.
    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }
}
