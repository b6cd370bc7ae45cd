/// Why bytes could not be read as a TrueType font. Every field and offset is
/// checked against the data, so a damaged or hostile font fails here instead
/// of trapping or allocating without bound.
public enum TrueTypeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A table the reader needs is absent.
    case missingTable(String)
    /// A table (or the file header) ends before a field it declares.
    case truncated(String)
    /// A field holds a value the format does not allow; the message names it.
    case malformed(String)

    /// A sentence naming the table or field.
    public var description: String {
        switch self {
        case let .missingTable(tag): return "TrueType font has no '\(tag)' table"
        case let .truncated(what): return "TrueType font data ends inside \(what)"
        case let .malformed(what): return "TrueType font is malformed: \(what)"
        }
    }
}
