/// Input tokens guessed from a request for a client that manages its context window (`POST /v1/messages/count_tokens`,
/// decision 0132), where a count too low is the costly mistake: the client then sends a conversation past the model's
/// window. So it errs high, unlike `UsageEstimate` (what a request is charged when its provider reported nothing, which
/// errs low): three bytes of UTF-8 a token (English text is nearer four, code about three, CJK one a character), a few
/// tokens of framing per message and per tool, each tool's whole schema, and an image at the most a provider counts for
/// one.
public enum ContextTokenEstimate {
    /// Tokens an image counts for: about the most Anthropic counts for one (a 1.15-megapixel image, ≈ 1,600).
    public static let imageTokens = 1_600
    /// Tokens of framing a message counts for beside its content (its role and separators).
    public static let messageFraming = 4
    /// Tokens of framing a tool declaration counts for beside its name, description and schema.
    public static let toolFraming = 8

    /// Tokens for `bytes` of text, at three bytes a token, rounded up.
    @inline(__always)
    public static func tokens(bytes: Int) -> Int { bytes <= 0 ? 0 : (bytes + 2) / 3 }

    /// The estimate for `request`'s input: its messages (system included), tool calls and results, thinking, and tool
    /// declarations.
    public static func inputTokens(of request: ChatRequest) -> Int {
        var tokens = 0
        for message in request.messages {
            tokens += messageFraming
            for block in message.content { tokens += self.tokens(of: block) }
        }
        for tool in request.tools {
            var schema: [UInt8] = []
            tool.schema.write(to: &schema)
            tokens += toolFraming + self.tokens(bytes: tool.name.utf8.count + (tool.description?.utf8.count ?? 0) + schema.count)
        }
        return tokens
    }

    private static func tokens(of block: ContentBlock) -> Int {
        switch block {
        case .text(let t): return tokens(bytes: t.utf8.count)
        case .image: return imageTokens
        case .toolCall(let c): return messageFraming + tokens(bytes: c.id.utf8.count + c.name.utf8.count + c.arguments.utf8.count)
        case .toolResult(let r): return messageFraming + tokens(bytes: r.callId.utf8.count) + r.content.reduce(0) { $0 + tokens(of: $1) }
        case .thinking(let t): return tokens(bytes: t.text.utf8.count)
        }
    }
}
