import SkillGateCore
import SkillGateHTTP

/// Turns an Anthropic Messages SSE body into `ChatStreamEvent`s; a value-type state machine fed
/// raw bytes in any split.
///
/// - Tool calls are numbered by their ordinal among tool calls, not by content-block index.
/// - Empty `input_json_delta` fragments are dropped; a tool call that got no non-empty fragment
///   gets the arguments `"{}"` at its `content_block_stop`, as the non-streamed answer would.
/// - `ping` and unknown event types are ignored.
/// - Usage from `message_start` (input) and `message_delta` (output, sometimes input) is combined
///   and emitted once, at `message_delta`, after the finish reason.
/// - `start` is held back from `message_start` until the first content block the client sees, or `message_delta` /
///   `message_stop` for an answer without one (decision 0134): a stream that fails before then gives no event.
/// - `event: error` after HTTP 200 throws a `GatewayError` (overloaded_error → `.upstreamOverloaded`); before the first
///   content block, that is before the stream's first event, so the route executor tries again or falls back.
/// - A body that ends without `message_stop` throws a truncation error naming the provider (`streamEndedEarly` when
///   nothing but events came: before the first content block, the route executor treats it as a cut, decision 0129).
public struct AnthropicMessagesStreamTranslator: WireStreamTranslator {
    /// The provider id named in errors.
    public let provider: String
    private var sse = SSEDecoder()
    private var interpreter: AnthropicStreamInterpreter

    public init(provider: String) {
        self.provider = provider
        self.interpreter = AnthropicStreamInterpreter(provider: provider)
    }

    public mutating func feed(_ bytes: [UInt8]) throws -> [ChatStreamEvent] {
        var out: [ChatStreamEvent] = []
        try sse.feed(bytes, to: &interpreter, into: &out)
        return out
    }

    public mutating func finish() throws -> [ChatStreamEvent] {
        var out: [ChatStreamEvent] = []
        try sse.finish(to: &interpreter, into: &out)
        if !interpreter.sawMessageStop {
            if let stray = try? JSONValue.parse(sse.strayText), stray["error"]?.objectValue != nil {
                throw AnthropicMessagesFormat.errorFromEvent(stray, provider: provider)
            }
            var where_ = interpreter.sawMessageStart ? "before `message_stop`" : "before `message_start` (no answer at all)"
            if !sse.strayText.isEmpty {
                where_ += ", and sent \(AnthropicBodyPreview.describe(Array(sse.strayText.utf8))) instead of events"
            }
            var e = GatewayError(domain: .provider, kind: .upstreamProtocol, status: 502,
                                 message: "\(provider): the Anthropic stream ended \(where_); the answer is truncated. Retry the request; if it keeps happening, check the base URL and the network path to the provider.",
                                 provider: provider, upstreamStatus: 200)
            // Events only, cut short (not a body that was no event stream): before the first content block, which is before
            // the stream's first event (decision 0134), it is a cut (decision 0129).
            e.streamEndedEarly = sse.strayText.isEmpty
            throw e
        }
        return out
    }
}
