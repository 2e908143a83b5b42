import SkillGateCore

/// ChatRequest → Chat Completions request body.
///
/// Decisions (see the report / decision record):
/// - Thinking blocks and `ThinkingConfig` are dropped: the format has no field for them, and the
///   reasoning text is never smuggled into another field.
/// - Tool results become one `role:"tool"` message each, content = their text blocks joined by
///   newlines; images inside tool results and the `isError` flag have no field and are dropped.
/// - `tool_choice` and `parallel_tool_calls` are only sent together with `tools` (OpenAI rejects them alone).
extension OpenAIChatFormat {
    /// The request body for `request`, addressed to `model`, as a tree: `requestBytes` parsed, so the two
    /// can never disagree (the gateway sends `requestBytes`; the tree is for callers that inspect a body).
    public func requestBody(_ request: ChatRequest, model: String, stream: Bool, useMaxCompletionTokens: Bool = false) -> JSONValue {
        let bytes = requestBytes(request, model: model, stream: stream, useMaxCompletionTokens: useMaxCompletionTokens)
        return (try? JSONValue.parse(bytes)) ?? .null
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
