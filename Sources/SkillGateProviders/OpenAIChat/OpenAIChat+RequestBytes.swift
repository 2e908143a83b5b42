import SkillGateCore

/// ChatRequest → Chat Completions request body, written straight to bytes (decision 0039): no tree is
/// built, and a tool schema kept as text (`ToolSchema`) is copied as it is. This is the body every
/// OpenAI-compatible upstream call sends; `requestBody` gives the same body as a tree. The choices the
/// mapping makes are those listed in `OpenAIChat+Request.swift`.
extension OpenAIChatFormat {
    /// The request body for `request`, addressed to `model`, as compact JSON bytes.
    public func requestBytes(_ request: ChatRequest, model: String, stream: Bool, useMaxCompletionTokens: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024 + request.messages.count * 256 + request.tools.count * 512)
        out += #"{"model":"#
        JSONValue.writeString(model, to: &out)
        out += #","messages":["#
        var first = true
        for message in request.messages { Self.writeWireMessages(for: message, to: &out, first: &first) }
        out.append(UInt8(ascii: "]"))
        if !request.tools.isEmpty {
            out += #","tools":["#
            for (i, tool) in request.tools.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeWireTool(tool, to: &out)
            }
            out.append(UInt8(ascii: "]"))
            if let choice = request.toolChoice {
                out += #","tool_choice":"#
                Self.wireToolChoice(choice).write(to: &out)
            }
            if let parallel = request.parallelToolCalls { out += (parallel ? #","parallel_tool_calls":true"# : #","parallel_tool_calls":false"#).utf8 }
        }
        if let maxTokens = request.maxTokens {
            out += (useMaxCompletionTokens ? #","max_completion_tokens":"# : #","max_tokens":"#).utf8
            out += String(maxTokens).utf8
        }
        if let t = request.temperature { out += #","temperature":"#; JSONValue.double(t).write(to: &out) }
        if let p = request.topP { out += #","top_p":"#; JSONValue.double(p).write(to: &out) }
        if let f = request.frequencyPenalty { out += #","frequency_penalty":"#; JSONValue.double(f).write(to: &out) }
        if let p = request.presencePenalty { out += #","presence_penalty":"#; JSONValue.double(p).write(to: &out) }
        if let seed = request.seed { out += #","seed":"#; out += String(seed).utf8 }
        if let bias = request.logitBias { out += #","logit_bias":"#; bias.write(to: &out) }
        if !request.stopSequences.isEmpty {
            out += #","stop":"#
            JSONValue.writeStrings(request.stopSequences, to: &out)
        }
        if let format = request.responseFormat { out += #","response_format":"#; format.write(to: &out) }
        if let user = request.user { out += #","user":"#; JSONValue.writeString(user, to: &out) }
        if let key = request.promptCacheKey { out += #","prompt_cache_key":"#; JSONValue.writeString(key, to: &out) }
        out += (stream ? #","stream":true"# : #","stream":false"#).utf8
        if stream && includeStreamUsage { out += #","stream_options":{"include_usage":true}"# }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Writes the wire message(s) for one canonical message: tool results split into one `tool` message
    /// each, in order, around the message's other content.
    private static func writeWireMessages(for message: Message, to out: inout [UInt8], first: inout Bool) {
        func separate() { if first { first = false } else { out.append(UInt8(ascii: ",")) } }
        // Most messages hold no tool result: written as they are, without copying their blocks aside.
        if !message.content.contains(where: { if case .toolResult = $0 { true } else { false } }) {
            separate()
            writeWireMessage(role: message.role, message.content, to: &out)
            return
        }
        var rest: [ContentBlock] = []
        for block in message.content {
            if case .toolResult(let result) = block {
                if !rest.isEmpty { separate(); writeWireMessage(role: message.role, rest, to: &out); rest.removeAll() }
                separate()
                out += #"{"role":"tool","tool_call_id":"#
                JSONValue.writeString(result.callId, to: &out)
                out += #","content":"#
                JSONValue.writeString(result.text, to: &out)
                out.append(UInt8(ascii: "}"))
            } else {
                rest.append(block)
            }
        }
        if !rest.isEmpty || message.content.isEmpty { separate(); writeWireMessage(role: message.role, rest, to: &out) }
    }

    private static func writeWireMessage(role: Role, _ blocks: [ContentBlock], to out: inout [UInt8]) {
        switch role {
        case .system:
            out += #"{"role":"system","content":"#
            if blocks.count == 1, case .text(let text) = blocks[0] {
                JSONValue.writeString(text, to: &out)   // the usual system prompt: no array, no joined copy
            } else {
                JSONValue.writeString(blocks.compactMap(\.text).joined(separator: "\n\n"), to: &out)
            }
        case .user, .tool:
            out += #"{"role":"user","content":"#
            writeUserContent(blocks, to: &out)
        case .assistant:
            out += #"{"role":"assistant","content":"#
            if blocks.count == 1, case .text(let text) = blocks[0] {
                JSONValue.writeString(text, to: &out)   // an earlier answer without tool calls
                break
            }
            let text = blocks.compactMap(\.text).joined()
            let calls = blocks.compactMap(\.toolCall)
            if text.isEmpty && !calls.isEmpty { out += "null" } else { JSONValue.writeString(text, to: &out) }
            writeToolCalls(calls, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `,"tool_calls":[...]` for an assistant message (request history or answer); nothing without calls.
    static func writeToolCalls(_ calls: [ToolCall], to out: inout [UInt8]) {
        guard !calls.isEmpty else { return }
        out += #","tool_calls":["#
        for (i, call) in calls.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out += #"{"id":"#
            JSONValue.writeString(call.id, to: &out)
            out += #","type":"function","function":{"name":"#
            JSONValue.writeString(call.name, to: &out)
            out += #","arguments":"#
            JSONValue.writeString(call.arguments.isEmpty ? "{}" : call.arguments, to: &out)
            out += "}}"
        }
        out.append(UInt8(ascii: "]"))
    }

    /// A plain string for a single text block; content parts otherwise.
    private static func writeUserContent(_ blocks: [ContentBlock], to out: inout [UInt8]) {
        if blocks.count == 1, case .text(let t) = blocks[0] { JSONValue.writeString(t, to: &out); return }
        out.append(UInt8(ascii: "["))
        var first = true
        for block in blocks {
            switch block {
            case .text(let t):
                if !first { out.append(UInt8(ascii: ",")) }
                out += #"{"type":"text","text":"#
                JSONValue.writeString(t, to: &out)
                out.append(UInt8(ascii: "}"))
            case .image(let source):
                if !first { out.append(UInt8(ascii: ",")) }
                out += #"{"type":"image_url","image_url":{"url":"#
                JSONValue.writeString(source.urlString, to: &out)
                out += "}}"
            case .toolCall, .toolResult, .thinking: continue
            }
            first = false
        }
        out.append(UInt8(ascii: "]"))
    }

    private static func writeWireTool(_ tool: ToolDefinition, to out: inout [UInt8]) {
        out += #"{"type":"function","function":{"name":"#
        JSONValue.writeString(tool.name, to: &out)
        if let d = tool.description { out += #","description":"#; JSONValue.writeString(d, to: &out) }
        out += #","parameters":"#
        tool.schema.write(to: &out)
        if let strict = tool.strict { out += (strict ? #","strict":true"# : #","strict":false"#).utf8 }
        out += "}}"
    }
}
