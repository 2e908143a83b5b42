import Testing
import SkillGateCore
@testable import SkillGateProviders

/// A tool call without arguments from an OpenAI-compatible upstream (`"arguments":""`, or no arguments at all) reaches
/// every client with the arguments `"{}"`, streamed or whole, as from the Anthropic and Gemini adapters (decision 0112):
/// a client parsing the arguments as JSON must not fail on `""`.
@Suite struct OpenAIChatNoArgumentsTests {
    static let header = #""id":"chatcmpl-x","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini""#
    static func chunk(_ choices: String) -> String { "data: {\(header),\"choices\":[\(choices)]}\n\n" }

    @Test(arguments: [#""arguments":"""#, ""])
    func aStreamedCallWithoutArgumentsGetsAnEmptyObject(arguments: String) throws {
        let comma = arguments.isEmpty ? "" : ","
        let text = Self.chunk(#"{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"now"\#(comma)\#(arguments)}}]},"finish_reason":null}"#)
            + Self.chunk(#"{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"echo","arguments":"{\"x\":1}"}}]},"finish_reason":null}"#)
            + Self.chunk(#"{"index":0,"delta":{},"finish_reason":"tool_calls"}"#) + "data: [DONE]\n\n"
        let events = try StreamFeeding.whole(OpenAIChatTestSupport.translator(provider: "acme"), Array(text.utf8))
        var arguments: [Int: String] = [:]
        for case .toolCallArgumentsDelta(let ordinal, let fragment) in events { arguments[ordinal, default: ""] += fragment }
        #expect(arguments == [0: "{}", 1: #"{"x":1}"#])
        // The arguments come before the call's end.
        let end = try #require(events.firstIndex { if case .toolCallEnd(0) = $0 { true } else { false } })
        let empty = try #require(events.firstIndex { if case .toolCallArgumentsDelta(0, "{}") = $0 { true } else { false } })
        #expect(empty < end)
    }

    @Test(arguments: [#""arguments":"""#, #""arguments":null"#, ""])
    func aWholeCallWithoutArgumentsGetsAnEmptyObject(arguments: String) throws {
        let comma = arguments.isEmpty ? "" : ","
        let body = #"{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"now"\#(comma)\#(arguments)}}]},"finish_reason":"tool_calls"}]}"#
        let response = try OpenAIChatFormat.parseCompletion(Array(body.utf8), provider: "acme")
        #expect(response.content.compactMap { $0.toolCall?.arguments } == ["{}"])
    }
}
