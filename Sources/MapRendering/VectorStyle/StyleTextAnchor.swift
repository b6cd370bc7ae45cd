/// Which part of a label sits at its anchor (`text-anchor`, default center).
public enum StyleTextAnchor: String, Sendable, CaseIterable {
    /// The label's centre.
    case center
    /// The middle of its left edge.
    case left
    /// The middle of its right edge.
    case right
    /// The middle of its top edge.
    case top
    /// The middle of its bottom edge.
    case bottom
    /// Its top-left corner.
    case topLeft = "top-left"
    /// Its top-right corner.
    case topRight = "top-right"
    /// Its bottom-left corner.
    case bottomLeft = "bottom-left"
    /// Its bottom-right corner.
    case bottomRight = "bottom-right"

    /// The fraction of the label's width left of the anchor (MapLibre's `horizontalAlign`): 0, ½ or 1.
    var horizontalAlign: Double {
        switch self {
        case .left, .topLeft, .bottomLeft: return 0
        case .right, .topRight, .bottomRight: return 1
        default: return 0.5
        }
    }

    /// The fraction of the label's height above the anchor (MapLibre's `verticalAlign`): 0, ½ or 1.
    var verticalAlign: Double {
        switch self {
        case .top, .topLeft, .topRight: return 0
        case .bottom, .bottomLeft, .bottomRight: return 1
        default: return 0.5
        }
    }

    /// `text-justify: auto`'s choice for this anchor: the side the text hangs from.
    var justification: StyleTextJustify {
        switch self {
        case .left, .topLeft, .bottomLeft: return .left
        case .right, .topRight, .bottomRight: return .right
        default: return .center
        }
    }
}
