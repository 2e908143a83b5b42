import SkillGateCore
import SkillGateHTTP

/// Encodes canonical stream events as the Anthropic Messages SSE a client of `POST /v1/messages`
/// expects: `message_start`, `ping`, `content_block_start`/`_delta`/`_stop` with consecutive block
/// indices, then `message_delta` (stop reason and usage) and `message_stop` from `finish()`.
///
/// Finish reason and usage are held back until `finish()`, because Anthropic sends both in one
/// `message_delta`. Thinking streams as `thinking_delta` + `signature_delta`, tool calls as
/// `tool_use` blocks with `input_json_delta`. One block is open at a time, as Anthropic does:
/// a canonical stream that interleaves the argument deltas of several tool calls still works
/// (deltas name their block index) but the earlier call's block is already closed.
public struct AnthropicMessagesSSEEncoder: Sendable {
    private enum OpenBlock: Sendable, Hashable {
        case text, thinking(signed: Bool), redactedThinking, tool(ordinal: Int)
    }

    private let fallbackId: String
    private let fallbackModel: String
    private let sendPing: Bool
    private var started = false
    private var finished = false
    private var open: (index: Int, block: OpenBlock)?
    private var nextIndex = 0
    private var toolBlockIndex: [Int: Int] = [:]
    private var finishReason: FinishReason?
    private var usage: Usage?

    /// - Parameters:
    ///   - fallbackId: the message id when the upstream gave none.
    ///   - fallbackModel: the model name when the upstream gave none.
    ///   - sendPing: whether to send a `ping` after `message_start`, as Anthropic does.
    public init(fallbackId: String = "msg_skillgate", fallbackModel: String = "", sendPing: Bool = true) {
        self.fallbackId = fallbackId
        self.fallbackModel = fallbackModel
        self.sendPing = sendPing
    }

    /// The SSE bytes for one event (possibly none: finish and usage wait for `finish()`).
    public mutating func encode(_ event: ChatStreamEvent) -> [UInt8] {
        var out: [UInt8] = []
        switch event {
        case .start(let id, let model):
            startIfNeeded(id: id, model: model, into: &out)
        case .textDelta(let text):
            guard !text.isEmpty else { break }
            if open?.block != .text { openBlock(.text, ["type": "text", "text": ""], into: &out) }
            delta(["type": "text_delta", "text": .string(text)], into: &out)
        case .thinkingDelta(let text):
            guard !text.isEmpty else { break }
            if open?.block != .thinking(signed: false) {
                openBlock(.thinking(signed: false), ["type": "thinking", "thinking": "", "signature": ""], into: &out)
            }
            delta(["type": "thinking_delta", "thinking": .string(text)], into: &out)
        case .thinkingSignature(let signature):
            if case .thinking? = open?.block {} else {
                openBlock(.thinking(signed: false), ["type": "thinking", "thinking": "", "signature": ""], into: &out)
            }
            delta(["type": "signature_delta", "signature": .string(signature)], into: &out)
            open?.block = .thinking(signed: true)
        case .redactedThinking(let data):
            openBlock(.redactedThinking, ["type": "redacted_thinking", "data": .string(data)], into: &out)
            closeBlock(into: &out)
        case .toolCallStart(let ordinal, let id, let name):
            openBlock(.tool(ordinal: ordinal),
                      ["type": "tool_use", "id": .string(id), "name": .string(name), "input": .object(JSONObject())], into: &out)
            toolBlockIndex[ordinal] = open?.index
        case .toolCallArgumentsDelta(let ordinal, let fragment):
            guard let index = toolBlockIndex[ordinal], !fragment.isEmpty else { break }
            startIfNeeded(id: "", model: "", into: &out)
            write("content_block_delta", ["type": "content_block_delta", "index": .int(index),
                                          "delta": ["type": "input_json_delta", "partial_json": .string(fragment)]], into: &out)
        case .toolCallSignature:
            break  // Gemini-only; Anthropic clients have no place for it
        case .toolCallEnd(let ordinal):
            if open?.block == .tool(ordinal: ordinal) { closeBlock(into: &out) }
        case .finish(let reason):
            finishReason = reason
        case .usage(let u):
            usage = u
        }
        return out
    }

    /// Closes the open block and sends `message_delta` and `message_stop`. Call once, after the
    /// last event; later calls return nothing.
    public mutating func finish() -> [UInt8] {
        guard !finished else { return [] }
        var out: [UInt8] = []
        startIfNeeded(id: "", model: "", into: &out)
        closeBlock(into: &out)
        finished = true
        var delta = JSONObject()
        delta.append("stop_reason", finishReason.map { .string(AnthropicMessagesFormat.wireStopReason($0)) } ?? .null)
        delta.append("stop_sequence", .null)
        write("message_delta", ["type": "message_delta", "delta": .object(delta),
                                "usage": AnthropicMessagesFormat.wireUsage(usage ?? Usage())], into: &out)
        write("message_stop", ["type": "message_stop"], into: &out)
        return out
    }

    /// An `event: error` in Anthropic's shape, for a failure after the stream started (HTTP 200
    /// already sent); `{"type":"error","error":{"type":...,"message":...}}`.
    public static func errorEvent(_ error: GatewayError) -> [UInt8] {
        SSEEncoder.encodeJSON(error.anthropicBody(), event: "error")
    }

    private mutating func startIfNeeded(id: String, model: String, into out: inout [UInt8]) {
        guard !started else { return }
        started = true
        let message: JSONValue = [
            "id": .string(id.isEmpty ? fallbackId : id), "type": "message", "role": "assistant",
            "model": .string(model.isEmpty ? fallbackModel : model), "content": [],
            "stop_reason": nil, "stop_sequence": nil,
            "usage": ["input_tokens": 0, "output_tokens": 0],
        ]
        write("message_start", ["type": "message_start", "message": message], into: &out)
        if sendPing { write("ping", ["type": "ping"], into: &out) }
    }

    private mutating func openBlock(_ block: OpenBlock, _ contentBlock: JSONValue, into out: inout [UInt8]) {
        startIfNeeded(id: "", model: "", into: &out)
        closeBlock(into: &out)
        open = (nextIndex, block)
        write("content_block_start", ["type": "content_block_start", "index": .int(nextIndex), "content_block": contentBlock], into: &out)
        nextIndex += 1
    }

    private mutating func delta(_ delta: JSONValue, into out: inout [UInt8]) {
        guard let index = open?.index else { return }
        write("content_block_delta", ["type": "content_block_delta", "index": .int(index), "delta": delta], into: &out)
    }

    private mutating func closeBlock(into out: inout [UInt8]) {
        guard let index = open?.index else { return }
        open = nil
        write("content_block_stop", ["type": "content_block_stop", "index": .int(index)], into: &out)
    }

    private func write(_ name: String, _ payload: JSONValue, into out: inout [UInt8]) {
        out.append(contentsOf: SSEEncoder.encodeJSON(payload, event: name))
    }
}
