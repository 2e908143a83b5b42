/// One event of a streamed answer, independent of any provider's wire format.
///
/// Tool calls are keyed by their ordinal among the tool calls of the answer (0, 1, 2, ...),
/// never by a provider's content-block index. For each tool call the order is
/// `toolCallStart`, any number of `toolCallArgumentsDelta`, then `toolCallEnd`.
public enum ChatStreamEvent: Sendable, Hashable {
    /// The answer started; `id` and `model` as the provider reported them (may be empty).
    case start(id: String, model: String)
    /// A piece of answer text.
    case textDelta(String)
    /// A piece of the model's refusal: answer text in which the model declines, saying why (OpenAI's `refusal`).
    /// An answer with refusal text finishes with `.refusal`; accumulated, it is text like `textDelta`, as a whole
    /// answer holds it (decision 0114).
    case refusalDelta(String)
    /// A piece of reasoning text.
    case thinkingDelta(String)
    /// The signature that closes the current reasoning block.
    case thinkingSignature(String)
    /// A complete redacted (encrypted) reasoning block.
    case redactedThinking(String)
    /// A tool call began.
    case toolCallStart(ordinal: Int, id: String, name: String)
    /// A piece of the tool call's JSON arguments.
    case toolCallArgumentsDelta(ordinal: Int, fragment: String)
    /// An opaque provider signature attached to the tool call (Gemini thought signatures).
    case toolCallSignature(ordinal: Int, signature: String)
    /// The tool call's arguments are complete.
    case toolCallEnd(ordinal: Int)
    /// Why the model stopped. Sent once, after all content.
    case finish(FinishReason)
    /// Token usage; may arrive more than once (each carries the totals known so far).
    case usage(Usage)
}
