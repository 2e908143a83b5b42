/// Token counts guessed from text, for an answer whose provider reported none: a stream the client left, or that the
/// upstream cut, before its usage came (providers send it last), or a provider that never reports it. Limits and budgets
/// are charged what was estimated rather than nothing (decision 0104). About four bytes of UTF-8 a token (English; CJK
/// comes to about 0.75 tokens a character), a fixed share for an image, a tool declaration's name and description plus
/// its schema's usual size.
public enum UsageEstimate {
    /// The bytes an image counts for (≈ 85 tokens, a low-detail image's price at OpenAI).
    public static let imageBytes = 340
    /// The bytes a tool declaration counts for beside its name and description (its schema, on average).
    public static let toolDeclarationBytes = 120

    /// Tokens for `bytes` of text.
    @inline(__always)
    public static func tokens(bytes: Int) -> Int { bytes <= 0 ? 0 : bytes / 4 + (bytes % 4 == 0 ? 0 : 1) }

    /// The bytes of `request`'s input as a provider counts it: every message's text, images, tool calls and results,
    /// and the tool declarations. O(1) a block (native strings store their UTF-8 count).
    public static func inputBytes(of request: ChatRequest) -> Int {
        var bytes = 0
        for message in request.messages { bytes += inputBytes(of: message) }
        for tool in request.tools {
            bytes += tool.name.utf8.count + (tool.description?.utf8.count ?? 0) + toolDeclarationBytes
        }
        return bytes
    }

    /// The bytes of one message's content.
    public static func inputBytes(of message: Message) -> Int {
        var bytes = 0
        for block in message.content {
            switch block {
            case .text(let t): bytes += t.utf8.count
            case .image: bytes += imageBytes
            case .toolCall(let c): bytes += c.name.utf8.count + c.arguments.utf8.count + 16
            case .toolResult(let r):
                for part in r.content {
                    if case .text(let t) = part { bytes += t.utf8.count } else { bytes += imageBytes }
                }
            case .thinking(let t): bytes += t.text.utf8.count
            }
        }
        return bytes
    }
}
