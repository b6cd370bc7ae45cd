import Dispatch

extension Array {
    /// `count` elements, element i made by `make(i)`, on up to every core at
    /// once (`DispatchQueue.concurrentPerform`): what a snapshot does per tile,
    /// per layer and per band.
    init(concurrentlyMaking count: Int, _ make: @Sendable (Int) -> Element) {
        self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress, count > 0 else { return }
            // Safe: the call for index i initialises only element i, and
            // concurrentPerform returns only when every call has.
            nonisolated(unsafe) let elements = base
            DispatchQueue.concurrentPerform(iterations: count) { (elements + $0).initialize(to: make($0)) }
            initialized = count
        }
    }
}
