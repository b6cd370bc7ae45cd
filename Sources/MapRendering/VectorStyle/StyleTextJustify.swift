/// How the lines of a label align with each other (`text-justify`, default center).
public enum StyleTextJustify: String, Sendable {
    /// By the anchor: left for left anchors, right for right ones, else centred.
    case auto
    /// Left edges aligned.
    case left
    /// Centred.
    case center
    /// Right edges aligned.
    case right

    /// The fraction of a line's width shifted left (MapLibre's `justify`): 0, ½ or 1.
    var fraction: Double {
        switch self {
        case .left: return 0
        case .right: return 1
        case .center, .auto: return 0.5
        }
    }
}
