import Glibc

/// Items a background writer has finished with, handed back so that the threads that queued them release them
/// (decision 0109).
///
/// glibc's `malloc` gives each thread an arena of its own. A string or array an event loop builds lives in the loop's
/// arena, and freeing it on another thread takes that arena's lock, which the loop takes on nearly every allocation.
/// A writer that drops a batch of a hundred log lines, each holding a dozen loop-made buffers, fights the loop for the
/// lock a thousand times; worse, the writer runs at a lowered priority, so when it is preempted while holding the lock
/// the loop waits for it (a priority inversion: the one-connection p99 measured it). Handed back, the items are
/// released by the very threads that queued them, a couple with each new item they queue, in their own arenas and
/// without contention: each item goes back to its own thread's pile, so one loop never frees another's buffers either.
///
/// Kept inside the writer's own lock (a `Mutex`'s state); not thread-safe by itself.
@frozen public struct HandedBackItems<Element> {
    /// A thread that queues items (`pthread_self()`).
    public typealias Owner = pthread_t

    /// The items one thread queued.
    @frozen public struct Pile {
        /// The thread that queued them.
        public let owner: Owner
        /// The items, in no particular order.
        @inlinable public var items: [Element] { storage }
        @usableFromInline var storage: [Element]

        @inlinable init(owner: Owner, items: [Element]) {
            self.owner = owner
            storage = items
        }
    }

    @usableFromInline var piles: [Pile] = []

    @inlinable public init() {}

    /// The calling thread, as `handBack` and `takeSome` know it.
    @inlinable public static var currentOwner: Owner { pthread_self() }

    /// Items waiting to be released.
    @inlinable public var count: Int { piles.reduce(0) { $0 + $1.items.count } }

    /// The writer hands `batch` back, emptying it. The items are moved into one pile per thread that queued them, never
    /// copied, so the writer keeps no reference that would make a producer's take copy them. Returns the piles of the
    /// previous batch if they were not all taken yet (their threads queued nothing since), for the writer to release
    /// itself once it has left the lock: at most one batch waits.
    @inlinable public mutating func handBack(_ batch: inout OwnedItems<Element>) -> [Pile] {
        var previous: [Pile] = []
        swap(&previous, &piles)
        var (items, owners) = batch.takeAll()
        guard let first = owners.first else { return previous }
        if owners.allSatisfy({ pthread_equal($0, first) != 0 }) {
            // The common case (one connection, one loop): the batch is the pile.
            piles = [Pile(owner: first, items: items)]
        } else {
            while let item = items.popLast(), let owner = owners.popLast() {
                if let index = piles.firstIndex(where: { pthread_equal($0.owner, owner) != 0 }) {
                    piles[index].storage.append(item)
                } else {
                    piles.append(Pile(owner: owner, items: [item]))
                }
            }
        }
        return previous
    }

    /// Takes up to two of the items `owner` queued, for it to release when it has left the lock (more than the one
    /// item a request queues, so a batch is gone long before the writer hands back the next). The emptied pile's own
    /// buffer goes with the last of them.
    @inlinable public mutating func takeSome(for owner: Owner) -> (Element?, Element?, [Element]?) {
        guard let index = piles.firstIndex(where: { pthread_equal($0.owner, owner) != 0 }) else { return (nil, nil, nil) }
        let first = piles[index].storage.popLast()
        let second = piles[index].storage.popLast()
        guard piles[index].storage.isEmpty else { return (first, second, nil) }
        let emptied = piles.remove(at: index).storage
        return (first, second, emptied)
    }
}

extension HandedBackItems: Sendable where Element: Sendable {}
extension HandedBackItems.Pile: Sendable where Element: Sendable {}
