import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// `parallel_tool_calls: false` (and Anthropic's `disable_parallel_tool_use`) kept by the gateway (decision 0135): a model
/// that answers with several calls anyway (Gemini has no such setting, prompt tools can only ask) hands on its first call
/// only, whole and streamed, on every surface; the calls dropped are not checked and are noted in the log.
@Suite struct SingleToolCallTests {
    typealias H = SkillsGatewayHarness
    static let config = ResponsesSurfaceTests.config
    static let two: ScriptedAnswer = .toolCalls([ScriptedCall(name: "get_weather", arguments: #"{"city":"Oslo"}"#),
                                                 ScriptedCall(name: "current_time", arguments: #"{"zone":"Europe/Oslo"}"#)])
    static let openAITools = #"[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}},{"type":"function","function":{"name":"current_time","parameters":{"type":"object","properties":{"zone":{"type":"string"}}}}}]"#
    static let anthropicTools = #"[{"name":"get_weather","input_schema":{"type":"object","properties":{"city":{"type":"string"}}}},{"name":"current_time","input_schema":{"type":"object","properties":{"zone":{"type":"string"}}}}]"#

    @Test func theEventsOfLaterCallsAreDropped() {
        var single = SingleToolCall()
        let events: [ChatStreamEvent] = [.start(id: "a", model: "m"), .textDelta("Checking."), .toolCallStart(ordinal: 0, id: "c1", name: "a"),
                                         .toolCallArgumentsDelta(ordinal: 0, fragment: "{}"), .toolCallStart(ordinal: 1, id: "c2", name: "b"),
                                         .toolCallArgumentsDelta(ordinal: 1, fragment: "{}"), .toolCallSignature(ordinal: 1, signature: "s"),
                                         .toolCallEnd(ordinal: 0), .toolCallEnd(ordinal: 1), .toolCallStart(ordinal: 2, id: "c3", name: "c"),
                                         .toolCallEnd(ordinal: 2), .finish(.toolCalls), .usage(Usage(inputTokens: 1, outputTokens: 2))]
        let kept = events.filter { !single.drops($0) }
        #expect(kept == [.start(id: "a", model: "m"), .textDelta("Checking."), .toolCallStart(ordinal: 0, id: "c1", name: "a"),
                         .toolCallArgumentsDelta(ordinal: 0, fragment: "{}"), .toolCallEnd(ordinal: 0), .finish(.toolCalls),
                         .usage(Usage(inputTokens: 1, outputTokens: 2))])
        #expect(single.dropped == 2)

        let whole = ChatResponse(id: "r", model: "m", content: [.text("Checking."), .toolCall(ToolCall(id: "c1", name: "a", arguments: "{}")),
                                                                .toolCall(ToolCall(id: "c2", name: "b", arguments: "{}"))],
                                 finishReason: .toolCalls, usage: Usage())
        let (first, dropped) = SingleToolCall.keepingTheFirstCall(of: whole)
        #expect(first.content == [.text("Checking."), .toolCall(ToolCall(id: "c1", name: "a", arguments: "{}"))] && dropped == 1)
        #expect(first.finishReason == .toolCalls)
        let text = ChatResponse(id: "r", model: "m", content: [.text("hi")], finishReason: .stop, usage: Usage())
        #expect(SingleToolCall.keepingTheFirstCall(of: text).0 == text && SingleToolCall.keepingTheFirstCall(of: text).dropped == 0)
    }

    /// Chat Completions: the first call only with `parallel_tool_calls: false`, both without; whole and streamed.
    @Test(arguments: [false, true])
    func chatCompletionsHandsOnTheFirstCallOnly(stream: Bool) async throws {
        let h = try H(config: Self.config, script: ["light-native": Self.two])
        func calls(_ parallel: String) async throws -> [String] {
            let r = try await h.chat(try JSONValue.parse(#"{"model":"light","stream":\#(stream),"tools":\#(Self.openAITools)\#(parallel),"messages":[{"role":"user","content":"Weather and time in Oslo?"}]}"#))
            #expect(r.status == 200, "\(r.body)")
            if !stream {
                return try JSONValue.parse(r.body)["choices"]?.arrayValue?.first?["message"]?["tool_calls"]?.arrayValue?.compactMap { $0["function"]?["name"]?.stringValue } ?? []
            }
            let deltas = try ResponsesSurfaceTests.events(r.body.replacingOccurrences(of: "data: [DONE]", with: "")).flatMap { $0["choices"]?.arrayValue?.first?["delta"]?["tool_calls"]?.arrayValue ?? [] }
            return deltas.compactMap { $0["function"]?["name"]?.stringValue }
        }
        let single = try await calls(#","parallel_tool_calls":false"#)
        let both = try await calls("")
        let lines = await h.logLines()
        await h.stop()
        #expect(single == ["get_weather"])
        #expect(both == ["get_weather", "current_time"])
        let attempts = lines.map { $0["attempts"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        #expect(attempts.first?.last == "dropped 1 tool call after the first (parallel_tool_calls: false)", "\(attempts)")
        #expect(attempts.last?.contains { $0.hasPrefix("dropped") } == false)
    }

    /// Anthropic's `disable_parallel_tool_use` is the same setting: one `tool_use` block, whole and streamed.
    @Test(arguments: [false, true])
    func messagesHandsOnTheFirstCallOnly(stream: Bool) async throws {
        let h = try H(config: Self.config, script: ["light-native": Self.two])
        let body = #"{"model":"light","max_tokens":100,"stream":\#(stream),"tools":\#(Self.anthropicTools),"tool_choice":{"type":"auto","disable_parallel_tool_use":true},"messages":[{"role":"user","content":"Weather and time in Oslo?"}]}"#
        let r = try await h.chat(try JSONValue.parse(body), path: "/v1/messages")
        await h.stop()
        #expect(r.status == 200, "\(r.body)")
        let names: [String]
        if stream {
            names = try ResponsesSurfaceTests.events(r.body).compactMap { $0["content_block"]?["type"] == "tool_use" ? $0["content_block"]?["name"]?.stringValue : nil }
        } else {
            names = try JSONValue.parse(r.body)["content"]?.arrayValue?.compactMap { $0["type"] == "tool_use" ? $0["name"]?.stringValue : nil } ?? []
        }
        #expect(names == ["get_weather"])
    }

    @Test func responsesHandsOnTheFirstCallOnly() async throws {
        let h = try H(config: Self.config, script: ["light-native": Self.two])
        let tools = #"[{"type":"function","name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}},{"type":"function","name":"current_time","parameters":{"type":"object","properties":{"zone":{"type":"string"}}}}]"#
        let r = try await ResponsesSurfaceTests.post(h, #"{"model":"light","input":"Weather and time in Oslo?","tools":\#(tools),"parallel_tool_calls":false}"#)
        await h.stop()
        let calls = r.json["output"]?.arrayValue?.filter { $0["type"] == "function_call" }.compactMap { $0["name"]?.stringValue }
        #expect(calls == ["get_weather"], "\(r.json)")
        #expect(r.json["parallel_tool_calls"] == false)
    }

    /// A dropped call is not handed on, so it is not checked: a second call to a tool the model was not shown is dropped
    /// with `parallel_tool_calls: false` (the first is answered), and refused without it (the invisible-call rule).
    @Test(arguments: [false, true])
    func aDroppedCallToAToolNotShownIsNotRefused(stream: Bool) async throws {
        let h = try H(config: Self.config, script: ["light-native": .toolCalls([ScriptedCall(name: "get_weather", arguments: #"{"city":"Oslo"}"#),
                                                                                 ScriptedCall(name: "delete_everything", arguments: "{}")])])
        func send(_ parallel: String) async throws -> (status: Int, headers: HTTPHeaders, body: String) {
            try await h.chat(try JSONValue.parse(#"{"model":"light","stream":\#(stream),"tools":\#(Self.openAITools)\#(parallel),"messages":[{"role":"user","content":"Weather in Oslo?"}]}"#))
        }
        let single = try await send(#","parallel_tool_calls":false"#)
        let both = try await send("")
        await h.stop()
        #expect(single.status == 200 && !single.body.contains("delete_everything") && single.body.contains("get_weather"), "\(single.body)")
        if stream {
            #expect(both.body.contains("delete_everything") && both.body.contains("was not shown"), "the stream ends with the invisible-call error: \(both.body)")
        } else {
            #expect(both.status == 502 && both.body.contains("delete_everything"), "\(both.body)")
        }
    }
}
