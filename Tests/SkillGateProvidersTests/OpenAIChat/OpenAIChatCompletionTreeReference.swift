import SkillGateCore
@testable import SkillGateProviders

/// `parseCompletion` as it was before it read bodies with a cursor (decision 0039's follow-up): kept
/// unchanged as the oracle `OpenAIChatCompletionBodyTests` compares the cursor reader with.
enum OpenAIChatCompletionTreeReference {
    static func parseCompletion(_ body: [UInt8], provider: String) throws -> ChatResponse {
        let json: JSONValue
        do { json = try JSONValue.parse(body) } catch {
            throw OpenAIChatErrorMapper(provider: provider, apiKey: nil).unreadableSuccessBody(body, syntax: error)
        }
        if let error = json["error"], !error.isNull {
            throw OpenAIChatErrorMapper(provider: provider, apiKey: nil).inStreamError(json, midStream: false)
        }
        guard let choices = json["choices"]?.arrayValue else {
            throw GatewayError.upstreamProtocol(
                "the answer has no \"choices\" array, so it is not a chat completion; check that the provider's base URL points at an OpenAI-compatible /v1 endpoint",
                provider: provider, upstreamStatus: 200)
        }
        guard let choice = choices.first(where: { ($0["index"]?.intValue ?? 0) == 0 }) ?? choices.first,
              let message = choice["message"], message.objectValue != nil else {
            throw GatewayError.upstreamProtocol(
                "the answer has no choices[0].message; the provider returned no answer — retry, or try another model",
                provider: provider, upstreamStatus: 200)
        }
        var content: [ContentBlock] = []
        if let reasoning = (message["reasoning_content"] ?? message["reasoning"])?.stringValue, !reasoning.isEmpty {
            content.append(.thinking(Thinking(text: reasoning)))
        }
        let text = OpenAIChatFormat.contentText(message["content"])
        if !text.isEmpty { content.append(.text(text)) }
        var refused = false
        if let refusal = message["refusal"]?.stringValue, !refusal.isEmpty {
            refused = true
            content.append(.text(refusal))
        }
        for (i, call) in (message["tool_calls"]?.arrayValue ?? []).enumerated() {
            let function = call["function"]
            content.append(.toolCall(ToolCall(
                id: call["id"]?.stringValue ?? "call_\(i)",
                name: function?["name"]?.stringValue ?? "",
                arguments: Self.arguments(function?["arguments"]))))
        }
        if let legacy = message["function_call"], legacy.objectValue != nil {
            content.append(.toolCall(ToolCall(id: "call_0", name: legacy["name"]?.stringValue ?? "",
                                              arguments: Self.arguments(legacy["arguments"]))))
        }
        let hasCalls = content.contains { $0.toolCall != nil }
        return ChatResponse(
            id: json["id"]?.stringValue ?? "", model: json["model"]?.stringValue ?? "", content: content,
            finishReason: OpenAIChatFormat.finishReason(wire: choice["finish_reason"]?.stringValue, hasToolCalls: hasCalls, refused: refused),
            usage: json["usage"].map(OpenAIChatFormat.usage(wire:)) ?? Usage())
    }

    /// A call's arguments as text; none or `""` are `"{}"` (decision 0112).
    static func arguments(_ value: JSONValue?) -> String {
        let text = OpenAIChatFormat.argumentsText(value)
        return text.isEmpty ? "{}" : text
    }
}
