/// A least-recently-used map with a total cost limit. `QueryKeyedURLCache` uses it
/// for its memory tier (values are responses, costs are bytes) and as the
/// index of its disk tier (costs are file sizes; evicted keys are files to
/// delete). Not thread-safe by itself; its owner serialises access.
///
/// Entries live in a doubly linked list (most recent at the head) indexed by a
/// dictionary, so lookups, insertions and evictions are O(1).
struct LRUStore<Key: Hashable, Value> {
    private final class Node {
        let key: Key
        var value: Value
        var cost: Int
        var previous: Node?
        var next: Node?

        init(key: Key, value: Value, cost: Int) {
            self.key = key
            self.value = value
            self.cost = cost
        }
    }

    private var nodes: [Key: Node] = [:]
    private var head: Node?
    private var tail: Node?
    /// The sum of the costs of the entries held.
    private(set) var totalCost = 0
    /// The cost the store never exceeds.
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var count: Int { nodes.count }

    /// The value for `key`, which becomes the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let node = nodes[key] else { return nil }
        moveToFront(node)
        return node.value
    }

    /// Inserts or replaces; evicts least-recently-used entries to stay within
    /// capacity and returns their keys. A value costing more than the whole
    /// capacity is not kept: its own key is among those returned.
    @discardableResult
    mutating func insert(_ value: Value, for key: Key, cost: Int) -> [Key] {
        removeValue(for: key)
        guard cost <= capacity else { return [key] }
        var evicted = evict(toFit: cost)
        if evicted.contains(key) { evicted.removeAll { $0 == key } }
        let node = Node(key: key, value: value, cost: cost)
        nodes[key] = node
        totalCost += cost
        link(atFront: node)
        return evicted
    }

    /// Changes the capacity, evicting at once if it shrank; returns the evicted keys.
    @discardableResult
    mutating func setCapacity(_ newValue: Int) -> [Key] {
        capacity = max(0, newValue)
        return evict(toFit: 0)
    }

    /// Whether `key` is held, without making it the most recently used.
    func contains(_ key: Key) -> Bool { nodes[key] != nil }

    @discardableResult
    mutating func removeValue(for key: Key) -> Value? {
        guard let node = nodes.removeValue(forKey: key) else { return nil }
        unlink(node)
        totalCost -= node.cost
        return node.value
    }

    /// Removes every entry whose value matches.
    mutating func removeAll(where shouldRemove: (Value) -> Bool) {
        let doomed = nodes.values.filter { shouldRemove($0.value) }.map(\.key)
        for key in doomed { removeValue(for: key) }
    }

    /// Removes every entry whose key matches.
    mutating func removeAll(whereKey shouldRemove: (Key) -> Bool) {
        let doomed = nodes.keys.filter(shouldRemove)
        for key in doomed { removeValue(for: key) }
    }

    mutating func removeAll() {
        // Break the links so the nodes are freed without a deep recursive release.
        var node = head
        while let current = node {
            node = current.next
            current.previous = nil
            current.next = nil
        }
        nodes.removeAll()
        head = nil
        tail = nil
        totalCost = 0
    }

    private mutating func evict(toFit incoming: Int) -> [Key] {
        var evicted: [Key] = []
        while totalCost + incoming > capacity, let last = tail {
            evicted.append(last.key)
            removeValue(for: last.key)
        }
        return evicted
    }

    private mutating func moveToFront(_ node: Node) {
        guard head !== node else { return }
        unlink(node)
        link(atFront: node)
    }

    private mutating func link(atFront node: Node) {
        node.previous = nil
        node.next = head
        head?.previous = node
        head = node
        if tail == nil { tail = node }
    }

    private mutating func unlink(_ node: Node) {
        if let previous = node.previous { previous.next = node.next } else { head = node.next }
        if let next = node.next { next.previous = node.previous } else { tail = node.previous }
        node.previous = nil
        node.next = nil
    }
}
