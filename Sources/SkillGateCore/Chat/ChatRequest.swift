/// A chat request in SkillGate's wire-neutral model.
public struct ChatRequest: Sendable, Hashable {
    /// The provider's model id (after routing), or what the client asked for (before).
    public var model: String
    /// The conversation, system messages included (adapters hoist them where needed).
    public var messages: [Message]
    /// Tools the model may call.
    public var tools: [ToolDefinition]
    public var toolChoice: ToolChoice?
    /// Whether the model may make several tool calls in one turn.
    public var parallelToolCalls: Bool?
    /// Upper bound on generated tokens.
    public var maxTokens: Int?
    public var temperature: Double?
    public var topP: Double?
    /// Sampling controls beyond temperature and top_p. Each is sent only to providers whose API has it and dropped for
    /// the others, as a provider's own SDK would not send it (decision 0094): `seed` and the penalties to OpenAI-format
    /// and Gemini upstreams, `topK` to Anthropic and Gemini, `logitBias` (OpenAI token ids, meaningless to another
    /// tokenizer) to OpenAI-format upstreams only.
    public var seed: Int?
    public var frequencyPenalty: Double?
    public var presencePenalty: Double?
    public var topK: Int?
    /// OpenAI `logit_bias`: an object of token ids to biases, as the client sent it.
    public var logitBias: JSONValue?
    public var stopSequences: [String]
    /// Structured output request (OpenAI `response_format`), passed to providers that support it.
    public var responseFormat: JSONValue?
    /// Extended thinking / reasoning request.
    public var thinking: ThinkingConfig?
    /// An end-user identifier for the provider's abuse monitoring.
    public var user: String?
    /// OpenAI `prompt_cache_key`: groups requests that share a prefix so the provider's cache hits; passed
    /// through to OpenAI-format providers.
    public var promptCacheKey: String?
    /// Whether the gateway adds cache breakpoints for providers that need them (see `CacheBreakpointPlacement`).
    /// Set by the prepare stage from config or the request; explicit breakpoints the client sent always pass.
    public var cachePlacement: CacheBreakpointPlacement = .off

    public init(
        model: String, messages: [Message], tools: [ToolDefinition] = [], toolChoice: ToolChoice? = nil,
        parallelToolCalls: Bool? = nil, maxTokens: Int? = nil, temperature: Double? = nil, topP: Double? = nil,
        stopSequences: [String] = [], responseFormat: JSONValue? = nil, thinking: ThinkingConfig? = nil, user: String? = nil
    ) {
        self.model = model
        self.messages = messages
        self.tools = tools
        self.toolChoice = toolChoice
        self.parallelToolCalls = parallelToolCalls
        self.maxTokens = maxTokens
        self.temperature = temperature
        self.topP = topP
        self.stopSequences = stopSequences
        self.responseFormat = responseFormat
        self.thinking = thinking
        self.user = user
    }

    /// Whether any message or tool carries a cache breakpoint the client sent.
    public var hasCacheBreakpoints: Bool {
        tools.contains { $0.cacheControl != nil } || messages.contains { !$0.cacheBreakpoints.isEmpty }
    }

    /// The system messages' text joined by blank lines, or `nil` when there are none.
    public var systemText: String? {
        let parts = messages.filter { $0.role == .system }.map(\.text)
        return parts.isEmpty ? nil : parts.joined(separator: "\n\n")
    }
}

/// A request for model reasoning.
public struct ThinkingConfig: Sendable, Hashable {
    /// Token budget for reasoning (Anthropic `budget_tokens`, Gemini `thinkingBudget`).
    public var budgetTokens: Int?
    /// Whether reasoning is enabled at all.
    public var enabled: Bool

    public init(enabled: Bool = true, budgetTokens: Int? = nil) {
        self.enabled = enabled
        self.budgetTokens = budgetTokens
    }
}
