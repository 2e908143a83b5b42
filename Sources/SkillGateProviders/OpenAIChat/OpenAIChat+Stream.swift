import SkillGateCore
import SkillGateHTTP

/// Chat Completions SSE body → canonical stream events. A value-type state machine fed raw body
/// bytes in any split.
///
/// - Tool calls are keyed by the wire `index`; the first delta of an index carries `id` and
///   `name`, later ones only argument fragments. Each index gets the next ordinal.
/// - Only choice 0 is followed (chunks for other choices are ignored).
/// - `toolCallEnd` for every open call and `finish` are emitted when `finish_reason` arrives;
///   `usage` once, at `[DONE]` (or at the end of the body), with the last usage seen.
/// - An `{"error":...}` data event, a chunk that is not a JSON object, or a body that ends with
///   neither a `finish_reason` nor `[DONE]` throws a `GatewayError` naming the provider.
public struct OpenAIChatStreamTranslator: WireStreamTranslator {
    /// The provider id, for error messages.
    public let provider: String

    private var sse = SSEDecoder()
    private var interpreter: OpenAIChatChunkInterpreter

    public init(provider: String) {
        self.provider = provider
        self.interpreter = OpenAIChatChunkInterpreter(provider: provider)
    }

    public mutating func feed(_ bytes: [UInt8]) throws -> [ChatStreamEvent] {
        guard !interpreter.done else { return [] }
        var events: [ChatStreamEvent] = []
        try sse.feed(bytes, to: &interpreter, into: &events)
        return events
    }

    public mutating func finish() throws -> [ChatStreamEvent] {
        guard !interpreter.done else { return [] }
        var events: [ChatStreamEvent] = []
        try sse.finish(to: &interpreter, into: &events)
        try interpreter.finish(strayText: sse.strayText, into: &events)
        return events
    }
}
