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
        case .textDelta(let text), .refusalDelta(let text):  // refusal text is text here, as in a whole answer (decision 0114)
            guard !text.isEmpty else { break }
            if open?.block != .text { openBlock(.text, into: &out) { $0 += #"{"type":"text","text":""}"# } }
            delta(#"{"type":"text_delta","text":"#, text, into: &out)
        case .thinkingDelta(let text):
            guard !text.isEmpty else { break }
            if open?.block != .thinking(signed: false) { openBlock(.thinking(signed: false), into: &out, Self.emptyThinking) }
            delta(#"{"type":"thinking_delta","thinking":"#, text, into: &out)
        case .thinkingSignature(let signature):
            if case .thinking? = open?.block {} else { openBlock(.thinking(signed: false), into: &out, Self.emptyThinking) }
            delta(#"{"type":"signature_delta","signature":"#, signature, into: &out)
            open?.block = .thinking(signed: true)
        case .redactedThinking(let data):
            openBlock(.redactedThinking, into: &out) { out in
                AnthropicMessagesFormat.writeThinkingBlockFields(Thinking(text: "", redactedData: data), to: &out)
                out.append(UInt8(ascii: "}"))
            }
            closeBlock(into: &out)
        case .toolCallStart(let ordinal, let id, let name):
            openBlock(.tool(ordinal: ordinal), into: &out) { out in
                AnthropicMessagesFormat.writeToolUseBlockHead(id: id, name: name, to: &out)
                out += "{}}"
            }
            toolBlockIndex[ordinal] = open?.index
        case .toolCallArgumentsDelta(let ordinal, let fragment):
            guard let index = toolBlockIndex[ordinal], !fragment.isEmpty else { break }
            startIfNeeded(id: "", model: "", into: &out)
            writeDelta(index: index, #"{"type":"input_json_delta","partial_json":"#, fragment, into: &out)
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
        out += "event: message_delta\ndata: "
        out += #"{"type":"message_delta","delta":{"stop_reason":"#
        if let finishReason { JSONValue.writeString(AnthropicMessagesFormat.wireStopReason(finishReason), to: &out) } else { out += "null" }
        out += #","stop_sequence":null},"usage":"#
        AnthropicMessagesFormat.wireUsage(usage ?? Usage()).write(to: &out)
        out += "}\n\n"
        out += "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
        return out
    }

    /// An `event: error` in Anthropic's shape, for a failure after the stream started (HTTP 200
    /// already sent); `{"type":"error","error":{"type":...,"message":...}}`.
    public static func errorEvent(_ error: GatewayError) -> [UInt8] {
        SSEEncoder.encodeJSON(error.anthropicBody(), event: "error")
    }

    // Every event below is written straight as bytes (decision 0065): the same compact JSON, in the same key order, as
    // the tree each one used to be built as (`AnthropicSSEEncoderBytesTests` pins them), for a tenth of the work on
    // every text delta.

    private static func emptyThinking(_ out: inout [UInt8]) {
        out += #"{"type":"thinking","thinking":"","signature":""}"#
    }

    private mutating func startIfNeeded(id: String, model: String, into out: inout [UInt8]) {
        guard !started else { return }
        started = true
        out += "event: message_start\ndata: "
        out += #"{"type":"message_start","message":{"id":"#
        JSONValue.writeString(id.isEmpty ? fallbackId : id, to: &out)
        out += #","type":"message","role":"assistant","model":"#
        JSONValue.writeString(model.isEmpty ? fallbackModel : model, to: &out)
        out += #","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0}}}"#
        out += "\n\n"
        if sendPing { out += "event: ping\ndata: {\"type\":\"ping\"}\n\n" }
    }

    /// Opens a block whose `content_block` `writeContentBlock` writes, closing the one open before.
    private mutating func openBlock(_ block: OpenBlock, into out: inout [UInt8], _ writeContentBlock: (inout [UInt8]) -> Void) {
        startIfNeeded(id: "", model: "", into: &out)
        closeBlock(into: &out)
        open = (nextIndex, block)
        out += "event: content_block_start\ndata: "
        out += #"{"type":"content_block_start","index":"#
        out.append(contentsOf: String(nextIndex).utf8)
        out += #","content_block":"#
        writeContentBlock(&out)
        out += "}\n\n"
        nextIndex += 1
    }

    /// A delta of the open block: `head` is the delta object up to its one string value, `text`.
    private func delta(_ head: StaticString, _ text: String, into out: inout [UInt8]) {
        guard let index = open?.index else { return }
        writeDelta(index: index, head, text, into: &out)
    }

    private func writeDelta(index: Int, _ head: StaticString, _ text: String, into out: inout [UInt8]) {
        out += "event: content_block_delta\ndata: "
        out += #"{"type":"content_block_delta","index":"#
        out.append(contentsOf: String(index).utf8)
        out += #","delta":"#
        out += head
        JSONValue.writeString(text, to: &out)
        out += "}}\n\n"
    }

    private mutating func closeBlock(into out: inout [UInt8]) {
        guard let index = open?.index else { return }
        open = nil
        out += "event: content_block_stop\ndata: "
        out += #"{"type":"content_block_stop","index":"#
        out.append(contentsOf: String(index).utf8)
        out += "}\n\n"
    }
}
