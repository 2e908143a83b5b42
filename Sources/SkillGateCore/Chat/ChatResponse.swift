/// A complete (non-streamed) model answer.
public struct ChatResponse: Sendable, Hashable {
    /// The provider's response id (or one SkillGate made up when it had none).
    public var id: String
    /// The model that answered, as the provider reported it.
    public var model: String
    /// The assistant message's content: text, thinking and tool calls in order.
    public var content: [ContentBlock]
    public var finishReason: FinishReason
    public var usage: Usage

    public init(id: String, model: String, content: [ContentBlock], finishReason: FinishReason, usage: Usage = Usage()) {
        self.id = id
        self.model = model
        self.content = content
        self.finishReason = finishReason
        self.usage = usage
    }

    /// The text blocks joined.
    public var text: String { content.compactMap(\.text).joined() }
    /// The tool calls in order.
    public var toolCalls: [ToolCall] { content.compactMap(\.toolCall) }
    /// The answer as an assistant message, ready to append to the conversation.
    public var message: Message { Message(role: .assistant, content: content) }
}

/// Why the model stopped.
public enum FinishReason: Sendable, Hashable, CustomStringConvertible {
    /// A natural end or a stop sequence.
    case stop
    /// The token limit was reached.
    case length
    /// The model called tools and waits for their results.
    case toolCalls
    /// The provider's content filter stopped the answer.
    case contentFilter
    /// The model refused (Anthropic `refusal`, OpenAI refusals).
    case refusal
    /// A long-running turn was paused; send the conversation back to continue (Anthropic `pause_turn`).
    case pauseTurn
    /// A reason SkillGate does not know, kept verbatim rather than guessed.
    case other(String)

    public var description: String {
        switch self {
        case .stop: return "stop"
        case .length: return "length"
        case .toolCalls: return "tool_calls"
        case .contentFilter: return "content_filter"
        case .refusal: return "refusal"
        case .pauseTurn: return "pause_turn"
        case .other(let raw): return raw
        }
    }
}

/// Token counts of one model call (or a sum over several). A count is never negative: a negative count read from a
/// provider's answer (a broken or hostile upstream) is kept as 0, so it can never lower a budget's spend, a
/// tokens-per-minute window or the ledger.
public struct Usage: Sendable, Hashable {
    public var inputTokens: Int { didSet { inputTokens = max(inputTokens, 0) } }
    public var outputTokens: Int { didSet { outputTokens = max(outputTokens, 0) } }
    /// Input tokens read from the provider's prompt cache (included in `inputTokens`).
    public var cachedInputTokens: Int { didSet { cachedInputTokens = max(cachedInputTokens, 0) } }
    /// Input tokens written to the provider's prompt cache.
    public var cacheWriteTokens: Int { didSet { cacheWriteTokens = max(cacheWriteTokens, 0) } }
    /// Output tokens spent on reasoning (included in `outputTokens`).
    public var reasoningTokens: Int { didSet { reasoningTokens = max(reasoningTokens, 0) } }

    /// Negative counts are kept as 0.
    public init(inputTokens: Int = 0, outputTokens: Int = 0, cachedInputTokens: Int = 0, cacheWriteTokens: Int = 0, reasoningTokens: Int = 0) {
        self.inputTokens = max(inputTokens, 0)
        self.outputTokens = max(outputTokens, 0)
        self.cachedInputTokens = max(cachedInputTokens, 0)
        self.cacheWriteTokens = max(cacheWriteTokens, 0)
        self.reasoningTokens = max(reasoningTokens, 0)
    }

    public var totalTokens: Int { inputTokens.clampedAdding(outputTokens) }

    /// The sum of two usages (for agent runs over several calls).
    public static func + (a: Usage, b: Usage) -> Usage {
        Usage(inputTokens: a.inputTokens.clampedAdding(b.inputTokens), outputTokens: a.outputTokens.clampedAdding(b.outputTokens),
              cachedInputTokens: a.cachedInputTokens.clampedAdding(b.cachedInputTokens),
              cacheWriteTokens: a.cacheWriteTokens.clampedAdding(b.cacheWriteTokens),
              reasoningTokens: a.reasoningTokens.clampedAdding(b.reasoningTokens))
    }
}
