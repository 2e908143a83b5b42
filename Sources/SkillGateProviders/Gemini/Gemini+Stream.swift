import SkillGateCore
import SkillGateHTTP

/// The stream translator of the `gemini` format: `streamGenerateContent?alt=sse` body bytes → events.
///
/// A value type: SSE decoding (CRLF separators included) and the chunk interpreter's state are
/// plain values, so one byte at a time gives the same events as the whole body. Each `data:`
/// event is one `GenerateContentResponse`. `finish` and the final usage are sent at the first
/// chunk with usage counts at or after the `finishReason` (the `finishReason` chunk itself, as
/// Google sends it), else when the body ends, so an upstream that keeps its body open after its
/// answer does not hold the answer's end (decision 0160). Errors: an `{"error":…}` chunk, or a
/// bare JSON error body after the events (Vertex sends
/// one when it aborts mid-stream; the SSE decoder keeps it as stray text), throws the mapped
/// `GatewayError`; a body that ends without a `finishReason` throws a truncation error naming the provider; a
/// failed-answer finish reason (`MALFORMED_FUNCTION_CALL`, decision 0117) throws at its chunk, with that chunk's events.
public struct GeminiStreamTranslator: WireStreamTranslator {
    private var decoder = SSEDecoder()
    private var interpreter: GeminiChunkInterpreter
    private let provider: String

    /// A translator for one streamed response from `provider`; `apiKey` is only used to scrub it
    /// from any upstream text copied into an error.
    public init(provider: String, apiKey: String? = nil) {
        self.provider = provider
        self.interpreter = GeminiChunkInterpreter(provider: provider, apiKey: apiKey, handsOnTheEnd: true)
    }

    public mutating func feed(_ bytes: [UInt8]) throws -> [ChatStreamEvent] {
        var events: [ChatStreamEvent] = []
        // Each event's data is parsed straight from the decoder's buffer: no String is made of it.
        try bytes.withUnsafeBytes { raw in
            try Self.translate(raw, decoder: &decoder, interpreter: &interpreter, provider: provider, into: &events)
        }
        return events
    }

    public mutating func finish() throws -> [ChatStreamEvent] {
        var events: [ChatStreamEvent] = []
        try Self.translateLast(decoder: &decoder, interpreter: &interpreter, provider: provider, into: &events)
        try throwStrayError()
        events += try interpreter.finish(requireFinish: true)
        return events
    }

    private static func translate(_ raw: UnsafeRawBufferPointer, decoder: inout SSEDecoder,
                                  interpreter: inout GeminiChunkInterpreter, provider: String,
                                  into events: inout [ChatStreamEvent]) throws {
        try decoder.feed(raw) { event in
            try apply(event, atEnd: false, interpreter: &interpreter, provider: provider, into: &events)
        }
    }

    private static func translateLast(decoder: inout SSEDecoder, interpreter: inout GeminiChunkInterpreter,
                                      provider: String, into events: inout [ChatStreamEvent]) throws {
        try decoder.finish { event in
            try apply(event, atEnd: true, interpreter: &interpreter, provider: provider, into: &events)
        }
    }

    /// Parses one event's data as a chunk and applies it. At the end of the body, an unparsable
    /// event is the unterminated last line of a cut-off stream and is reported as truncation.
    private static func apply(_ event: SSERawEvent, atEnd: Bool, interpreter: inout GeminiChunkInterpreter,
                              provider: String, into events: inout [ChatStreamEvent]) throws {
        if event.data.isEmpty || event.isDone { return }
        var chunk = GeminiChunk()
        do {
            let header = interpreter.needsHeader
            try JSONCursor.read(event.data) { (c) throws(JSONSyntaxError) in chunk = try GeminiChunk.read(&c, header: header) }
        } catch {
            if atEnd {
                throw GatewayError.streamEndedEarly(
                    "The Gemini stream from provider '\(provider)' ended before the answer was complete "
                        + "(cut off in the middle of a chunk). Retry the request.", provider: provider)
            }
            throw GatewayError.upstreamProtocol(
                "Gemini (provider '\(provider)') sent a stream chunk that is not valid JSON (\(error)); retry the request.",
                provider: provider)
        }
        try interpreter.apply(chunk, into: &events)
    }

    /// Text outside `data:` lines: a bare JSON error body throws its mapped error; anything else
    /// means the body was not the SSE stream it should be.
    private func throwStrayError() throws {
        let stray = decoder.strayText
        guard stray.utf8.contains(where: { $0 > 0x20 }) else { return }
        var envelope = try? JSONValue.parse(stray)
        if let first = envelope?.arrayValue?.first { envelope = first }
        if let error = envelope?["error"], error.objectValue != nil {
            throw GeminiFormat.error(from: error, httpStatus: nil, retryAfterHeader: nil,
                                     provider: provider, apiKey: interpreter.apiKey)
        }
        throw GatewayError.upstreamProtocol(
            "Gemini (provider '\(provider)') sent text that is not part of the event stream "
                + "(\(GeminiFormat.scrub(String(stray.prefix(120)), apiKey: interpreter.apiKey))); "
                + "check that the URL asks for `alt=sse`, then retry.",
            provider: provider)
    }
}
