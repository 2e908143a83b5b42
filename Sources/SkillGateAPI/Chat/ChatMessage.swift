/// One message of a conversation in the OpenAI chat shape: `{"role","content","refusal"?,"tool_calls"?,"tool_call_id"?,"name"?}`.
public struct ChatMessage: Codable, Sendable, Hashable {
    /// Who wrote the message.
    public var role: Role
    /// The text; nil for an assistant message that only calls tools.
    public var content: String?
    /// For an assistant answer: the model's refusal, saying why it declines (content is then nil; decision 0114).
    public var refusal: String?
    /// The tools an assistant message calls.
    public var toolCalls: [ChatToolCall]?
    /// For a `tool` message: the id of the call it answers.
    public var toolCallId: String?
    /// An optional name of the author.
    public var name: String?

    public init(role: Role, content: String?, toolCalls: [ChatToolCall]? = nil, toolCallId: String? = nil, name: String? = nil,
                refusal: String? = nil) {
        self.role = role
        self.content = content
        self.refusal = refusal
        self.toolCalls = toolCalls
        self.toolCallId = toolCallId
        self.name = name
    }

    /// A system message (instructions for the model).
    public static func system(_ text: String) -> ChatMessage { ChatMessage(role: .system, content: text) }
    /// A user message.
    public static func user(_ text: String) -> ChatMessage { ChatMessage(role: .user, content: text) }
    /// An assistant message: text, tool calls, or both.
    public static func assistant(_ text: String?, toolCalls: [ChatToolCall]? = nil) -> ChatMessage {
        ChatMessage(role: .assistant, content: text, toolCalls: toolCalls)
    }
    /// The result of the tool call `callId`, for the model to read.
    public static func tool(callId: String, content: String) -> ChatMessage {
        ChatMessage(role: .tool, content: content, toolCallId: callId)
    }

    /// A message author: `system`, `user`, `assistant`, `tool` (others pass through as written).
    public struct Role: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }

        public static let system = Role(rawValue: "system")
        public static let user = Role(rawValue: "user")
        public static let assistant = Role(rawValue: "assistant")
        public static let tool = Role(rawValue: "tool")
    }

    enum CodingKeys: String, CodingKey {
        case role, content, refusal
        case toolCalls = "tool_calls"
        case toolCallId = "tool_call_id"
        case name
    }
}
