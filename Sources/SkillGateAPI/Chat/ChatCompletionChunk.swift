/// One piece of a streamed chat answer in the OpenAI shape (`object: "chat.completion.chunk"`).
public struct ChatCompletionChunk: Codable, Sendable, Hashable {
    public var id: String
    public var object: String
    public var created: Int
    public var model: String
    /// One choice per chunk; empty in the last chunk of a stream that asked for usage.
    public var choices: [Choice]
    public var usage: ChatCompletion.Usage?

    public init(id: String, object: String = "chat.completion.chunk", created: Int, model: String, choices: [Choice],
                usage: ChatCompletion.Usage? = nil) {
        self.id = id
        self.object = object
        self.created = created
        self.model = model
        self.choices = choices
        self.usage = usage
    }

    /// The text this chunk adds, if any.
    public var text: String? { choices.first?.delta.content }

    public struct Choice: Codable, Sendable, Hashable {
        public var index: Int
        public var delta: Delta
        /// Set in the choice's last chunk.
        public var finishReason: String?

        public init(index: Int, delta: Delta, finishReason: String? = nil) {
            self.index = index
            self.delta = delta
            self.finishReason = finishReason
        }

        enum CodingKeys: String, CodingKey {
            case index, delta
            case finishReason = "finish_reason"
        }
    }

    /// What a chunk adds to the message.
    public struct Delta: Codable, Sendable, Hashable {
        /// `assistant`, in the first chunk.
        public var role: ChatMessage.Role?
        public var content: String?
        /// A piece of the model's refusal, saying why it declines (decision 0114).
        public var refusal: String?
        /// Pieces of tool calls; a call's first piece has its `id` and name, later ones more arguments.
        public var toolCalls: [ToolCallDelta]?

        public init(role: ChatMessage.Role? = nil, content: String? = nil, toolCalls: [ToolCallDelta]? = nil, refusal: String? = nil) {
            self.role = role
            self.content = content
            self.refusal = refusal
            self.toolCalls = toolCalls
        }

        enum CodingKeys: String, CodingKey {
            case role, content, refusal
            case toolCalls = "tool_calls"
        }
    }

    /// A piece of a tool call; pieces with the same `index` belong to one call.
    public struct ToolCallDelta: Codable, Sendable, Hashable {
        public var index: Int
        public var id: String?
        public var type: String?
        public var function: Function?

        public init(index: Int, id: String? = nil, type: String? = nil, function: Function? = nil) {
            self.index = index
            self.id = id
            self.type = type
            self.function = function
        }

        public struct Function: Codable, Sendable, Hashable {
            public var name: String?
            /// The next fragment of the arguments' JSON text.
            public var arguments: String?

            public init(name: String? = nil, arguments: String? = nil) {
                self.name = name
                self.arguments = arguments
            }
        }
    }
}
