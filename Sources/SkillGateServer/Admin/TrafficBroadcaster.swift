import Synchronization

/// Hands each finished request (`TrafficEvent`) to the console's live Traffic tails and keeps the most recent ones
/// for `/admin/api/requests`. Bounded everywhere, never blocking the request path: `publish` (the account stage) takes
/// one lock to append to a fixed-size ring and yields to each subscriber's bounded buffer; a subscriber that reads
/// slower than requests finish loses the oldest events it has not read (counted, and told to it), and there are at
/// most `maxSubscribers` tails at once.
final class TrafficBroadcaster: Sendable {
    /// What a tail receives.
    enum Item: Sendable {
        case request(TrafficEvent)
        /// A keep-alive tick (written as an SSE comment; also how a tail notices its client left).
        case heartbeat
    }

    /// One tail: its events, and how many it lost to a full buffer since it last asked.
    final class Subscription: Sendable {
        let id: Int
        let items: AsyncStream<Item>
        let continuation: AsyncStream<Item>.Continuation
        private let droppedSinceRead = Atomic<Int>(0)

        init(id: Int, capacity: Int) {
            self.id = id
            (items, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingNewest(capacity))
        }

        /// Events lost since the last call (and resets the count).
        func takeDropped() -> Int { droppedSinceRead.exchange(0, ordering: .relaxed) }

        /// Offers a heartbeat (so a tail whose client left finds out at its next write). Never waits.
        func ping() { _ = offer(.heartbeat) }

        fileprivate func offer(_ item: Item) -> Bool {
            if case .dropped = continuation.yield(item) {
                droppedSinceRead.add(1, ordering: .relaxed)
                return false
            }
            return true
        }
    }

    private struct State {
        var recent: [TrafficEvent] = []
        /// Where the next event goes in `recent` once it is full.
        var next = 0
        var subscribers: [Int: Subscription] = [:]
        var nextId = 0
        var closed = false
        var dropped = 0
    }

    /// How many recent events `recent` keeps.
    let recentCapacity: Int
    /// Events one tail may have unread before the oldest are dropped.
    let subscriberCapacity: Int
    /// Tails open at once; more are refused.
    let maxSubscribers: Int
    private let state = Mutex(State())

    init(recentCapacity: Int = 200, subscriberCapacity: Int = 256, maxSubscribers: Int = 16) {
        self.recentCapacity = recentCapacity
        self.subscriberCapacity = subscriberCapacity
        self.maxSubscribers = maxSubscribers
    }

    /// Records `event` and offers it to every tail. Never waits.
    func publish(_ event: TrafficEvent) {
        let subscribers = state.locked { s -> [Subscription] in
            if s.recent.count < recentCapacity {
                s.recent.append(event)
            } else {
                s.recent[s.next] = event
                s.next = (s.next + 1) % recentCapacity
            }
            return s.subscribers.isEmpty ? [] : Array(s.subscribers.values)
        }
        var lost = 0
        for subscriber in subscribers where !subscriber.offer(.request(event)) { lost += 1 }
        if lost > 0 { state.locked { $0.dropped += lost } }
    }

    /// The last `limit` events, newest first.
    func recent(limit: Int) -> [TrafficEvent] {
        state.locked { s in
            let ordered = Array(s.recent[s.next...] + s.recent[..<s.next])
            return Array(ordered.reversed().prefix(max(0, limit)))
        }
    }

    /// A new tail, or nil when `maxSubscribers` are open or the broadcaster is closed.
    func subscribe() -> Subscription? {
        let subscription = state.locked { s -> Subscription? in
            guard !s.closed, s.subscribers.count < maxSubscribers else { return nil }
            s.nextId += 1
            let subscription = Subscription(id: s.nextId, capacity: subscriberCapacity)
            s.subscribers[s.nextId] = subscription
            return subscription
        }
        subscription?.continuation.onTermination = { [weak self] _ in
            if let id = subscription?.id { self?.unsubscribe(id) }
        }
        return subscription
    }

    /// Ends the tail `id` (its stream finishes).
    func unsubscribe(_ id: Int) {
        let removed = state.locked { $0.subscribers.removeValue(forKey: id) }
        removed?.continuation.finish()
    }

    /// Ends every tail and refuses new ones (shutdown: tails would otherwise hold the drain open).
    func close() {
        let subscribers = state.locked { s -> [Subscription] in
            s.closed = true
            defer { s.subscribers.removeAll() }
            return Array(s.subscribers.values)
        }
        for subscriber in subscribers { subscriber.continuation.finish() }
    }

    /// Tails open now.
    var subscriberCount: Int { state.locked { $0.subscribers.count } }

    /// Events lost to slow tails since start (all tails together).
    var droppedTotal: Int { state.locked { $0.dropped } }
}
