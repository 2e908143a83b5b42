import SkillGateCore
import SkillGateHTTP

/// The state machine of `AnthropicMessagesStreamTranslator`: each SSE event, read as an
/// `AnthropicStreamEvent`, becomes canonical stream events.
///
/// `start` is held back from `message_start` until the first event that carries something the client would see: a
/// `content_block_start` of a text, thinking, redacted thinking or tool use block, or, for an answer without one,
/// `message_delta` or `message_stop` (decision 0134). So an `event: error`, a cut or a clean end right after
/// `message_start` fails the stream before its first event, and the route executor tries again or falls back.
/// `message_start`'s id, model and usage are kept for it.
struct AnthropicStreamInterpreter: SSEEventInterpreter {
    /// What a content block index refers to.
    enum Block: Sendable, Hashable {
        case text, thinking, redactedThinking, other
        case toolUse(ordinal: Int, sawArguments: Bool, startInput: JSONObject?)
    }

    let provider: String
    private(set) var sawMessageStart = false
    private(set) var sawMessageStop = false
    private var blocks: [Int: Block] = [:]
    private var nextToolOrdinal = 0
    private var usage = UsageParts()
    /// `message_start`'s id and model, for the held `start`.
    private var messageId = ""
    private var messageModel = ""
    /// Whether `start` was sent.
    private var startSent = false

    init(provider: String) {
        self.provider = provider
    }

    /// Applies one SSE event; its `type` comes from the data, else from the `event:` field.
    mutating func apply(_ sse: SSERawEvent, into out: inout [ChatStreamEvent]) throws {
        if sse.data.isEmpty { return }
        var event = AnthropicStreamEvent()
        do {
            try event.read(sse.data)
        } catch {
            throw GatewayError.upstreamProtocol(
                "the Anthropic stream sent an event whose data is not JSON (\(error)): \(AnthropicBodyPreview.describe(Array(sse.data))). Retry; if it persists, check that the provider speaks the Messages API.",
                provider: provider, upstreamStatus: 200)
        }
        let firstOfEvent = out.count
        // Whether this event starts the answer even when it gives no event of its own (an empty text block).
        var startsAnswer = false
        switch event.type ?? sse.event ?? "" {
        case "message_start":
            sawMessageStart = true
            usage.merge(event.messageUsage)
            messageId = event.messageId ?? ""
            messageModel = event.messageModel ?? ""
            if startSent { out.append(.start(id: messageId, model: messageModel)) }  // a second one goes out as it came
        case "content_block_start":
            startsAnswer = blockStart(event, into: &out)
        case "content_block_delta":
            blockDelta(event, into: &out)
        case "content_block_stop":
            blockStop(index: event.index, into: &out)
        case "message_delta":
            startsAnswer = true
            for index in blocks.keys.sorted() { blockStop(index: index, into: &out) }  // cut off by max_tokens
            if let raw = event.delta?.stopReason {
                var reason = AnthropicMessagesFormat.finishReason(raw)
                if nextToolOrdinal > 0, reason == .stop { reason = .toolCalls }
                out.append(.finish(reason))
            }
            usage.merge(event.usage)
            out.append(.usage(usage.usage))
        case "message_stop":
            startsAnswer = true
            sawMessageStop = true
        case "error":
            throw AnthropicMessagesFormat.errorFromEvent(error: event.error, provider: provider)
        default:
            break  // ping and event types added later
        }
        // The held `start` goes out just before the first event the client would see (decision 0134). A stream without
        // `message_start` never had one.
        if !startSent, sawMessageStart, startsAnswer || out.count > firstOfEvent {
            out.insert(.start(id: messageId, model: messageModel), at: firstOfEvent)
            startSent = true
        }
    }

    /// Applies a `content_block_start`; returns whether the block is one the client sees (text, thinking, redacted
    /// thinking, a tool call), which starts the answer even when the block starts empty.
    private mutating func blockStart(_ event: AnthropicStreamEvent, into out: inout [ChatStreamEvent]) -> Bool {
        guard let index = event.index, let block = event.contentBlock else { return false }
        switch block.type {
        case "text":
            blocks[index] = .text
            if let t = block.text, !t.isEmpty { out.append(.textDelta(t)) }
        case "thinking":
            blocks[index] = .thinking
            if let t = block.thinking, !t.isEmpty { out.append(.thinkingDelta(t)) }
            if let s = block.signature, !s.isEmpty { out.append(.thinkingSignature(s)) }
        case "redacted_thinking":
            blocks[index] = .redactedThinking
            out.append(.redactedThinking(block.data ?? ""))
        case "tool_use":
            let ordinal = nextToolOrdinal
            nextToolOrdinal += 1
            // A non-empty start input is used only if no deltas follow.
            let input = block.input.flatMap { $0.isEmpty ? nil : $0 }
            blocks[index] = .toolUse(ordinal: ordinal, sawArguments: false, startInput: input)
            out.append(.toolCallStart(ordinal: ordinal, id: block.id ?? "", name: block.name ?? ""))
        default:
            blocks[index] = .other  // server tool blocks and later additions: nothing the client sees
            return false
        }
        return true
    }

    private mutating func blockDelta(_ event: AnthropicStreamEvent, into out: inout [ChatStreamEvent]) {
        guard let index = event.index, let delta = event.delta else { return }
        switch delta.type {
        case "text_delta":
            if let t = delta.text, !t.isEmpty { out.append(.textDelta(t)) }
        case "thinking_delta":
            if let t = delta.thinking, !t.isEmpty { out.append(.thinkingDelta(t)) }
        case "signature_delta":
            if let s = delta.signature, !s.isEmpty { out.append(.thinkingSignature(s)) }
        case "input_json_delta":
            guard case .toolUse(let ordinal, _, _)? = blocks[index],
                  let fragment = delta.partialJSON, !fragment.isEmpty else { return }
            blocks[index] = .toolUse(ordinal: ordinal, sawArguments: true, startInput: nil)
            out.append(.toolCallArgumentsDelta(ordinal: ordinal, fragment: fragment))
        default:
            break  // citations_delta and later additions
        }
    }

    private mutating func blockStop(index: Int?, into out: inout [ChatStreamEvent]) {
        guard let index, let block = blocks.removeValue(forKey: index) else { return }
        guard case .toolUse(let ordinal, let sawArguments, let startInput) = block else { return }
        if !sawArguments {
            out.append(.toolCallArgumentsDelta(ordinal: ordinal, fragment: startInput.map { JSONValue.object($0).serialized() } ?? "{}"))
        }
        out.append(.toolCallEnd(ordinal: ordinal))
    }
}
