/// A `POST /v1/chat/completions` body in the OpenAI shape.
public struct ChatCompletionRequest: Codable, Sendable, Hashable {
    /// `auto` (routed by the task), a tier (`light`, `strong`), an alias or `provider/model`.
    public var model: String
    public var messages: [ChatMessage]
    /// Tools the model may call; it answers with `toolCalls` instead of text when it calls one.
    public var tools: [ChatTool]?
    public var temperature: Double?
    /// The longest answer in tokens.
    public var maxTokens: Int?
    /// Set by `SkillGateClient`: `chat(_:)` sends false, `chatStream(_:)` true.
    public var stream: Bool?
    /// For streams: `{"include_usage": true}` asks for a last chunk with the usage.
    public var streamOptions: StreamOptions?

    public init(model: String = "auto", messages: [ChatMessage], tools: [ChatTool]? = nil, temperature: Double? = nil,
                maxTokens: Int? = nil, stream: Bool? = nil, streamOptions: StreamOptions? = nil) {
        self.model = model
        self.messages = messages
        self.tools = tools
        self.temperature = temperature
        self.maxTokens = maxTokens
        self.stream = stream
        self.streamOptions = streamOptions
    }

    /// Options of a streamed answer.
    public struct StreamOptions: Codable, Sendable, Hashable {
        /// Whether a last chunk (with no choices) carries the usage.
        public var includeUsage: Bool

        public init(includeUsage: Bool) {
            self.includeUsage = includeUsage
        }

        enum CodingKeys: String, CodingKey {
            case includeUsage = "include_usage"
        }
    }

    enum CodingKeys: String, CodingKey {
        case model, messages, tools, temperature
        case maxTokens = "max_tokens"
        case stream
        case streamOptions = "stream_options"
    }
}
