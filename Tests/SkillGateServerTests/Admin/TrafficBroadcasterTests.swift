import Foundation
import Testing
@testable import SkillGateServer

/// The traffic broadcaster's bounds: a slow tail loses its oldest unread events (counted), publishing never waits,
/// the recent ring keeps the newest, and tails are capped and ended at shutdown.
@Suite struct TrafficBroadcasterTests {
    static func event(_ n: Int) -> TrafficEvent {
        var entry = RequestLogEntry(requestId: "req_\(n)", method: "POST", path: "/v1/chat/completions")
        entry.status = 200
        entry.surface = "openai"
        return TrafficEvent(entry)
    }

    static func drain(_ subscription: TrafficBroadcaster.Subscription) async -> [String] {
        var ids: [String] = []
        for await item in subscription.items { if case .request(let e) = item { ids.append(e.requestId) } }
        return ids
    }

    @Test(arguments: [1, 8, 64])
    func aTailThatDoesNotReadKeepsTheNewestAndCountsWhatItLost(_ capacity: Int) async throws {
        let traffic = TrafficBroadcaster(recentCapacity: 10, subscriberCapacity: capacity)
        let tail = try #require(traffic.subscribe())
        for n in 0..<1000 { traffic.publish(Self.event(n)) }
        traffic.unsubscribe(tail.id)
        let ids = await Self.drain(tail)
        #expect(ids == (1000 - capacity..<1000).map { "req_\($0)" })
        #expect(tail.takeDropped() == 1000 - capacity && tail.takeDropped() == 0)
        #expect(traffic.droppedTotal == 1000 - capacity)
    }

    @Test func publishingToManyTailsNobodyReadsNeverWaits() async throws {
        let traffic = TrafficBroadcaster(subscriberCapacity: 4, maxSubscribers: 16)
        let tails = (0..<16).compactMap { _ in traffic.subscribe() }
        #expect(tails.count == 16)
        let started = ContinuousClock.now
        for n in 0..<20_000 { traffic.publish(Self.event(n)) }
        let elapsed = ContinuousClock.now - started
        print("TrafficBroadcaster: 20,000 events to 16 unread tails in \(elapsed)")
        #expect(traffic.droppedTotal == 16 * (20_000 - 4))
        traffic.close()
        for tail in tails {
            let ids = await Self.drain(tail)
            #expect(ids.count == 4)
        }
    }

    @Test func theRecentRingKeepsTheNewestFirst() {
        let traffic = TrafficBroadcaster(recentCapacity: 5)
        #expect(traffic.recent(limit: 10).isEmpty)
        for n in 0..<3 { traffic.publish(Self.event(n)) }
        #expect(traffic.recent(limit: 10).map(\.requestId) == ["req_2", "req_1", "req_0"])
        for n in 3..<12 { traffic.publish(Self.event(n)) }
        #expect(traffic.recent(limit: 10).map(\.requestId) == ["req_11", "req_10", "req_9", "req_8", "req_7"])
        #expect(traffic.recent(limit: 2).map(\.requestId) == ["req_11", "req_10"])
    }

    @Test func tailsAreCappedFreedAndEndedAtClose() async throws {
        let traffic = TrafficBroadcaster(maxSubscribers: 2)
        let first = try #require(traffic.subscribe())
        let second = try #require(traffic.subscribe())
        #expect(traffic.subscribe() == nil, "a third tail is refused")
        traffic.unsubscribe(first.id)
        #expect(traffic.subscriberCount == 1)
        let third = try #require(traffic.subscribe())
        traffic.publish(Self.event(1))
        traffic.close()
        let (secondIds, thirdIds) = (await Self.drain(second), await Self.drain(third))
        #expect(secondIds == ["req_1"] && thirdIds == ["req_1"])
        #expect(traffic.subscribe() == nil && traffic.subscriberCount == 0, "no tails after close")
    }
}
