import SkillGateCore
@testable import SkillGateProviders

/// The Chat Completions request mapping as it was written before decision 0039: it builds the body as a
/// tree. Kept here as the oracle that `OpenAIChatFormat.requestBytes` (which writes bytes
/// directly) is compared with. Changed since only to add the sampling controls of decision 0094.
struct OpenAIChatTreeReference {
    var includeStreamUsage = true

    /// The request body for `request`, addressed to `model`.
    func requestBody(_ request: ChatRequest, model: String, stream: Bool, useMaxCompletionTokens: Bool = false) -> JSONValue {
        var body = JSONObject()
        body.append("model", .string(model))
        var messages: [JSONValue] = []
        messages.reserveCapacity(request.messages.count)
        for message in request.messages { Self.appendWireMessages(for: message, to: &messages) }
        body.append("messages", .array(messages))
        if !request.tools.isEmpty {
            body.append("tools", .array(request.tools.map(Self.wireTool)))
            if let choice = request.toolChoice { body.append("tool_choice", Self.wireToolChoice(choice)) }
            if let parallel = request.parallelToolCalls { body.append("parallel_tool_calls", .bool(parallel)) }
        }
        if let maxTokens = request.maxTokens {
            body.append(useMaxCompletionTokens ? "max_completion_tokens" : "max_tokens", .int(maxTokens))
        }
        if let t = request.temperature { body.append("temperature", .double(t)) }
        if let p = request.topP { body.append("top_p", .double(p)) }
        if let f = request.frequencyPenalty { body.append("frequency_penalty", .double(f)) }
        if let p = request.presencePenalty { body.append("presence_penalty", .double(p)) }
        if let seed = request.seed { body.append("seed", .int(seed)) }
        if let bias = request.logitBias { body.append("logit_bias", bias) }
        if !request.stopSequences.isEmpty { body.append("stop", .array(request.stopSequences.map(JSONValue.string))) }
        body.append("response_format", ifPresent: request.responseFormat)
        if let user = request.user { body.append("user", .string(user)) }
        if let key = request.promptCacheKey { body.append("prompt_cache_key", .string(key)) }
        body.append("stream", .bool(stream))
        if stream && includeStreamUsage { body.append("stream_options", ["include_usage": true]) }
        return .object(body)
    }

    /// Appends the wire message(s) for one canonical message: tool results split into one
    /// `tool` message each, in order, around the message's other content.
    static func appendWireMessages(for message: Message, to out: inout [JSONValue]) {
        var rest: [ContentBlock] = []
        for block in message.content {
            if case .toolResult(let result) = block {
                if !rest.isEmpty { out.append(wireMessage(role: message.role, rest)); rest.removeAll() }
                out.append(["role": "tool", "tool_call_id": .string(result.callId), "content": .string(result.text)])
            } else {
                rest.append(block)
            }
        }
        if !rest.isEmpty || message.content.isEmpty { out.append(wireMessage(role: message.role, rest)) }
    }

    private static func wireMessage(role: Role, _ blocks: [ContentBlock]) -> JSONValue {
        var m = JSONObject()
        switch role {
        case .system:
            m.append("role", "system")
            m.append("content", .string(blocks.compactMap(\.text).joined(separator: "\n\n")))
        case .user, .tool:
            m.append("role", "user")
            m.append("content", userContent(blocks))
        case .assistant:
            m.append("role", "assistant")
            let text = blocks.compactMap(\.text).joined()
            let calls = blocks.compactMap(\.toolCall)
            m.append("content", text.isEmpty && !calls.isEmpty ? .null : .string(text))
            if !calls.isEmpty { m.append("tool_calls", .array(calls.map(wireToolCall))) }
        }
        return .object(m)
    }

    /// A plain string for a single text block; content parts otherwise.
    private static func userContent(_ blocks: [ContentBlock]) -> JSONValue {
        if blocks.count == 1, case .text(let t) = blocks[0] { return .string(t) }
        var parts: [JSONValue] = []
        for block in blocks {
            switch block {
            case .text(let t): parts.append(["type": "text", "text": .string(t)])
            case .image(let source): parts.append(["type": "image_url", "image_url": ["url": .string(source.urlString)]])
            case .toolCall, .toolResult, .thinking: continue
            }
        }
        return .array(parts)
    }

    static func wireToolCall(_ call: ToolCall) -> JSONValue {
        ["id": .string(call.id), "type": "function",
         "function": ["name": .string(call.name), "arguments": .string(call.arguments.isEmpty ? "{}" : call.arguments)]]
    }

    static func wireTool(_ tool: ToolDefinition) -> JSONValue {
        var function = JSONObject()
        function.append("name", .string(tool.name))
        if let d = tool.description { function.append("description", .string(d)) }
        function.append("parameters", tool.parameters)
        if let strict = tool.strict { function.append("strict", .bool(strict)) }
        return ["type": "function", "function": .object(function)]
    }

    static func wireToolChoice(_ choice: ToolChoice) -> JSONValue {
        switch choice {
        case .auto: return "auto"
        case .none: return "none"
        case .required: return "required"
        case .named(let name): return ["type": "function", "function": ["name": .string(name)]]
        }
    }
}

/// The `chat.completion` body as it was built before decision 0039, as a tree: the oracle for
/// `OpenAIChatFormat.encodeInboundResponseBytes`.
enum OpenAIChatResponseTreeReference {
    static func encode(_ response: ChatResponse, id: String, model: String, created: Int) -> JSONValue {
        var message = JSONObject()
        message.append("role", "assistant")
        let text = response.text
        let calls = response.toolCalls
        if response.finishReason == .refusal {
            message.append("content", .null)
            message.append("refusal", .string(text))
        } else {
            message.append("content", text.isEmpty && !calls.isEmpty ? .null : .string(text))
            message.append("refusal", .null)
        }
        let reasoning = response.content.compactMap { block -> String? in
            if case .thinking(let t) = block, !t.text.isEmpty { return t.text } else { return nil }
        }.joined()
        if !reasoning.isEmpty { message.append("reasoning_content", .string(reasoning)) }
        if !calls.isEmpty { message.append("tool_calls", .array(calls.map(OpenAIChatTreeReference.wireToolCall))) }

        let choice: JSONValue = ["index": 0, "message": .object(message), "logprobs": nil,
                                 "finish_reason": .string(OpenAIChatFormat.wireFinishReason(response.finishReason))]
        return ["id": .string(id), "object": "chat.completion", "created": .int(created), "model": .string(model),
                "choices": [choice], "usage": OpenAIChatFormat.wireUsage(response.usage)]
    }
}
