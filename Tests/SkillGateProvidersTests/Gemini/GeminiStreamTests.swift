import Testing
import SkillGateCore
@testable import SkillGateProviders

/// What a streaming fixture must fold into.
struct GeminiStreamExpectation: Sendable, CustomStringConvertible {
    var file: String
    var id: String
    var model: String
    var text: String
    var thinkingText: String = ""
    var signatures: Int = 0
    var calls: [(name: String, arguments: String, signed: Bool)] = []
    var finish: FinishReason
    var usage: Usage
    var description: String { file }
}

@Suite struct GeminiStreamTests {
    static let expectations: [GeminiStreamExpectation] = [
        .init(file: "google-text.chunks.txt", id: "bH6LaZW8Fp_3nsEPqtaSwQ4", model: "gemini-3-pro-preview",
              text: "There are **3** \"r\"s in strawberry.\n\nst**r**awbe**rr**y", signatures: 1, finish: .stop,
              usage: Usage(inputTokens: 9, outputTokens: 23 + 185, reasoningTokens: 185)),
        .init(file: "google-reasoning.chunks.txt", id: "dX6LadKVC7SZ28oPr9yJoQs", model: "gemini-3-pro-preview",
              text: "There are **3** \"r\"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.", signatures: 1,
              finish: .stop, usage: Usage(inputTokens: 9, outputTokens: 29 + 256, reasoningTokens: 256)),
        .init(file: "google-tool-call.chunks.txt", id: "b36LacjwM668nsEP2tbsgQQ", model: "gemini-3-pro-preview", text: "",
              calls: [("weather", #"{"location":"San Francisco"}"#, true)], finish: .toolCalls,
              usage: Usage(inputTokens: 29, outputTokens: 15 + 45, reasoningTokens: 45)),
        .init(file: "google-stream-no-args-tool-call.chunks.txt", id: "_vr4aYiWEJnYodAPkujX0QM", model: "gemini-3-flash-preview",
              text: "", thinkingText: "**Processing User Requests**",
              calls: [("read_theme", "{}", true), ("read_screen", #"{"id":"A"}"#, false),
                      ("read_screen", #"{"id":"B"}"#, false), ("read_screen", #"{"id":"C"}"#, false)],
              finish: .toolCalls, usage: Usage(inputTokens: 249, outputTokens: 58 + 183, reasoningTokens: 183)),
        .init(file: "googleai-streaming-success-thinking-function-call-thought-summary-signature.txt",
              id: "48SHaPHpHKbG-8YPtZCawAk", model: "gemini-2.5-flash", text: "",
              thinkingText: "**Calculating the Days**", calls: [("now", "{}", true)], finish: .toolCalls,
              usage: Usage(inputTokens: 38, outputTokens: 6 + 168, reasoningTokens: 168)),
        .init(file: "test_google_streaming_tool_call_thought_signature.0.response.sse", id: "QUVVadTSNJ6_qtsPvN7J8Q0",
              model: "gemini-3-pro-preview", text: "", calls: [("get_country", "{}", true)], finish: .toolCalls,
              usage: Usage(inputTokens: 29, outputTokens: 10 + 202, reasoningTokens: 202)),
        .init(file: "test_google_streaming_tool_call_thought_signature.1.response.sse", id: "REVVabaiCdq4qtsPnZu96Qo",
              model: "gemini-3-pro-preview", text: "The capital of Mexico is Mexico City.", finish: .stop,
              usage: Usage(inputTokens: 257, outputTokens: 8)),
        .init(file: "googleai-streaming-failure-prompt-blocked-safety.txt", id: "", model: "", text: "",
              finish: .contentFilter, usage: Usage()),
    ]

    @Test(arguments: expectations)
    func wholeAndByteByByteGiveTheSameEvents(_ e: GeminiStreamExpectation) throws {
        let body = try GeminiTest.streamBody(e.file)
        let whole = try StreamFeeding.whole(GeminiTest.translator(), body)
        let bytewise = try StreamFeeding.byteByByte(GeminiTest.translator(), body)
        #expect(whole == bytewise)
        #expect(whole.first == .start(id: e.id, model: e.model))
    }

    @Test(arguments: expectations)
    func foldsIntoTheExpectedResponse(_ e: GeminiStreamExpectation) throws {
        let events = try StreamFeeding.whole(GeminiTest.translator(), try GeminiTest.streamBody(e.file))
        let response = StreamFeeding.response(events)
        #expect(response.id == e.id)
        #expect(response.model == e.model)
        #expect(response.text == e.text)
        #expect(response.finishReason == e.finish)
        #expect(response.usage == e.usage)
        let thinking = GeminiTest.thinking(response)
        #expect(thinking.compactMap(\.signature).count == e.signatures)
        if !e.thinkingText.isEmpty { #expect(thinking.first?.text.hasPrefix(e.thinkingText) == true) }
        let calls = response.toolCalls
        #expect(calls.map(\.name) == e.calls.map(\.name))
        #expect(calls.map(\.arguments) == e.calls.map(\.arguments))
        #expect(calls.map { $0.signature != nil } == e.calls.map(\.signed))
        #expect(Set(calls.map(\.id)).count == calls.count, "tool call ids must be distinct")
        // finish and usage come last, once each
        #expect(events.suffix(2).first == .finish(e.finish))
        #expect(events.last == .usage(e.usage))
        #expect(events.filter { if case .usage = $0 { return true } else { return false } }.count == 1)
    }

    @Test(arguments: expectations.filter { $0.file.hasSuffix(".chunks.txt") })
    func crlfFramingGivesTheSameEventsAsLF(_ e: GeminiStreamExpectation) throws {
        let lf = try GeminiTest.streamBody(e.file)
        let crlf = Array(String(decoding: lf, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)
        #expect(try StreamFeeding.byteByByte(GeminiTest.translator(), crlf) == StreamFeeding.whole(GeminiTest.translator(), lf))
    }

    @Test func toolCallEventsComeInOrderPerCall() throws {
        let events = try StreamFeeding.whole(GeminiTest.translator(), try GeminiTest.streamBody("google-stream-no-args-tool-call.chunks.txt"))
        for ordinal in 0..<4 {
            let mine = events.compactMap { event -> String? in
                switch event {
                case .toolCallStart(ordinal, _, _): return "start"
                case .toolCallArgumentsDelta(ordinal, _): return "args"
                case .toolCallSignature(ordinal, _): return "signature"
                case .toolCallEnd(ordinal): return "end"
                default: return nil
                }
            }
            #expect(mine.first == "start" && mine.last == "end" && mine.filter { $0 == "end" }.count == 1)
        }
    }

    @Test func synthesisedIdsAreDeterministicFromTheResponseId() throws {
        let events = try StreamFeeding.whole(GeminiTest.translator(), try GeminiTest.streamBody("google-stream-no-args-tool-call.chunks.txt"))
        let ids = events.compactMap { if case .toolCallStart(_, let id, _) = $0 { return id } else { return nil } }
        #expect(ids == (0..<4).map { "call__vr4aYiWEJnYodAPkujX0QM_\($0)" })
    }
}
