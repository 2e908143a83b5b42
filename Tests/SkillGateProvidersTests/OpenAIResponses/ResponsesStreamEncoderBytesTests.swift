import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

/// The Responses stream encoder writes every event straight as bytes (decision 0068): byte for byte what it gave when
/// it built its once-per-item events and its argument and reasoning deltas as JSON trees. The golden files
/// (`Tests/Fixtures/openai/responses-encoder-golden/`) were written by that encoder from the events below.
@Suite struct ResponsesStreamEncoderBytesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        let events: [ChatStreamEvent]
        /// A failure written after the events instead of `finish()`.
        var failure: GatewayError?
        var testDescription: String { file }
    }

    static let object = ResponsesObject(id: "resp_golden1", createdAt: 1_700_000_000, model: "up/gpt \"q\"",
                                        echo: ResponsesEcho(instructions: "Be brief.", maxOutputTokens: 64, temperature: 0.5))

    static let cases: [Case] = [
        // Text with escapes (quote, newline, backslash, a control byte), non-ASCII text and empty deltas.
        Case(file: "text.sse", events: [
            .start(id: "chatcmpl-up", model: "gpt"), .textDelta("Hello \"there\"\n"), .textDelta(""),
            .textDelta("ünï 令牌 \\ \u{1} done."), .finish(.stop), .usage(Usage(inputTokens: 12, outputTokens: 7)),
        ]),
        // Reasoning with a signature, text, then two calls whose argument deltas interleave, a delta for an unknown
        // call, a call signature clients do not see, one call ended and one left open for finish() to close.
        Case(file: "reasoning-text-and-calls.sse", events: [
            .start(id: "chatcmpl-up", model: "gpt"), .thinkingDelta("Plan \"it\""), .thinkingDelta("."), .thinkingSignature("sig/1+=="),
            .textDelta("Checking"), .textDelta(" now."),
            .toolCallStart(ordinal: 0, id: "call_1", name: "get_weather"), .toolCallArgumentsDelta(ordinal: 0, fragment: #"{"city":"#),
            .toolCallStart(ordinal: 1, id: "call_2", name: "search"), .toolCallArgumentsDelta(ordinal: 1, fragment: #"{"q":"é\n"}"#),
            .toolCallArgumentsDelta(ordinal: 0, fragment: ""), .toolCallArgumentsDelta(ordinal: 0, fragment: #""Oslo"}"#),
            .toolCallArgumentsDelta(ordinal: 9, fragment: "no such call"), .toolCallSignature(ordinal: 0, signature: "hidden"),
            .toolCallEnd(ordinal: 0), .finish(.toolCalls),
            .usage(Usage(inputTokens: 10, outputTokens: 5, cachedInputTokens: 4, reasoningTokens: 2)),
        ]),
        // Redacted thinking between items; a signature that opens a reasoning item with no text; text after it; the
        // token limit reached (response.incomplete).
        Case(file: "redacted-signature-only-and-incomplete.sse", events: [
            .redactedThinking("REDACTED\u{1}"), .thinkingSignature("only-a-signature"), .thinkingDelta("then text"),
            .textDelta("cut"), .finish(.length), .usage(Usage(inputTokens: 3, outputTokens: 64)),
        ]),
        // A content filter stops the answer.
        Case(file: "content-filter.sse", events: [.textDelta("partial"), .finish(.contentFilter)]),
        // Nothing at all: still a created, in-progress and completed response.
        Case(file: "no-events.sse", events: []),
        // A failure after a message and a call were opened: an error event, then response.failed.
        Case(file: "failure-mid-stream.sse", events: [
            .textDelta("partial"), .toolCallStart(ordinal: 0, id: "call_x", name: "f"), .toolCallArgumentsDelta(ordinal: 0, fragment: "{"),
        ], failure: GatewayError(domain: .provider, kind: .upstreamUnavailable, status: 502, message: "upstream closed \"the\" stream",
                                 param: "stream")),
        // A failure before any event.
        Case(file: "failure-at-once.sse", events: [],
             failure: GatewayError(domain: .provider, kind: .upstreamUnavailable, status: 502, message: "no answer")),
    ]

    static func encode(_ c: Case) -> [UInt8] {
        var encoder = ResponsesStreamEncoder(object: object)
        var out: [UInt8] = []
        for e in c.events { out += encoder.encode(e) }
        if let failure = c.failure { return out + encoder.failure(failure) }
        return out + encoder.finish()
    }

    @Test(arguments: cases)
    func bytesAreWhatTheTreeEncoderWrote(_ c: Case) throws {
        let golden = try Fixtures.bytes("openai/responses-encoder-golden/" + c.file)
        #expect(String(decoding: Self.encode(c), as: UTF8.self) == String(decoding: golden, as: UTF8.self))
    }

    /// Every event's data is one line of compact JSON whose `type` is the event's name, numbered from zero.
    @Test(arguments: cases)
    func everyEventIsCompactJSONNamedByItsType(_ c: Case) throws {
        var decoder = SSEDecoder()
        let frames = decoder.feed(Self.encode(c)) + decoder.finish()
        #expect(frames.count >= 3)
        for (n, frame) in frames.enumerated() {
            let value = try JSONValue.parse(frame.data)
            #expect(String(decoding: value.serializedBytes(), as: UTF8.self) == frame.data)
            #expect(value["type"]?.stringValue == frame.event)
            #expect(value["sequence_number"]?.intValue == n)
        }
    }
}
