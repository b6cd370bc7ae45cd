import Foundation
import MapRendering
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RenderCancellation {
    /// Cancels the render because its deadline of `seconds` passed: `check()`
    /// then throws `URLError(.timedOut)` naming the deadline.
    func expire(deadline seconds: TimeInterval) {
        cancel(reason: URLErrors.make(.timedOut, "the render took longer than its deadline of \(QueryWriter.format(seconds)) s (ResourceBudget.renderDeadline)", url: nil))
    }
}
