/// Input tokens guessed from a request for a client that manages its context window (`POST /v1/messages/count_tokens`,
/// decision 0132), where a count too low is the costly mistake: the client then sends a conversation past the model's
/// window. So it errs high, unlike `UsageEstimate` (what a request is charged when its provider reported nothing, which
/// errs low): three bytes of UTF-8 a token (English text is nearer four, code about three), ASCII punctuation two thirds
/// of a token a byte (JSON and markup are nearer 2.5 bytes a token), a character of a three- or four-byte script (CJK,
/// kana, Hangul, emoji) one and a half or two tokens, a few tokens of framing per message and per tool, each tool's whole
/// schema, the system prompt a provider adds for tool use, and an image at the most a provider counts for one
/// (decisions 0132, 0133).
public enum ContextTokenEstimate {
    /// Tokens an image counts for: about the most Anthropic counts for one (a 1.15-megapixel image, ≈ 1,600).
    public static let imageTokens = 1_600
    /// Tokens of framing a message counts for beside its content (its role and separators).
    public static let messageFraming = 4
    /// Tokens of framing a tool declaration counts for beside its name, description and schema.
    public static let toolFraming = 8
    /// Tokens of the system prompt Anthropic adds to a request with tools, once a request: the most its tool-use pricing
    /// lists for a model (530, Claude 3 Opus with `tool_choice` auto; the Claude 4 models count 313 to 346).
    public static let toolUseSystemPrompt = 530

    /// Tokens for `bytes` of text, at three bytes a token, rounded up.
    @inline(__always)
    public static func tokens(bytes: Int) -> Int { bytes <= 0 ? 0 : (bytes + 2) / 3 }

    /// Tokens for the UTF-8 text `utf8`, rounded up, counted in sixths of a token: an ASCII letter, digit or space, or a
    /// byte of a one- or two-byte character (Latin, Cyrillic, Greek, Arabic, Hebrew), a third (three bytes a token); an
    /// ASCII punctuation byte two thirds (JSON, markup and code are dense with it, and tokenizers split it finely); a
    /// byte of a three- or four-byte character (CJK, kana, Hangul, Indic scripts, emoji) a half, so one and a half tokens
    /// a CJK character and two an emoji (Anthropic's tokenizer spends one to two on a Chinese character).
    public static func tokens<Bytes: Sequence>(utf8: Bytes) -> Int where Bytes.Element == UInt8 {
        var sixths = 0
        var wide = false
        for b in utf8 {
            if b < 0x80 {
                let punctuation = (0x21...0x2F).contains(b) || (0x3A...0x40).contains(b) || (0x5B...0x60).contains(b) || (0x7B...0x7E).contains(b)
                sixths += punctuation ? 4 : 2
                continue
            }
            if b >= 0xC0 { wide = b >= 0xE0 }  // a lead byte: how long its character is
            sixths += wide ? 3 : 2
        }
        return (sixths + 5) / 6
    }

    /// Tokens for `text` (`tokens(utf8:)`).
    @inline(__always)
    public static func tokens(text: String) -> Int { tokens(utf8: text.utf8) }

    /// The estimate for `request`'s input: its messages (system included), tool calls and results, thinking, and tool
    /// declarations.
    public static func inputTokens(of request: ChatRequest) -> Int {
        var tokens = 0
        for message in request.messages {
            tokens += messageFraming
            for block in message.content { tokens += self.tokens(of: block) }
        }
        if !request.tools.isEmpty { tokens += toolUseSystemPrompt }
        for tool in request.tools {
            var schema: [UInt8] = []
            tool.schema.write(to: &schema)
            tokens += toolFraming + self.tokens(text: tool.name) + self.tokens(text: tool.description ?? "") + self.tokens(utf8: schema)
        }
        return tokens
    }

    private static func tokens(of block: ContentBlock) -> Int {
        switch block {
        case .text(let t): return tokens(text: t)
        case .image: return imageTokens
        case .toolCall(let c): return messageFraming + tokens(text: c.id) + tokens(text: c.name) + tokens(text: c.arguments)
        case .toolResult(let r): return messageFraming + tokens(text: r.callId) + r.content.reduce(0) { $0 + tokens(of: $1) }
        case .thinking(let t): return tokens(text: t.text)
        }
    }
}
