import Testing
import SkillGateCore
@testable import SkillGateProviders

/// What folding one recorded stream must give (values read off the recordings by hand).
struct StreamExpectation: Sendable, CustomTestStringConvertible {
    var file: String
    var textPrefix: String
    var textUTF8Count: Int
    var calls: [ToolCall] = []
    var finish: FinishReason
    var usage: Usage
    var id: String
    var testDescription: String { file }
}

@Suite struct OpenAIChatStreamFixtureTests {
    static let expectations: [StreamExpectation] = [
        StreamExpectation(file: "test_parse_nothing.sse", textPrefix: "I'm unable to provide real-time weather updates.",
                          textUTF8Count: 159, finish: .stop, usage: Usage(inputTokens: 14, outputTokens: 30),
                          id: "chatcmpl-ABfw031mOJeYCSHe4yI2ZjOA6kMJL"),
        StreamExpectation(file: "test_parse_max_tokens_reached.sse", textPrefix: "{\"", textUTF8Count: 2, finish: .length,
                          usage: Usage(inputTokens: 79, outputTokens: 1), id: "chatcmpl-ABfw3Oqj8RD0z6aJiiX37oTjV2HFh"),
        StreamExpectation(file: "test_parse_multiple_pydantic_tools.sse", textPrefix: "", textUTF8Count: 0,
                          calls: [ToolCall(id: "call_JMW1whyEaYG438VE1OIflxA2", name: "GetWeatherArgs",
                                           arguments: #"{"city": "Edinburgh", "country": "GB", "units": "c"}"#),
                                  ToolCall(id: "call_DNYTawLBoN8fj3KN6qU9N1Ou", name: "get_stock_price",
                                           arguments: #"{"ticker": "AAPL", "exchange": "NASDAQ"}"#)],
                          finish: .toolCalls, usage: Usage(inputTokens: 149, outputTokens: 60),
                          id: "chatcmpl-ABfwAwrNePHUgBBezonVC6MX3zd63"),
        StreamExpectation(file: "test_parse_pydantic_model_multiple_choices.sse",
                          textPrefix: #"{"city":"San Francisco","temperature":65,"units":"f"}"#, textUTF8Count: 53,
                          finish: .stop, usage: Usage(inputTokens: 79, outputTokens: 42), id: "chatcmpl-ABfw2KKFuVXmEJgVwYfBvejMAdWtq"),
        StreamExpectation(file: "test_parse_pydantic_model_refusal.sse", textPrefix: "I'm sorry, I can't assist with that request.",
                          textUTF8Count: 44, finish: .refusal, usage: Usage(inputTokens: 79, outputTokens: 11),
                          id: "chatcmpl-ABfw4IfQfCCrcuybFm41wJyxjbkz7"),
        StreamExpectation(file: "test_run_stream_sync_streams_real_model.0.response.sse", textPrefix: "", textUTF8Count: 0,
                          calls: [ToolCall(id: "call_ZR5UUuTt3pf61kjwAJIYdVMj", name: "get_capital", arguments: #"{"country":"UK"}"#)],
                          finish: .toolCalls, usage: Usage(inputTokens: 53, outputTokens: 15),
                          id: "chatcmpl-Dx0XpqH8w09uBXwq1zFGYdETjtnEl"),
        StreamExpectation(file: "test_run_stream_sync_streams_real_model.1.response.sse", textPrefix: "The capital of the UK is London.",
                          textUTF8Count: 32, finish: .stop, usage: Usage(inputTokens: 78, outputTokens: 9),
                          id: "chatcmpl-Dx0Xq5Xx9rHB2ehcHZCRDsnuymUXc"),
        StreamExpectation(file: "openai-text.chunks.txt", textPrefix: "**Holiday Name:** Harmony Day\n\n**Date:**",
                          textUTF8Count: 1730, finish: .stop, usage: Usage(inputTokens: 16, outputTokens: 300),
                          id: "chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0"),
    ]

    @Test(arguments: expectations)
    func wholeAndByteByByteGiveTheSameEvents(_ e: StreamExpectation) throws {
        let body = try OpenAIChatTestSupport.streamBody(e.file)
        let whole = try StreamFeeding.whole(OpenAIChatTestSupport.translator(), body)
        let bytewise = try StreamFeeding.byteByByte(OpenAIChatTestSupport.translator(), body)
        #expect(whole == bytewise)
        #expect(whole.count > 2)
    }

    @Test(arguments: expectations)
    func foldedResponseMatchesTheRecording(_ e: StreamExpectation) throws {
        let events = try StreamFeeding.whole(OpenAIChatTestSupport.translator(), try OpenAIChatTestSupport.streamBody(e.file))
        let response = StreamFeeding.response(events)
        #expect(response.id == e.id)
        #expect(response.text.hasPrefix(e.textPrefix))
        #expect(response.text.utf8.count == e.textUTF8Count)
        #expect(response.toolCalls == e.calls)
        for call in response.toolCalls { #expect(call.parsedArguments?.objectValue != nil, "arguments of \(call.name) parse") }
        #expect(response.finishReason == e.finish)
        #expect(response.usage == e.usage)
    }

    @Test(arguments: expectations)
    func eventsComeInContractOrder(_ e: StreamExpectation) throws {
        let events = try StreamFeeding.whole(OpenAIChatTestSupport.translator(), try OpenAIChatTestSupport.streamBody(e.file))
        guard case .start = events.first else { Issue.record("first event is \(String(describing: events.first))"); return }
        #expect(events.last == .usage(e.usage))
        #expect(events.filter { if case .finish = $0 { true } else { false } }.count == 1)
        #expect(events.filter { if case .usage = $0 { true } else { false } }.count == 1)
        // Every call: start, deltas, end, all before the finish.
        let finishAt = try #require(events.firstIndex { if case .finish = $0 { true } else { false } })
        for ordinal in e.calls.indices {
            let start = try #require(events.firstIndex { if case .toolCallStart(ordinal, _, _) = $0 { true } else { false } })
            let end = try #require(events.firstIndex(of: .toolCallEnd(ordinal: ordinal)))
            let deltas = events.indices.filter { if case .toolCallArgumentsDelta(ordinal, _) = events[$0] { true } else { false } }
            #expect(start < end && end < finishAt)
            #expect(deltas.allSatisfy { $0 > start && $0 < end })
        }
    }

    @Test func parallelCallsInterleaveBySeparateOrdinals() throws {
        let events = try StreamFeeding.whole(OpenAIChatTestSupport.translator(),
                                             try OpenAIChatTestSupport.streamBody("test_parse_multiple_pydantic_tools.sse"))
        let starts = events.compactMap { if case .toolCallStart(let o, let id, let name) = $0 { (o, id, name) } else { nil } }
        #expect(starts.map(\.0) == [0, 1])
        #expect(starts.map(\.2) == ["GetWeatherArgs", "get_stock_price"])
    }

    @Test func vercelChunksWithoutDoneStillFinish() throws {
        // vercel/ai stripped `[DONE]`; a finish_reason was seen, so the stream is complete.
        let body = try OpenAIChatTestSupport.streamBody("openai-text.chunks.txt", done: false)
        let events = try StreamFeeding.byteByByte(OpenAIChatTestSupport.translator(), body)
        #expect(events.last == .usage(Usage(inputTokens: 16, outputTokens: 300)))
        #expect(StreamFeeding.response(events).finishReason == .stop)
    }
}
