/// Who wrote a message.
public enum Role: String, Sendable, Hashable, CaseIterable {
    /// Instructions for the model. Adapters hoist these where the wire format wants them apart.
    case system
    case user
    case assistant
    /// Tool results (content blocks are `.toolResult`).
    case tool
}

/// One turn of a conversation.
public struct Message: Sendable, Hashable {
    public var role: Role
    public var content: [ContentBlock]
    /// Prompt-cache breakpoints by content block index: the provider may cache the prompt up to and
    /// including that block (Anthropic `cache_control`). Empty for most messages.
    public var cacheBreakpoints: [Int: CacheControl] = [:]

    public init(role: Role, content: [ContentBlock]) {
        self.role = role
        self.content = content
    }

    /// A message with a single text block.
    public init(role: Role, text: String) {
        self.init(role: role, content: [.text(text)])
    }

    /// The text blocks joined with no separator.
    public var text: String { content.compactMap(\.text).joined() }

    /// The tool calls in this message, in order.
    public var toolCalls: [ToolCall] { content.compactMap(\.toolCall) }

    /// The tool results in this message, in order.
    public var toolResults: [ToolResult] { content.compactMap(\.toolResult) }
}
