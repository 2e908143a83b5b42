import FoundationEssentials

/// The response cache's entries: a dictionary from key to a node of a list in order of use, newest first, bounded by
/// bytes. Finding, keeping and evicting are O(1) (nodes are reused through a free list). Not thread-safe: `ResponseCache`
/// holds it under its lock.
struct ResponseCacheEntries {
    private struct Node {
        var key: ResponseCacheKey
        var answer: CachedAnswer
        var expires: Date
        var newer: Int
        var older: Int
    }

    /// What `find` found.
    enum Found {
        case hit(CachedAnswer)
        /// An entry past its time, now removed.
        case expired
        case none
    }

    /// What keeping an entry removed besides: entries evicted for the bound, and expired ones found at the end.
    struct Removed: Equatable {
        var evicted = 0
        var expired = 0
    }

    private var index: [ResponseCacheKey: Int] = [:]
    private var nodes: [Node?] = []
    private var freeNodes: [Int] = []
    private var newest = -1
    private var oldest = -1
    /// What the entries count against `maxBytes` together.
    private(set) var bytes = 0
    let maxBytes: Int

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    var count: Int { index.count }

    /// The largest entry kept: an eighth of the bound, so one long answer cannot empty the cache.
    var maxEntryBytes: Int { maxBytes / 8 }

    /// The entry of `key` when it is still valid at `now` (it becomes the most recently used); one past its time is
    /// removed.
    mutating func find(_ key: ResponseCacheKey, at now: Date) -> Found {
        guard let i = index[key], let node = nodes[i] else { return .none }
        guard now < node.expires else {
            remove(i)
            return .expired
        }
        unlink(i)
        pushNewest(i)
        return .hit(node.answer)
    }

    /// Keeps `answer` under `key` until `expires` (replacing an entry of that key), then removes expired entries at the
    /// least recently used end and evicts from there while over the bound. An answer larger than `maxEntryBytes` is not
    /// kept (false).
    mutating func keep(_ answer: CachedAnswer, under key: ResponseCacheKey, until expires: Date, now: Date) -> (kept: Bool, removed: Removed) {
        guard answer.bytes <= maxEntryBytes else { return (false, Removed()) }
        if let old = index[key] { remove(old) }
        let node = Node(key: key, answer: answer, expires: expires, newer: -1, older: -1)
        let i: Int
        if let reused = freeNodes.popLast() {
            nodes[reused] = node
            i = reused
        } else {
            nodes.append(node)
            i = nodes.count - 1
        }
        index[key] = i
        bytes += answer.bytes
        pushNewest(i)
        var removed = Removed()
        while oldest >= 0, oldest != i, let last = nodes[oldest], !(now < last.expires) {
            remove(oldest)
            removed.expired += 1
        }
        while bytes > maxBytes, oldest >= 0, oldest != i {
            remove(oldest)
            removed.evicted += 1
        }
        return (true, removed)
    }

    private mutating func remove(_ i: Int) {
        guard let node = nodes[i] else { return }
        unlink(i)
        index[node.key] = nil
        bytes -= node.answer.bytes
        nodes[i] = nil
        freeNodes.append(i)
    }

    private mutating func unlink(_ i: Int) {
        guard let node = nodes[i] else { return }
        if node.newer >= 0 { nodes[node.newer]!.older = node.older } else { newest = node.older }
        if node.older >= 0 { nodes[node.older]!.newer = node.newer } else { oldest = node.newer }
        nodes[i]!.newer = -1
        nodes[i]!.older = -1
    }

    private mutating func pushNewest(_ i: Int) {
        nodes[i]!.older = newest
        nodes[i]!.newer = -1
        if newest >= 0 { nodes[newest]!.newer = i }
        newest = i
        if oldest < 0 { oldest = i }
    }
}
