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
    /// The provider's content filter stopped the answer (OpenAI `content_filter`, Gemini `SAFETY` and its kin,
    /// Anthropic's `refusal`: its streaming classifiers, which cut the answer without a refusal message; decision 0114).
    /// Any text before is ordinary answer text.
    case contentFilter
    /// The model refused, and its text says so (OpenAI's `refusal` field; streamed as `refusalDelta`).
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
/// tokens-per-minute window or the ledger. Nor is it above `maximumCount`: a count of 4e18 priced, added to a limit's
/// window or summed over the ledger overflowed (decision 0096).
public struct Usage: Sendable, Hashable {
    /// The most any count holds, 2^32 (4.3 billion tokens): a thousand times the largest context window of any model,
    /// and small enough that priced at $1,000 a million tokens it is a whole number of microdollars in 53 bits, and that
    /// 2 billion calls at it sum within 64 bits.
    public static let maximumCount = 1 << 32

    public var inputTokens: Int { didSet { inputTokens = Self.kept(inputTokens) } }
    public var outputTokens: Int { didSet { outputTokens = Self.kept(outputTokens) } }
    /// Input tokens read from the provider's prompt cache (included in `inputTokens`).
    public var cachedInputTokens: Int { didSet { cachedInputTokens = Self.kept(cachedInputTokens) } }
    /// Input tokens written to the provider's prompt cache.
    public var cacheWriteTokens: Int { didSet { cacheWriteTokens = Self.kept(cacheWriteTokens) } }
    /// Output tokens spent on reasoning (included in `outputTokens`).
    public var reasoningTokens: Int { didSet { reasoningTokens = Self.kept(reasoningTokens) } }

    /// Negative counts are kept as 0, counts over `maximumCount` as it.
    public init(inputTokens: Int = 0, outputTokens: Int = 0, cachedInputTokens: Int = 0, cacheWriteTokens: Int = 0, reasoningTokens: Int = 0) {
        self.inputTokens = Self.kept(inputTokens)
        self.outputTokens = Self.kept(outputTokens)
        self.cachedInputTokens = Self.kept(cachedInputTokens)
        self.cacheWriteTokens = Self.kept(cacheWriteTokens)
        self.reasoningTokens = Self.kept(reasoningTokens)
    }

    /// `count` held between 0 and `maximumCount`.
    @inline(__always)
    static func kept(_ count: Int) -> Int { min(max(count, 0), maximumCount) }

    public var totalTokens: Int { inputTokens.clampedAdding(outputTokens) }

    /// The sum of two usages (for agent runs over several calls).
    public static func + (a: Usage, b: Usage) -> Usage {
        Usage(inputTokens: a.inputTokens.clampedAdding(b.inputTokens), outputTokens: a.outputTokens.clampedAdding(b.outputTokens),
              cachedInputTokens: a.cachedInputTokens.clampedAdding(b.cachedInputTokens),
              cacheWriteTokens: a.cacheWriteTokens.clampedAdding(b.cacheWriteTokens),
              reasoningTokens: a.reasoningTokens.clampedAdding(b.reasoningTokens))
    }
}
