import SkillGateCore
import Synchronization

/// Remembers which deployment issued each tool call, so the follow-up request that answers the
/// calls goes back to it (tool-call ids, thinking signatures and encrypted reasoning are
/// provider-specific; another provider may reject or misread them).
///
/// Bounded to `capacity` ids with two generations: new ids go into the young generation; when it
/// holds `capacity / 2`, it becomes the old one and the previous old one is dropped. A hit in the
/// old generation moves the id back into the young one. This approximates LRU at O(1) per call
/// with no per-entry links, and never holds more than `capacity` ids.
public final class ToolCallAffinity: Sendable {
    private struct Generations {
        var young: [String: String] = [:]
        var old: [String: String] = [:]
    }

    private let state = Mutex(Generations())
    private let generationSize: Int

    /// The largest number of tool-call ids remembered (0 disables stickiness).
    public let capacity: Int

    public init(capacity: Int) {
        self.capacity = max(0, capacity)
        generationSize = max(1, (self.capacity + 1) / 2)
    }

    /// Records that `deployment` (`provider/model`) issued the tool call `callId`.
    public func remember(_ callId: String, deployment: String) {
        guard capacity > 0, !callId.isEmpty else { return }
        state.locked { insert(callId, deployment, into: &$0) }
    }

    /// Records every id of `callIds` for `deployment` under one lock.
    public func remember<S: Sequence>(_ callIds: S, deployment: String) where S.Element == String {
        guard capacity > 0 else { return }
        state.locked { g in
            for id in callIds where !id.isEmpty { insert(id, deployment, into: &g) }
        }
    }

    /// The deployment that issued `callId`, if it is still remembered.
    public func deployment(for callId: String) -> String? {
        guard capacity > 0 else { return nil }
        return state.locked { g -> String? in
            if let d = g.young[callId] { return d }
            guard let d = g.old.removeValue(forKey: callId) else { return nil }
            insert(callId, d, into: &g)
            return d
        }
    }

    /// The issuer of the tool calls `request` answers: the tool results after the last assistant
    /// turn are looked up in order; the first remembered id wins.
    public func issuer(of request: ChatRequest) -> (callId: String, deployment: String)? {
        guard capacity > 0 else { return nil }
        for message in request.messages.reversed() {
            if message.role == .assistant { break }
            for result in message.toolResults {
                if let d = deployment(for: result.callId) { return (result.callId, d) }
            }
        }
        return nil
    }

    /// Ids currently remembered (at most `capacity`).
    public var count: Int { state.locked { $0.young.count + $0.old.count } }

    private func insert(_ id: String, _ deployment: String, into g: inout Generations) {
        if g.young[id] == nil, g.young.count >= generationSize {
            g.old = g.young
            g.young = [:]
            g.young.reserveCapacity(generationSize)
        }
        g.young[id] = deployment
        g.old.removeValue(forKey: id)
    }
}
