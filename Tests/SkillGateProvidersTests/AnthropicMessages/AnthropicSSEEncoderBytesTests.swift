import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

/// The Anthropic SSE encoder writes its events straight as bytes (decision 0065): byte for byte what it gave when it
/// built each event as a JSON tree. The golden files (`Tests/Fixtures/anthropic/encoder-golden/`) were written by
/// that tree encoder from the events below.
@Suite struct AnthropicSSEEncoderBytesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        let events: [ChatStreamEvent]
        var fallbackId = "msg_skillgate"
        var fallbackModel = ""
        var ping = true
        var testDescription: String { file }
    }

    static let cases: [Case] = [
        // Every block kind, escapes (quote, newline, backslash, a control byte), non-ASCII text, empty deltas, a
        // delta for an unknown call, and a Gemini-only signature the encoder drops.
        Case(file: "every-block.sse", events: [
            .start(id: "msg_01", model: "claude-sonnet-4-5"),
            .thinkingDelta("let me \"think\"\n"), .thinkingSignature("sig/1+=="),
            .redactedThinking("REDACTED\u{1}"),
            .textDelta("Calling "), .textDelta(""), .textDelta("tools: ünï 令牌 \\ done."),
            .toolCallStart(ordinal: 0, id: "toolu_a", name: "get_weather"),
            .toolCallArgumentsDelta(ordinal: 0, fragment: #"{"city":"#), .toolCallArgumentsDelta(ordinal: 0, fragment: ""),
            .toolCallArgumentsDelta(ordinal: 0, fragment: #""Oslo"}"#),
            .toolCallSignature(ordinal: 0, signature: "ignored"),
            .toolCallEnd(ordinal: 0),
            .toolCallStart(ordinal: 1, id: "toolu_b", name: "search"),
            .toolCallArgumentsDelta(ordinal: 7, fragment: "no such call"),
            .toolCallEnd(ordinal: 1),
            .finish(.toolCalls),
            .usage(Usage(inputTokens: 120, outputTokens: 33, cachedInputTokens: 20)),
        ]),
        // No start event: the fallback id and model, and no ping.
        Case(file: "fallback-id-and-model-no-ping.sse", events: [.textDelta("hi"), .finish(.stop)],
             fallbackId: "msg_fallback", fallbackModel: "fallback-model", ping: false),
        // Nothing at all: still a whole message.
        Case(file: "no-events.sse", events: []),
        // An empty id and model take the fallbacks; a signature with no thinking open opens a thinking block.
        Case(file: "signature-opens-thinking.sse", events: [.start(id: "", model: ""), .thinkingSignature("s"), .finish(.other("weird"))],
             fallbackId: "m", fallbackModel: "x"),
    ]

    static func encode(_ c: Case) -> [UInt8] {
        var encoder = AnthropicMessagesSSEEncoder(fallbackId: c.fallbackId, fallbackModel: c.fallbackModel, sendPing: c.ping)
        var out: [UInt8] = []
        for e in c.events { out += encoder.encode(e) }
        return out + encoder.finish()
    }

    @Test(arguments: cases)
    func bytesAreWhatTheTreeEncoderWrote(_ c: Case) throws {
        let golden = try Fixtures.bytes("anthropic/encoder-golden/" + c.file)
        let encoded = Self.encode(c)
        #expect(String(decoding: encoded, as: UTF8.self) == String(decoding: golden, as: UTF8.self))
    }

    /// Every event's data is one line of compact JSON whose `type` is the event's name.
    @Test(arguments: cases)
    func everyEventIsCompactJSONNamedByItsType(_ c: Case) throws {
        var decoder = SSEDecoder()
        let frames = decoder.feed(Self.encode(c)) + decoder.finish()
        #expect(!frames.isEmpty)
        for frame in frames {
            let value = try JSONValue.parse(frame.data)
            #expect(String(decoding: value.serializedBytes(), as: UTF8.self) == frame.data)
            #expect(value["type"]?.stringValue == frame.event)
        }
    }
}
