/// A whole chat answer in the OpenAI shape (`object: "chat.completion"`).
public struct ChatCompletion: Codable, Sendable, Hashable {
    public var id: String
    public var object: String
    /// Unix seconds.
    public var created: Int
    /// The `provider/model` that answered.
    public var model: String
    public var choices: [Choice]
    public var usage: Usage?

    public init(id: String, object: String = "chat.completion", created: Int, model: String, choices: [Choice], usage: Usage? = nil) {
        self.id = id
        self.object = object
        self.created = created
        self.model = model
        self.choices = choices
        self.usage = usage
    }

    /// The first choice's text, if any.
    public var text: String? { choices.first?.message.content }

    /// One answer (SkillGate always sends one).
    public struct Choice: Codable, Sendable, Hashable {
        public var index: Int
        public var message: ChatMessage
        /// `stop`, `length`, `tool_calls`, `content_filter`.
        public var finishReason: String?

        public init(index: Int, message: ChatMessage, finishReason: String?) {
            self.index = index
            self.message = message
            self.finishReason = finishReason
        }

        enum CodingKeys: String, CodingKey {
            case index, message
            case finishReason = "finish_reason"
        }
    }

    /// Token counts: `{"prompt_tokens","completion_tokens","total_tokens"}`.
    public struct Usage: Codable, Sendable, Hashable {
        public var promptTokens: Int
        public var completionTokens: Int
        public var totalTokens: Int

        public init(promptTokens: Int, completionTokens: Int, totalTokens: Int) {
            self.promptTokens = promptTokens
            self.completionTokens = completionTokens
            self.totalTokens = totalTokens
        }

        enum CodingKeys: String, CodingKey {
            case promptTokens = "prompt_tokens"
            case completionTokens = "completion_tokens"
            case totalTokens = "total_tokens"
        }
    }
}
