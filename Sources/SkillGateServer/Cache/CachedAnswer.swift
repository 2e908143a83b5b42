import FoundationEssentials
import SkillGateCore

/// A complete answer kept by the response cache, in the wire-neutral model: served whole or replayed as a stream on
/// any chat surface, whichever way it first came (decision 0140).
struct CachedAnswer: Sendable {
    /// The answer, without the provider's id: a hit gets an id of its own, as any answer does.
    let response: ChatResponse
    /// The deployment that answered (the reply's `model`, the log's provider and model).
    let target: RouteTarget
    /// When it was kept, on the gateway's wall clock.
    let storedAt: Date
    /// What it counts against the cache's bound: its texts and a fixed part for the entry.
    let bytes: Int

    init(_ response: ChatResponse, from target: RouteTarget, at time: Date) {
        var kept = response
        kept.id = ""
        self.response = kept
        self.target = target
        storedAt = time
        bytes = Self.approximateBytes(of: kept)
    }

    /// Whole seconds since it was kept (the reply's `age`).
    func age(at now: Date) -> Int {
        max(0, Int(now.timeIntervalSince(storedAt)))
    }

    /// The answer as the stream events a provider would have sent, with `id` for the message: text and refusal text,
    /// reasoning with its signature, redacted reasoning, tool calls with their signatures, the finish reason and the
    /// usage.
    func events(id: String, model: String) -> [ChatStreamEvent] {
        var events: [ChatStreamEvent] = [.start(id: id, model: model)]
        var ordinal = 0
        let refused = response.finishReason == .refusal
        for block in response.content {
            switch block {
            case .text(let t) where !t.isEmpty:
                events.append(refused ? .refusalDelta(t) : .textDelta(t))
            case .thinking(let th) where th.redactedData != nil:
                events.append(.redactedThinking(th.redactedData!))
            case .thinking(let th):
                if !th.text.isEmpty { events.append(.thinkingDelta(th.text)) }
                if let signature = th.signature { events.append(.thinkingSignature(signature)) }
            case .toolCall(let call):
                events.append(.toolCallStart(ordinal: ordinal, id: call.id, name: call.name))
                events.append(.toolCallArgumentsDelta(ordinal: ordinal, fragment: call.arguments))
                if let signature = call.signature { events.append(.toolCallSignature(ordinal: ordinal, signature: signature)) }
                events.append(.toolCallEnd(ordinal: ordinal))
                ordinal += 1
            default:
                break
            }
        }
        events.append(.finish(response.finishReason))
        events.append(.usage(response.usage))
        return events
    }

    /// The entry's fixed part (its key, dates, the answer's fields and the store's bookkeeping) plus its texts.
    static func approximateBytes(of response: ChatResponse) -> Int {
        var bytes = 256 + response.model.utf8.count
        for block in response.content {
            bytes += 32
            switch block {
            case .text(let t): bytes += t.utf8.count
            case .thinking(let th): bytes += th.text.utf8.count + (th.signature?.utf8.count ?? 0) + (th.redactedData?.utf8.count ?? 0)
            case .toolCall(let c): bytes += c.id.utf8.count + c.name.utf8.count + c.arguments.utf8.count + (c.signature?.utf8.count ?? 0)
            case .image(let source): bytes += source.urlString.utf8.count
            case .toolResult(let r): bytes += r.text.utf8.count
            }
        }
        return bytes
    }
}
