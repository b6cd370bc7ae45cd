import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit

/// A list view scrolling through `rows` at a steady speed, as a UI would
/// drive the loader: recycled cells with an `ImageSlot` per image, rows
/// prefetched ahead of the viewport, prefetches withdrawn once a row has
/// scrolled past. Runs in real time on the calling thread.
struct ScrollSimulation {
    let rows: [ScrollBenchmarks.Row]
    let loader: ImageLoader
    var viewportRows = ScrollBenchmarks.viewportRows
    var rowsPerSecond = ScrollBenchmarks.rowsPerSecond
    var prefetchRows = ScrollBenchmarks.prefetchRows

    struct Outcome {
        /// Rows whose two images were in the loader's memory when the row appeared.
        var readyRows = 0
        /// Rows that were not (the first few): index and which image was missing.
        var lateRows: [(row: Int, missing: String)] = []
        /// Deliveries to a slot whose URL had changed: must be 0.
        var stale = 0
        /// Distinct image URLs shown in a slot.
        var displayedURLs = 0
        var peakMemoryCacheBytes = 0
        var seconds = 0.0
    }

    /// One recycled cell: a slot per image.
    private struct Cell {
        let map: ImageSlot
        let avatar: ImageSlot
    }

    func run() -> Outcome {
        let delivery = DispatchQueue(label: "ScrollSimulation.delivery")  // the "main" queue of this list
        let cells = (0..<viewportRows).map { _ in
            Cell(map: ImageSlot(loader: loader, queue: delivery), avatar: ImageSlot(loader: loader, queue: delivery))
        }
        let stale = Atomic<Int>(0)
        let displayed = Mutex(Set<URL>())
        var outcome = Outcome()
        let lastTop = rows.count - viewportRows
        let start = Date()
        var top = -1
        var prefetchedUpTo = viewportRows  // rows below this index have been prefetched or shown

        func show(_ row: Int) {
            let cell = cells[row % viewportRows]
            let urls = rows[row]
            let mapReady = loader.cachedImage(for: urls.mapURL, size: ScrollBenchmarks.mapSize) != nil
            let avatarReady = loader.cachedImage(for: urls.avatarURL, size: ScrollBenchmarks.avatarSize) != nil
            if mapReady && avatarReady {
                outcome.readyRows += 1
            } else if outcome.lateRows.count < 32 {
                outcome.lateRows.append((row, [mapReady ? nil : "map", avatarReady ? nil : "avatar"].compactMap { $0 }.joined(separator: "+")))
            }
            for (slot, url, size) in [(cell.map, urls.mapURL, ScrollBenchmarks.mapSize), (cell.avatar, urls.avatarURL, ScrollBenchmarks.avatarSize)] {
                slot.load(url, size: size) { result in
                    guard case .success(let image) = result else { return }
                    if slot.url != image.url || image.url != url { stale.add(1, ordering: .relaxed) }
                    displayed.withLock { _ = $0.insert(url) }
                }
            }
        }

        while top < lastTop {
            let due = min(lastTop, Int(Date().timeIntervalSince(start) * rowsPerSecond))
            while top < due {
                top += 1
                let entering = top == 0 ? Array(0..<viewportRows) : [top + viewportRows - 1]
                for row in entering { show(row) }
                if top > 0 {
                    let passed = rows[top - 1]
                    loader.cancelPrefetch([passed.mapURL], size: ScrollBenchmarks.mapSize)
                    loader.cancelPrefetch([passed.avatarURL], size: ScrollBenchmarks.avatarSize)
                }
                let horizon = min(rows.count, top + viewportRows + prefetchRows)
                if prefetchedUpTo < horizon {
                    let ahead = rows[prefetchedUpTo..<horizon]
                    loader.prefetch(ahead.map(\.mapURL), size: ScrollBenchmarks.mapSize)
                    loader.prefetch(ahead.map(\.avatarURL), size: ScrollBenchmarks.avatarSize)
                    prefetchedUpTo = horizon
                }
            }
            outcome.peakMemoryCacheBytes = max(outcome.peakMemoryCacheBytes, loader.memoryCache.totalBytes)
            usleep(2_000)
        }
        // Let the last screen finish loading before counting what was shown.
        let deadline = Date().addingTimeInterval(10)
        let lastScreen = rows.suffix(viewportRows).flatMap { [$0.mapURL, $0.avatarURL] }
        while Date() < deadline, !displayed.withLock({ shown in lastScreen.allSatisfy(shown.contains) }) {
            usleep(2_000)
        }
        outcome.seconds = Date().timeIntervalSince(start)
        delivery.sync {}
        outcome.stale = stale.load(ordering: .relaxed)
        outcome.displayedURLs = displayed.withLock { $0.count }
        return outcome
    }
}
