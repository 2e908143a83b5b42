import SkillGateCore

extension ChatResponse {
    /// A complete answer as the stream events a provider would have sent: a `.refusal` answer's text as refusal text
    /// (decision 0114).
    func streamEvents(fallbackId: String, model: String) -> [ChatStreamEvent] {
        var events: [ChatStreamEvent] = [.start(id: id.isEmpty ? fallbackId : id, model: model)]
        var ordinal = 0
        let refused = finishReason == .refusal
        for block in content {
            switch block {
            case .text(let t) where !t.isEmpty:
                events.append(refused ? .refusalDelta(t) : .textDelta(t))
            case .toolCall(let call):
                events.append(.toolCallStart(ordinal: ordinal, id: call.id, name: call.name))
                events.append(.toolCallArgumentsDelta(ordinal: ordinal, fragment: call.arguments))
                events.append(.toolCallEnd(ordinal: ordinal))
                ordinal += 1
            default:
                break
            }
        }
        events.append(.finish(finishReason))
        events.append(.usage(usage))
        return events
    }
}
