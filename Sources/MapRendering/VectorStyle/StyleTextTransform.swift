/// How a label's letters are cased (`text-transform`, default none).
public enum StyleTextTransform: String, Sendable {
    /// As the feature gives them.
    case none
    /// Upper case.
    case uppercase
    /// Lower case.
    case lowercase

    /// `text` transformed.
    func apply(_ text: String) -> String {
        switch self {
        case .none: return text
        case .uppercase: return text.uppercased()
        case .lowercase: return text.lowercased()
        }
    }
}
