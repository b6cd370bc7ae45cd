/// What became of one render test.
enum RenderTestOutcome: Sendable, Equatable {
    /// Drawn, and at most the allowed fraction of pixels differs (`difference`).
    case passed(difference: Double)
    /// Drawn, and more than the allowed fraction of pixels differs.
    case failed(difference: Double)
    /// Not drawn: the style needs what the renderer cannot yet express (a
    /// source type, a layer type, the camera's bearing or pitch …), named.
    case unsupported(String)
    /// Not drawn: the renderer refused the style or failed, with its message.
    case error(String)

    /// A word for the table: `pass`, `fail`, `unsupported` or `error`.
    var label: String {
        switch self {
        case .passed: "pass"
        case .failed: "fail"
        case .unsupported: "unsupported"
        case .error: "error"
        }
    }
}
