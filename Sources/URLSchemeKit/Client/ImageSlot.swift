import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The image of one place that shows a URL (a cell, a view, a response
/// being assembled): what `URLImageView` is to a UI toolkit.
///
/// ```swift
/// slot.load(avatarURL, size: ImageTargetSize(width: 96, height: 96)) { result in
///     if case .success(let image) = result { cell.show(image.bitmap) }
/// }
/// // On reuse:
/// slot.reset()
/// ```
///
/// `load` cancels the slot's previous load. A handler runs only while its URL
/// is the slot's current one: each load takes a new generation, and the
/// delivery checks it and calls the handler holding the slot's lock, so no
/// `load` or `reset` can slip in between the check and the handler, and a
/// superseded load that finishes in a race is dropped. The lock is recursive:
/// a handler may call `load` or `reset` on its own slot. Calls to `url`,
/// `load` and `reset` from other threads wait while a handler runs, so
/// handlers should be short, and no thread should call them while holding a
/// lock that a handler takes (the two would wait for each other).
public final class ImageSlot: @unchecked Sendable {  // every stored var is guarded by `lock`
    /// The loader the slot loads through.
    public let loader: ImageLoader
    /// Where handlers run.
    public let queue: DispatchQueue

    private let lock = NSRecursiveLock()
    private var generation = 0
    private var currentURL: URL?
    private var currentTask: ImageTask?

    /// A slot loading through `loader`, calling its handlers on `queue`.
    public init(loader: ImageLoader = .shared, queue: DispatchQueue) {
        self.loader = loader
        self.queue = queue
    }

    /// The URL the slot shows or is loading; nil after `reset()`.
    public var url: URL? {
        lock.lock()
        defer { lock.unlock() }
        return currentURL
    }

    /// Loads `url` into the slot, cancelling the previous load. `completion`
    /// runs once on `queue` if `url` is still the slot's URL when the result
    /// is ready, and never otherwise.
    public func load(
        _ url: URL, size: ImageTargetSize? = nil, priority: ImagePriority = .high,
        completion: @escaping @Sendable (Result<LoadedImage, Error>) -> Void
    ) {
        lock.lock()
        generation += 1
        let loadGeneration = generation
        let previous = currentTask
        currentURL = url
        currentTask = nil
        lock.unlock()
        previous?.cancel()

        let task = loader.loadImage(for: url, size: size, priority: priority, queue: queue) { [weak self] result in
            self?.deliver(result, generation: loadGeneration, to: completion)
        }
        lock.lock()
        let superseded = generation != loadGeneration
        if !superseded { currentTask = task }
        lock.unlock()
        if superseded { task.cancel() }
    }

    /// Cancels the slot's load and forgets its URL: the reuse hook. No handler
    /// of an earlier load runs afterwards.
    public func reset() {
        lock.lock()
        generation += 1
        let previous = currentTask
        currentURL = nil
        currentTask = nil
        lock.unlock()
        previous?.cancel()
    }

    /// Runs `completion` if the load of `loadGeneration` is still the slot's current one.
    private func deliver(_ result: Result<LoadedImage, Error>, generation loadGeneration: Int,
                         to completion: @Sendable (Result<LoadedImage, Error>) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard generation == loadGeneration else { return }
        currentTask = nil
        completion(result)
    }
}
