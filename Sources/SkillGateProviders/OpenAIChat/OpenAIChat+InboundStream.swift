import SkillGateCore
import SkillGateHTTP

/// ChatStreamEvent → `chat.completion.chunk` SSE bytes for clients of the OpenAI-compatible surface.
///
/// A small value-type encoder carrying the chunk header (id, model, created). The first chunk
/// carries `role:"assistant"`; a tool call's `index` is its ordinal, and its `id`, `type` and
/// `name` appear only in its first delta. Refusal text goes in `delta.refusal`, as OpenAI streams it, and the
/// answer then finishes with `stop` (decision 0114). With `includeUsage`, `finish()` writes a usage chunk
/// with `choices: []` before `data: [DONE]`, as OpenAI does.
public struct OpenAIChatStreamEncoder: Sendable {
    public let id: String
    public let model: String
    public let created: Int
    public let includeUsage: Bool

    private var sentRole = false
    private var usage = Usage()
    /// What every chunk with a choice starts with, written once: `data: {"id":…,"object":"chat.completion.chunk",
    /// "created":…,"model":…,"choices":[{"index":0,"delta":` — the same bytes `JSONValue.write` gives for them.
    private let choicePrefix: [UInt8]

    /// `id`, `model` and `created` (Unix seconds) are written into every chunk.
    public init(id: String, model: String, created: Int, includeUsage: Bool) {
        self.id = id
        self.model = model
        self.created = created
        self.includeUsage = includeUsage
        // Written field by field, not as a tree of the header: a stream's first event waits for this (decision 0063).
        var prefix: [UInt8] = []
        prefix.reserveCapacity(96 + id.utf8.count + model.utf8.count)
        prefix += "data: {\"id\":"
        JSONValue.writeString(id, to: &prefix)
        prefix += ",\"object\":\"chat.completion.chunk\",\"created\":"
        prefix.append(contentsOf: String(created).utf8)
        prefix += ",\"model\":"
        JSONValue.writeString(model, to: &prefix)
        prefix += ",\"choices\":[{\"index\":0,\"delta\":"
        choicePrefix = prefix
    }

    /// The SSE bytes for one event (empty for events the format has no field for).
    public mutating func encode(_ event: ChatStreamEvent) -> [UInt8] {
        var out: [UInt8] = []
        switch event {
        case .start:
            appendRoleChunkIfNeeded(&out)
        case .textDelta(let text):
            appendRoleChunkIfNeeded(&out)
            append(text: text, field: "content", to: &out)
        case .refusalDelta(let text):
            appendRoleChunkIfNeeded(&out)
            append(text: text, field: "refusal", to: &out)
        case .thinkingDelta(let text):
            appendRoleChunkIfNeeded(&out)
            append(text: text, field: "reasoning_content", to: &out)
        case .toolCallStart(let ordinal, let callId, let name):
            appendRoleChunkIfNeeded(&out)
            out += choicePrefix
            out += #"{"tool_calls":[{"index":"#
            out += String(ordinal).utf8
            out += #","id":"#
            JSONValue.writeString(callId, to: &out)
            out += #","type":"function","function":{"name":"#
            JSONValue.writeString(name, to: &out)
            out += #","arguments":""}}]}"#
            appendChoiceEnd(finishReason: nil, to: &out)
        case .toolCallArgumentsDelta(let ordinal, let fragment):
            // Most of a tool-calling stream: written without a tree, like text (decision 0068).
            appendRoleChunkIfNeeded(&out)
            out += choicePrefix
            out += #"{"tool_calls":[{"index":"#
            out += String(ordinal).utf8
            out += #","function":{"arguments":"#
            JSONValue.writeString(fragment, to: &out)
            out += "}}]}"
            appendChoiceEnd(finishReason: nil, to: &out)
        case .finish(let reason):
            appendRoleChunkIfNeeded(&out)
            out += choicePrefix
            out += "{}"
            appendChoiceEnd(finishReason: OpenAIChatFormat.wireFinishReason(reason), to: &out)
        case .usage(let u):
            usage = u
        case .thinkingSignature, .redactedThinking, .toolCallSignature, .toolCallEnd:
            break
        }
        return out
    }

    /// The end of the stream: the usage chunk (when asked for) and `data: [DONE]`.
    public mutating func finish() -> [UInt8] {
        var out: [UInt8] = []
        if includeUsage {
            var chunk = Self.header(id: id, model: model, created: created)
            chunk.append("choices", [])
            chunk.append("usage", OpenAIChatFormat.wireUsage(usage))
            out += SSEEncoder.encodeJSON(.object(chunk))
        }
        out += Array("data: [DONE]\n\n".utf8)
        return out
    }

    /// An error after the stream started, as OpenAI sends it: a data event with `{"error":{...}}`.
    public func encodeError(_ error: GatewayError) -> [UInt8] {
        SSEEncoder.encodeJSON(error.openAIBody())
    }

    private mutating func appendRoleChunkIfNeeded(_ out: inout [UInt8]) {
        guard !sentRole else { return }
        sentRole = true
        out += choicePrefix
        out += #"{"role":"assistant","content":""}"#
        appendChoiceEnd(finishReason: nil, to: &out)
    }

    /// The fields every chunk starts with.
    private static func header(id: String, model: String, created: Int) -> JSONObject {
        ["id": .string(id), "object": "chat.completion.chunk", "created": .int(created), "model": .string(model)]
    }

    /// A text delta (`{"content":"…"}`, `{"reasoning_content":"…"}` or `{"refusal":"…"}`), the event a stream is mostly made of.
    private func append(text: String, field: StaticString, to out: inout [UInt8]) {
        out += choicePrefix
        out += "{\""
        field.withUTF8Buffer { out.append(contentsOf: $0) }
        out += "\":"
        JSONValue.writeString(text, to: &out)
        out.append(0x7D)
        appendChoiceEnd(finishReason: nil, to: &out)
    }

    private func appendChoiceEnd(finishReason: String?, to out: inout [UInt8]) {
        out += ",\"logprobs\":null,\"finish_reason\":"
        if let finishReason { JSONValue.writeString(finishReason, to: &out) } else { out += "null" }
        out += "}]}\n\n"
    }
}
