/// How urgently a load should run. Shared loads run at the highest priority
/// among their waiters, so a display request joining a prefetch raises it.
public enum ImagePriority: Int, Comparable, Sendable, CaseIterable {
    /// Prefetching: runs when nothing more urgent waits.
    case low
    /// The default for `ImageLoader.image(for:size:priority:)`.
    case normal
    /// On screen now: the default for `ImageSlot`.
    case high

    /// Orders by urgency (`.low` < `.normal` < `.high`).
    public static func < (lhs: ImagePriority, rhs: ImagePriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
