import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads images by URL through a `URLSession` (every URLSchemeKit scheme and
/// `http(s)` alike) and decodes them with the package's codecs, off the
/// caller's thread, at the size asked for (an ``ImageTargetSize``). A view
/// shows one image through an ``ImageSlot``.
///
/// ```swift
/// let image = try await ImageLoader.shared.image(for: mapURL, size: ImageTargetSize(width: 240, height: 240))
/// ```
///
/// - **Coalescing**: requests for the same canonical URL (`CacheKey` rules)
///   and size share one `URLSession` task and one decode; the shared load is
///   cancelled only when its last waiter cancels, and runs at the highest
///   priority among its waiters.
/// - **Memory cache** of decoded images keyed by canonical URL and size, cost
///   = pixel bytes, least recently used out: a hit never touches the session.
/// - **Animations**: ``ImageLoader/animation(for:size:priority:)`` gives every
///   frame of an animated GIF or WebP at the target size, with delays and loop
///   count, coalesced and cached the same way (cost: every frame's bytes).
///   It is a ``DecodedImageCache``: pass the asset source's
///   (``URLSchemeKitEnvironment/assets``) to keep one budget for all.
/// - **Prefetching** at low priority; a display request for a prefetched URL
///   joins it and raises its priority.
/// - **Bounded work**: at most `maximumConcurrentLoads` session tasks and
///   `maximumConcurrentDecodes` decodes run at once, most urgent first.
///
/// Errors: a URL the session cannot load fails with the session's error,
/// unchanged; an HTTP status outside 200–299 with `URLError(.badServerResponse)`;
/// a body that does not decode with `URLError(.cannotDecodeContentData)`
/// naming the URL and the format; a bad target size with ``ImageLoaderError``;
/// a cancelled request with `URLError(.cancelled)`.
public final class ImageLoader: Sendable {
    /// A loader over a session with every URLSchemeKit scheme installed
    /// (`installURLSchemeKit()`, caching in `QueryKeyedURLCache.standard`).
    public static let shared = ImageLoader()

    /// The session, limits and memory budget this loader was made with.
    public let configuration: Configuration

    private struct State {
        var jobs: [ImageLoadKey: ImageLoadJob] = [:]
        var prefetches: [ImageLoadKey: ImageTask] = [:]
        var statistics = Statistics()
        /// Set by `invalidateAndCancel()`: no session task is created afterwards.
        var invalidated = false
    }

    /// Where decoded images are kept. The loader reads and writes it only while
    /// `state` is locked, so a request sees a finished load in memory or in
    /// flight, never neither.
    private let memory: DecodedImageCache
    private let state: Mutex<State>
    private let loads: PriorityLimiter
    private let decodes: PriorityLimiter
    private let decodeQueue = DispatchQueue(label: "URLSchemeKit.ImageLoader.decode", qos: .userInitiated, attributes: .concurrent)

    /// A loader with its own session, limits and memory cache.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        memory = configuration.memoryCache
        state = Mutex(State())
        loads = PriorityLimiter(limit: configuration.maximumConcurrentLoads)
        decodes = PriorityLimiter(limit: configuration.maximumConcurrentDecodes)
    }

    // MARK: Loading images

    /// The image at `url`, decoded and, when `size` is given, mapped into it.
    /// Cancelling the calling `Task` withdraws this request (see `ImageTask.cancel()`).
    public func image(for url: URL, size: ImageTargetSize? = nil, priority: ImagePriority = .normal) async throws -> LoadedImage {
        try await output(of: ImageTask(url: url, size: size, priority: priority), product: .image).image(requestedAs: url)
    }

    /// `image(for:size:priority:)` with a completion handler, called once on
    /// `queue` (also with `URLError(.cancelled)` after `ImageTask.cancel()`).
    @discardableResult
    public func loadImage(
        for url: URL, size: ImageTargetSize? = nil, priority: ImagePriority = .normal,
        queue: DispatchQueue = .global(qos: .userInitiated),
        completion: @escaping @Sendable (Result<LoadedImage, Error>) -> Void
    ) -> ImageTask {
        let task = ImageTask(url: url, size: size, priority: priority)
        start(task, product: .image) { result in
            queue.async { completion(result.flatMap { output in Result { try output.image(requestedAs: url) } }) }
        }
        return task
    }

    // MARK: Loading animations

    /// Every frame of the animation at `url` (an animated GIF or WebP; any
    /// other image as one frame), upright and, when `size` is given, each
    /// mapped into it as `image(for:size:priority:)` maps a still image, with
    /// the delays and the loop count. Coalesced and kept in memory like
    /// images (an animation and the still image of one URL are two entries),
    /// at a cost of every frame's pixel bytes.
    ///
    /// The frames are decoded one at a time, so the decoder holds a few
    /// canvases besides the frames kept. Before any is decoded, the frames
    /// the file holds are checked against `Configuration.maximumFrameCount`,
    /// and the canvases they composite and the frames kept at the output
    /// size each against `maximumAnimationPixelCount`: over either, the load
    /// fails with `URLError(.cannotDecodeContentData)` naming the limit.
    /// Cancelling the calling `Task` withdraws this request; the last
    /// waiter's cancellation stops the decode between frames.
    public func animation(for url: URL, size: ImageTargetSize? = nil, priority: ImagePriority = .normal) async throws -> LoadedAnimation {
        try await output(of: ImageTask(url: url, size: size, priority: priority), product: .animation).animation(requestedAs: url)
    }

    /// `animation(for:size:priority:)` with a completion handler, called once
    /// on `queue` (also with `URLError(.cancelled)` after `ImageTask.cancel()`).
    @discardableResult
    public func loadAnimation(
        for url: URL, size: ImageTargetSize? = nil, priority: ImagePriority = .normal,
        queue: DispatchQueue = .global(qos: .userInitiated),
        completion: @escaping @Sendable (Result<LoadedAnimation, Error>) -> Void
    ) -> ImageTask {
        let task = ImageTask(url: url, size: size, priority: priority)
        start(task, product: .animation) { result in
            queue.async { completion(result.flatMap { output in Result { try output.animation(requestedAs: url) } }) }
        }
        return task
    }

    /// The animation for `url` at `size` if memory holds it (counted as a
    /// memory hit); never loads.
    public func cachedAnimation(for url: URL, size: ImageTargetSize? = nil) -> LoadedAnimation? {
        guard let cacheKey = CacheKey(url: url) else { return nil }
        let held = state.withLock { state -> LoadedAnimation? in
            let animation = memory.loadedAnimation(for: ImageLoadKey(url: cacheKey, size: size, product: .animation))
            if animation != nil { state.statistics.memoryHits += 1 }
            return animation
        }
        return held.map { animation in
            var animation = animation
            animation.url = url
            return animation
        }
    }

    // MARK: Loading bytes

    /// The body `url` answers with, undecoded. Coalesced like images: equal
    /// canonical URLs in flight share one session task.
    public func data(for url: URL, priority: ImagePriority = .normal) async throws -> Data {
        try await output(of: ImageTask(url: url, size: nil, priority: priority), product: .data).data()
    }

    /// `data(for:priority:)` with a completion handler, called once on `queue`.
    @discardableResult
    public func loadData(
        for url: URL, priority: ImagePriority = .normal, queue: DispatchQueue = .global(qos: .userInitiated),
        completion: @escaping @Sendable (Result<Data, Error>) -> Void
    ) -> ImageTask {
        let task = ImageTask(url: url, size: nil, priority: priority)
        start(task, product: .data) { result in
            queue.async { completion(result.flatMap { output in Result { try output.data() } }) }
        }
        return task
    }

    // MARK: Prefetching

    /// Starts loading `urls` at `size` at low priority, so that a later display
    /// request is a memory hit or joins the load. URLs being prefetched at that
    /// size are skipped; those in memory become its most recently used.
    public func prefetch(_ urls: [URL], size: ImageTargetSize? = nil) {
        for url in urls {
            guard let cacheKey = CacheKey(url: url) else { continue }
            let key = ImageLoadKey(url: cacheKey, size: size, product: .image)
            let task = ImageTask(url: url, size: size, priority: .low)
            let isNew = state.withLock { state -> Bool in
                // A held image is touched instead: it is wanted soon, so it must not be next out.
                guard state.prefetches[key] == nil, memory.loadedImage(for: key) == nil else { return false }
                state.prefetches[key] = task
                return true
            }
            guard isNew else { continue }
            start(task, product: .image) { [weak self] _ in
                self?.state.withLock { state in
                    if state.prefetches[key] === task { state.prefetches[key] = nil }
                }
            }
        }
    }

    /// Withdraws the prefetches of `urls` at `size`; a load that a display
    /// request has joined goes on for that request.
    public func cancelPrefetch(_ urls: [URL], size: ImageTargetSize? = nil) {
        let tasks = state.withLock { state in
            urls.compactMap { url -> ImageTask? in
                guard let cacheKey = CacheKey(url: url) else { return nil }
                return state.prefetches.removeValue(forKey: ImageLoadKey(url: cacheKey, size: size, product: .image))
            }
        }
        // Every load is abandoned before any session task is cancelled (see `ImageLoadJob.remove`).
        let followUps = tasks.compactMap { $0.withdraw() }
        for followUp in followUps { followUp() }
    }

    // MARK: Memory cache and counters

    /// What the loader has done since it was made.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// The cache decoded images are kept in (`configuration.memoryCache`).
    public var memoryCache: DecodedImageCache { memory }

    /// The decoded image for `url` at `size` if memory holds it (counted as a
    /// memory hit); never loads. Lets a UI show a held image without waiting.
    public func cachedImage(for url: URL, size: ImageTargetSize? = nil) -> LoadedImage? {
        guard let cacheKey = CacheKey(url: url) else { return nil }
        let held = state.withLock { state -> LoadedImage? in
            let image = memory.loadedImage(for: ImageLoadKey(url: cacheKey, size: size, product: .image))
            if image != nil { state.statistics.memoryHits += 1 }
            return image
        }
        return held.map { image in
            var image = image
            image.url = url
            return image
        }
    }

    /// Cancels every load of this loader (each waiter gets
    /// `URLError(.cancelled)`, each session task it started is cancelled).
    /// Later requests fail with `.cancelled`.
    ///
    /// The session is not the loader's: it was lent (`Configuration.session`)
    /// or is the process's shared default, so it stays valid for whoever else
    /// uses it. Invalidate a session you made yourself after calling this:
    /// on Linux, creating a task on an invalidated session is a fatal error,
    /// and a queued load of this loader would have created one.
    public func invalidateAndCancel() {
        let jobs = state.withLock { state -> [ImageLoadJob] in
            state.invalidated = true
            state.prefetches.removeAll()
            defer { state.jobs.removeAll() }
            return Array(state.jobs.values)
        }
        for job in jobs {
            for task in job.finish() { task.finish(.failure(ImageTask.cancelledError(task.url))) }
        }
    }

    // MARK: The shared path

    /// Runs `task` and awaits its outcome; cancelling the calling `Task` cancels it.
    private func output(of task: ImageTask, product: ImageLoadKey.Product) async throws -> ImageLoadOutput {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                start(task, product: product) { continuation.resume(with: $0) }
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// Answers `task` from memory, or joins the load in flight for its key, or starts one.
    private func start(_ task: ImageTask, product: ImageLoadKey.Product, handler: @escaping ImageTask.Handler) {
        guard task.start(handler: handler) else { return }
        do {
            try task.size?.validate()
        } catch {
            task.finish(.failure(error))
            return
        }
        guard let cacheKey = CacheKey(url: task.url) else {
            let message = "\(task.url.absoluteString) cannot be loaded: it is not an absolute URL with a scheme"
            task.finish(.failure(URLErrors.make(.badURL, message, url: task.url)))
            return
        }
        let key = ImageLoadKey(url: cacheKey, size: product == .data ? nil : task.size, product: product)
        let priority = task.priority
        enum Plan {
            case invalidated
            case hit(ImageLoadOutput)
            case join(ImageLoadJob)
            case run(ImageLoadJob)
        }
        let plan = state.withLock { state -> Plan in
            if state.invalidated { return .invalidated }
            if let held = held(key) {
                state.statistics.memoryHits += 1
                return .hit(held)
            }
            if let job = state.jobs[key], job.add(task, priority: priority) {
                state.statistics.joins += 1
                return .join(job)
            }
            let job = ImageLoadJob(key: key, url: task.url) { [weak self] job in self?.abandoned(job) }
            _ = job.add(task, priority: priority)
            state.jobs[key] = job
            return .run(job)
        }
        switch plan {
        case .invalidated:
            let message = "the load of \(task.url.absoluteString) was cancelled: its ImageLoader was invalidated"
            task.finish(.failure(URLErrors.make(.cancelled, message, url: task.url)))
        case .hit(let output):
            task.finish(.success(output))
        case .join(let job), .run(let job):
            guard task.attach(to: job) else {
                job.remove(task)?()  // cancelled meanwhile
                return
            }
            job.update(task, priority: task.priority)  // in case it changed before attaching
            if case .run = plan {
                loads.submit(job) { [self] release in load(job, release: release) }
            }
        }
    }

    /// Starts the session task of `job` (its slot in `loads` is held until the task completes).
    /// The `Accept` field of every load: exactly the formats `ImageDecoder`
    /// reads, so a server that negotiates (most CDNs) never sends one it
    /// cannot (AVIF, JPEG XL).
    static let acceptedTypes = ImageFormat.allCases.map(\.mimeType).joined(separator: ",")

    private func load(_ job: ImageLoadJob, release: @escaping @Sendable () -> Void) {
        guard job.beginLoading() else {
            release()
            return
        }
        // Created under the lock that `invalidateAndCancel()` sets its flag
        // under, so no task is ever made on an invalidated session.
        let sessionTask = state.withLock { state -> URLSessionDataTask? in
            guard !state.invalidated else { return nil }
            var request = URLRequest(url: job.url)
            request.setValue(Self.acceptedTypes, forHTTPHeaderField: "Accept")
            return configuration.session.dataTask(with: request) { [self] data, response, error in
                release()
                loaded(job, data: data, response: response, error: error)
            }
        }
        guard let sessionTask, job.attach(sessionTask) else {
            release()  // abandoned before it started: the task is never resumed
            return
        }
        state.withLock { $0.statistics.sessionLoads += 1 }
        sessionTask.resume()
    }

    /// The session's answer for `job`: finish a data load, or decode.
    private func loaded(_ job: ImageLoadJob, data: Data?, response: URLResponse?, error: Error?) {
        if let error {
            complete(job, .failure(error))  // the session's error, unchanged
            return
        }
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            let message = "\(job.url.absoluteString) answered HTTP \(http.statusCode) (\(HTTPURLResponse.localizedString(forStatusCode: http.statusCode)))"
            complete(job, .failure(URLErrors.make(.badServerResponse, message, url: job.url)))
            return
        }
        let body = data ?? Data()
        guard job.key.product != .data else {
            complete(job, .success(.data(body)))
            return
        }
        guard job.beginDecoding() else { return }
        decodes.submit(job) { [self] release in
            decodeQueue.async { [self] in
                defer { release() }
                guard job.isLive else { return }
                state.withLock { $0.statistics.decodes += 1 }
                let result = Result { try decode(body, response: response, for: job) }
                complete(job, result)
            }
        }
    }

    /// What memory holds for `key`, made its most recently used; nil for a data load.
    private func held(_ key: ImageLoadKey) -> ImageLoadOutput? {
        switch key.product {
        case .data: return nil
        case .image: return memory.loadedImage(for: key).map(ImageLoadOutput.image)
        case .animation: return memory.loadedAnimation(for: key).map(ImageLoadOutput.animation)
        }
    }

    /// Decodes the body of `job` into what its key asks for.
    private func decode(_ body: Data, response: URLResponse?, for job: ImageLoadJob) throws -> ImageLoadOutput {
        switch job.key.product {
        case .data:
            return .data(body)
        case .image:
            return .image(try ImageBodyDecoder.decode(body, response: response, url: job.url, size: job.key.size,
                                                      maximumPixelCount: configuration.maximumPixelCount))
        case .animation:
            let options = ImageDecoder.Options(maximumPixelCount: configuration.maximumPixelCount,
                                               maximumFrameCount: configuration.maximumFrameCount,
                                               maximumAnimationPixelCount: configuration.maximumAnimationPixelCount)
            // Between frames: once every waiter has gone, the rest is not decoded.
            return .animation(try ImageBodyDecoder.decodeAnimation(body, response: response, url: job.url, size: job.key.size,
                                                                   options: options) {
                guard job.isLive else { throw CancellationError() }
            })
        }
    }

    /// Keeps a decoded image or animation, retires `job` and delivers `result` to its waiters.
    private func complete(_ job: ImageLoadJob, _ result: Result<ImageLoadOutput, Error>) {
        state.withLock { state in
            switch result {
            case .success(.image(let image)): memory.insert(image, for: job.key)
            case .success(.animation(let animation)): memory.insert(animation, for: job.key)
            case .success(.data), .failure: break
            }
            if state.jobs[job.key] === job { state.jobs[job.key] = nil }
        }
        for task in job.finish() { task.finish(result) }
    }

    /// The last waiter of `job` left before it finished.
    private func abandoned(_ job: ImageLoadJob) {
        state.withLock { state in
            state.statistics.cancellations += 1
            if state.jobs[job.key] === job { state.jobs[job.key] = nil }
        }
    }
}

private extension ImageLoadOutput {
    /// The decoded image, addressed to the URL the caller used.
    func image(requestedAs url: URL) throws -> LoadedImage {
        guard case .image(var image) = self else {
            throw URLErrors.make(.cannotDecodeContentData, "the load of \(url.absoluteString) produced no image", url: url)
        }
        image.url = url
        return image
    }

    /// The decoded frames, addressed to the URL the caller used.
    func animation(requestedAs url: URL) throws -> LoadedAnimation {
        guard case .animation(var animation) = self else {
            throw URLErrors.make(.cannotDecodeContentData, "the load of \(url.absoluteString) produced no animation", url: url)
        }
        animation.url = url
        return animation
    }

    func data() throws -> Data {
        switch self {
        case .data(let data): return data
        case .image(let image): throw URLErrors.make(.unknown, "the load of \(image.url.absoluteString) produced an image, not bytes", url: image.url)
        case .animation(let animation):
            throw URLErrors.make(.unknown, "the load of \(animation.url.absoluteString) produced an animation, not bytes", url: animation.url)
        }
    }
}
