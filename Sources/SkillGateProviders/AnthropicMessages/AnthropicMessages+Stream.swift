import SkillGateCore
import SkillGateHTTP

/// Turns an Anthropic Messages SSE body into `ChatStreamEvent`s; a value-type state machine fed
/// raw bytes in any split.
///
/// - Tool calls are numbered by their ordinal among tool calls, not by content-block index.
/// - Empty `input_json_delta` fragments are dropped; a tool call that got no non-empty fragment
///   gets the arguments `"{}"` at its `content_block_stop`, as the non-streamed answer would.
/// - `ping` and unknown event types are ignored.
/// - Usage from `message_start` (input) and `message_delta` (output, sometimes input) is combined
///   and emitted once, at `message_delta`, after the finish reason.
/// - `event: error` after HTTP 200 throws a `GatewayError` (overloaded_error → `.upstreamOverloaded`).
/// - A body that ends without `message_stop` throws a truncation error naming the provider.
public struct AnthropicMessagesStreamTranslator: WireStreamTranslator {
    /// What a content block index refers to.
    enum Block: Sendable, Hashable {
        case text, thinking, redactedThinking, other
        case toolUse(ordinal: Int, sawArguments: Bool, startInput: JSONValue?)
    }

    /// The provider id named in errors.
    public let provider: String
    private var sse = SSEDecoder()
    private var blocks: [Int: Block] = [:]
    private var nextToolOrdinal = 0
    private var usage = UsageParts()
    private var sawMessageStart = false
    private var sawMessageStop = false

    public init(provider: String) {
        self.provider = provider
    }

    public mutating func feed(_ bytes: [UInt8]) throws -> [ChatStreamEvent] {
        var out: [ChatStreamEvent] = []
        // The buffer overload runs SSEDecoder's loop specialised for bytes; the generic
        // `some Sequence` entry point is ~7× slower when called from another module.
        let events = bytes.withUnsafeBytes { sse.feed($0) }
        for event in events { try handle(event, into: &out) }
        return out
    }

    public mutating func finish() throws -> [ChatStreamEvent] {
        var out: [ChatStreamEvent] = []
        for event in sse.finish() { try handle(event, into: &out) }
        if !sawMessageStop {
            if let stray = try? JSONValue.parse(sse.strayText), stray["error"]?.objectValue != nil {
                throw AnthropicMessagesFormat.errorFromEvent(stray, provider: provider)
            }
            var where_ = sawMessageStart ? "before `message_stop`" : "before `message_start` (no answer at all)"
            if !sse.strayText.isEmpty {
                where_ += ", and sent \(AnthropicBodyPreview.describe(Array(sse.strayText.utf8))) instead of events"
            }
            throw GatewayError(domain: .provider, kind: .upstreamProtocol, status: 502,
                               message: "\(provider): the Anthropic stream ended \(where_); the answer is truncated. Retry the request; if it keeps happening, check the base URL and the network path to the provider.",
                               provider: provider, upstreamStatus: 200)
        }
        return out
    }

    private mutating func handle(_ event: SSEEvent, into out: inout [ChatStreamEvent]) throws {
        if event.data.isEmpty { return }
        let payload: JSONValue
        do {
            payload = try JSONValue.parse(event.data)
        } catch {
            throw GatewayError.upstreamProtocol(
                "the Anthropic stream sent an event whose data is not JSON (\(error)): \(AnthropicBodyPreview.describe(Array(event.data.utf8))). Retry; if it persists, check that the provider speaks the Messages API.",
                provider: provider, upstreamStatus: 200)
        }
        let type = payload["type"]?.stringValue ?? event.event ?? ""
        switch type {
        case "message_start":
            sawMessageStart = true
            let message = payload["message"]
            usage.merge(message?["usage"])
            out.append(.start(id: message?["id"]?.stringValue ?? "", model: message?["model"]?.stringValue ?? ""))
        case "content_block_start":
            blockStart(payload, into: &out)
        case "content_block_delta":
            blockDelta(payload, into: &out)
        case "content_block_stop":
            blockStop(payload, into: &out)
        case "message_delta":
            for index in blocks.keys.sorted() { blockStop(["index": .int(index)], into: &out) }  // cut off by max_tokens
            if let raw = payload["delta"]?["stop_reason"]?.stringValue {
                var reason = AnthropicMessagesFormat.finishReason(raw)
                if nextToolOrdinal > 0, reason == .stop { reason = .toolCalls }
                out.append(.finish(reason))
            }
            usage.merge(payload["usage"])
            out.append(.usage(usage.usage))
        case "message_stop":
            sawMessageStop = true
        case "error":
            throw AnthropicMessagesFormat.errorFromEvent(payload, provider: provider)
        default:
            break  // ping and event types added later
        }
    }

    private mutating func blockStart(_ payload: JSONValue, into out: inout [ChatStreamEvent]) {
        guard let index = payload["index"]?.intValue, let block = payload["content_block"] else { return }
        switch block["type"]?.stringValue {
        case "text":
            blocks[index] = .text
            if let t = block["text"]?.stringValue, !t.isEmpty { out.append(.textDelta(t)) }
        case "thinking":
            blocks[index] = .thinking
            if let t = block["thinking"]?.stringValue, !t.isEmpty { out.append(.thinkingDelta(t)) }
            if let s = block["signature"]?.stringValue, !s.isEmpty { out.append(.thinkingSignature(s)) }
        case "redacted_thinking":
            blocks[index] = .redactedThinking
            out.append(.redactedThinking(block["data"]?.stringValue ?? ""))
        case "tool_use":
            let ordinal = nextToolOrdinal
            nextToolOrdinal += 1
            var input: JSONValue? = nil  // a non-empty start input is used only if no deltas follow
            if let given = block["input"], let object = given.objectValue, !object.isEmpty { input = given }
            blocks[index] = .toolUse(ordinal: ordinal, sawArguments: false, startInput: input)
            out.append(.toolCallStart(ordinal: ordinal, id: block["id"]?.stringValue ?? "", name: block["name"]?.stringValue ?? ""))
        default:
            blocks[index] = .other
        }
    }

    private mutating func blockDelta(_ payload: JSONValue, into out: inout [ChatStreamEvent]) {
        guard let index = payload["index"]?.intValue, let delta = payload["delta"] else { return }
        switch delta["type"]?.stringValue {
        case "text_delta":
            if let t = delta["text"]?.stringValue, !t.isEmpty { out.append(.textDelta(t)) }
        case "thinking_delta":
            if let t = delta["thinking"]?.stringValue, !t.isEmpty { out.append(.thinkingDelta(t)) }
        case "signature_delta":
            if let s = delta["signature"]?.stringValue, !s.isEmpty { out.append(.thinkingSignature(s)) }
        case "input_json_delta":
            guard case .toolUse(let ordinal, _, _)? = blocks[index],
                  let fragment = delta["partial_json"]?.stringValue, !fragment.isEmpty else { return }
            blocks[index] = .toolUse(ordinal: ordinal, sawArguments: true, startInput: nil)
            out.append(.toolCallArgumentsDelta(ordinal: ordinal, fragment: fragment))
        default:
            break  // citations_delta and later additions
        }
    }

    private mutating func blockStop(_ payload: JSONValue, into out: inout [ChatStreamEvent]) {
        guard let index = payload["index"]?.intValue, let block = blocks.removeValue(forKey: index) else { return }
        guard case .toolUse(let ordinal, let sawArguments, let startInput) = block else { return }
        if !sawArguments {
            out.append(.toolCallArgumentsDelta(ordinal: ordinal, fragment: startInput?.serialized() ?? "{}"))
        }
        out.append(.toolCallEnd(ordinal: ordinal))
    }
}
