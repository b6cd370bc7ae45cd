import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The image of one place that shows a URL (a cell, a view, a response
/// being assembled): what `URLImageView` is to a UI toolkit.
///
/// In Swift concurrency, a `@MainActor` cell awaits `image(for:size:)`,
/// which returns on the cell's actor only while the URL is still the slot's:
///
/// ```swift
/// @MainActor final class AvatarCell {
///     let slot = ImageSlot()
///     func configure(_ url: URL) async {
///         if let image = try? await slot.image(for: url, size: ImageTargetSize(width: 96, height: 96)) { show(image.bitmap) }
///     }
///     func show(_ bitmap: Bitmap) { /* … */ }
/// }
/// ```
///
/// With completion handlers, on the slot's `queue`:
///
/// ```swift
/// slot.load(avatarURL, size: ImageTargetSize(width: 96, height: 96)) { result in
///     if case .success(let image) = result { view.show(image.bitmap) }
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

    /// A slot loading through `loader`, calling `load`'s handlers on `queue`
    /// (`image(for:)` returns on its caller's actor instead).
    public init(loader: ImageLoader = .shared, queue: DispatchQueue = .main) {
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
        start(url, size: size, priority: priority, queue: queue) { result, isCurrent in
            if isCurrent { completion(result) }
        }
    }

    /// Loads `url` into the slot, cancelling the previous load, and returns
    /// its image on the caller's actor: the form for Swift concurrency, where
    /// a `@MainActor` cell awaits it and shows the image with no hop or
    /// `Sendable` capture.
    ///
    /// Returns only while `url` is still the slot's current load, checked on
    /// the caller's actor after the image arrives, so between the return and
    /// the caller's next line no `load` or `reset` from the same actor can
    /// slip in. Throws `URLError(.cancelled)` when the slot moved on (another
    /// `load`, `image`, or `reset`) or the calling `Task` was cancelled
    /// (which also cancels this load), and the loader's error when the load fails.
    public func image(
        for url: URL, size: ImageTargetSize? = nil, priority: ImagePriority = .high,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> LoadedImage {
        // The generation this call started, and whether its Task was cancelled before that was known.
        let started = Mutex<(generation: Int?, cancelled: Bool)>((nil, false))
        let result: Result<LoadedImage, Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let generation = start(url, size: size, priority: priority, queue: .global(qos: .userInitiated)) { result, isCurrent in
                    continuation.resume(returning: isCurrent ? result : .failure(ImageTask.cancelledError(url)))
                }
                if started.withLock({ $0.generation = generation; return $0.cancelled }) { reset(ifStillAt: generation) }
            }
        } onCancel: {
            if let generation = started.withLock({ $0.cancelled = true; return $0.generation }) { reset(ifStillAt: generation) }
        }
        let image = try result.get()
        guard isCurrent(started.withLock { $0.generation }) else { throw ImageTask.cancelledError(url) }
        return image
    }

    /// Whether the slot is still at `loadGeneration`.
    private func isCurrent(_ loadGeneration: Int?) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return loadGeneration == generation
    }

    /// Starts a load of the slot's next generation and returns that
    /// generation. `deliver` gets the result once, on `queue`, under the
    /// slot's lock, told whether the load is still the slot's current one.
    @discardableResult
    private func start(
        _ url: URL, size: ImageTargetSize?, priority: ImagePriority, queue: DispatchQueue,
        deliver: @escaping @Sendable (Result<LoadedImage, Error>, _ isCurrent: Bool) -> Void
    ) -> Int {
        lock.lock()
        generation += 1
        let loadGeneration = generation
        let previous = currentTask
        currentURL = url
        currentTask = nil
        lock.unlock()
        previous?.cancel()

        let task = loader.loadImage(for: url, size: size, priority: priority, queue: queue) { [weak self] result in
            guard let self else { return deliver(result, false) }
            self.lock.lock()
            defer { self.lock.unlock() }
            let isCurrent = self.generation == loadGeneration
            if isCurrent { self.currentTask = nil }
            deliver(result, isCurrent)
        }
        lock.lock()
        let superseded = generation != loadGeneration
        if !superseded { currentTask = task }
        lock.unlock()
        if superseded { task.cancel() }
        return loadGeneration
    }

    /// Cancels the slot's load and forgets its URL: the reuse hook. No handler
    /// of an earlier load runs afterwards.
    public func reset() {
        reset(ifStillAt: nil)
    }

    /// `reset()`, only while the slot is at `expected` generation (nil: always).
    private func reset(ifStillAt expected: Int?) {
        lock.lock()
        if let expected, expected != generation {
            lock.unlock()
            return
        }
        generation += 1
        let previous = currentTask
        currentURL = nil
        currentTask = nil
        lock.unlock()
        previous?.cancel()
    }
}
