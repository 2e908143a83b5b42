import Glibc

/// Items in the order they were queued, each with the thread that queued it (`pthread_self()`), so a background writer
/// can hand every item back to its own thread to release (`HandedBackItems`, decision 0109).
@frozen public struct OwnedItems<Element> {
    /// The items, oldest first.
    @inlinable public var items: [Element] { storedItems }
    /// `owners[i]` queued `items[i]`.
    @inlinable public var owners: [pthread_t] { storedOwners }
    @usableFromInline var storedItems: [Element] = []
    @usableFromInline var storedOwners: [pthread_t] = []

    @inlinable public init() {}

    @inlinable public var count: Int { storedItems.count }
    @inlinable public var isEmpty: Bool { storedItems.isEmpty }

    /// Appends `item`, queued by `owner`.
    @inlinable public mutating func append(_ item: Element, by owner: pthread_t) {
        storedItems.append(item)
        storedOwners.append(owner)
    }

    /// Appends `more`, all queued by `owner`.
    @inlinable public mutating func append(contentsOf more: [Element], by owner: pthread_t) {
        storedItems += more
        storedOwners += repeatElement(owner, count: more.count)
    }

    /// The first `n` items with their owners.
    @inlinable public func prefix(_ n: Int) -> OwnedItems {
        var head = OwnedItems()
        head.storedItems = Array(storedItems.prefix(n))
        head.storedOwners = Array(storedOwners.prefix(n))
        return head
    }

    /// Puts `head` in front of these items.
    @inlinable public mutating func prepend(_ head: OwnedItems) {
        storedItems = head.storedItems + storedItems
        storedOwners = head.storedOwners + storedOwners
    }

    /// Moves the items out, leaving this empty (for `HandedBackItems.handBack`).
    @inlinable mutating func takeAll() -> (items: [Element], owners: [pthread_t]) {
        var (i, o): ([Element], [pthread_t]) = ([], [])
        swap(&i, &storedItems)
        swap(&o, &storedOwners)
        return (i, o)
    }
}

extension OwnedItems: Sendable where Element: Sendable {}
