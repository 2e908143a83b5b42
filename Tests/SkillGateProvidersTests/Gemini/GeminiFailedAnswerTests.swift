import Testing
import SkillGateCore
@testable import SkillGateProviders

/// Gemini finish reasons that make an answer a failed attempt (decision 0117): `MALFORMED_FUNCTION_CALL`,
/// `UNEXPECTED_TOOL_CALL` and `MALFORMED_RESPONSE` throw a `GatewayError` with `failedAnswer`, whole and streamed, at the
/// chunk that carries them; the other finish reasons map as before.
@Suite struct GeminiFailedAnswerTests {
    static func expectFailedAnswer(_ error: GatewayError?, _ reason: GatewayError.FailedAnswer.Reason, raw: String, inputTokens: Int,
                                   outputTokens: Int = 0) {
        guard let error else { Issue.record("expected the failed answer's error"); return }
        #expect(error.failedAnswer == GatewayError.FailedAnswer(reason: reason, usage: Usage(inputTokens: inputTokens, outputTokens: outputTokens)),
                "\(error)")
        #expect(error.domain == .provider && error.kind == .upstreamError && error.status == 502 && error.provider == "gemini")
        #expect(error.upstreamCode == raw && error.upstreamStatus == nil)
        #expect(error.message.contains("finish reason \(raw)") && error.message.contains("Retry the request")
                    && error.message.contains("route the scenario to another model"), "\(error.message)")
        #expect(!error.message.contains("AIza-test-secret"))
    }

    @Test func aWholeMalformedFunctionCallThrows() throws {
        let body = try Fixtures.bytes("gemini/skillgate-malformed-function-call.json")
        var caught: GatewayError?
        do { _ = try GeminiFormat().parseResponse(body, deployment: GeminiTest.deployment) } catch { caught = error as? GatewayError }
        Self.expectFailedAnswer(caught, .malformedFunctionCall, raw: "MALFORMED_FUNCTION_CALL", inputTokens: 2595)
        #expect(caught?.message.contains("simplify the tool schemas") == true)
    }

    @Test(arguments: [false, true])
    func aStreamedMalformedFunctionCallThrowsWithoutAnEvent(_ byteByByte: Bool) throws {
        let body = try GeminiTest.streamBody("skillgate-malformed-function-call.sse")
        guard case .failure(let error) = GeminiTest.run(body, byteByByte: byteByByte) else {
            Issue.record("the stream gave events instead of failing")
            return
        }
        Self.expectFailedAnswer(error, .malformedFunctionCall, raw: "MALFORMED_FUNCTION_CALL", inputTokens: 2595)
    }

    /// Fed one event at a time, as the upstream sends them: the text goes out, the failed finish then throws.
    @Test func textBeforeTheFailedFinishIsEventsFirst() throws {
        let body = try GeminiTest.streamBody("skillgate-text-then-malformed-function-call.sse")
        let text = String(decoding: body, as: UTF8.self)
        let cut = try #require(text.range(of: "\r\n\r\n")).upperBound
        var translator = GeminiTest.translator()
        let first = try translator.feed(Array(text[..<cut].utf8))
        #expect(first == [.start(id: "cA1vabXwIcKvxN8Pn9OJ8Qw", model: "gemini-2.5-flash"), .textDelta("Let me look up the country.")])
        var caught: GatewayError?
        do { _ = try translator.feed(Array(text[cut...].utf8)) } catch { caught = error as? GatewayError }
        Self.expectFailedAnswer(caught, .malformedFunctionCall, raw: "MALFORMED_FUNCTION_CALL", inputTokens: 2595, outputTokens: 7)
    }

    @Test(arguments: [("UNEXPECTED_TOOL_CALL", GatewayError.FailedAnswer.Reason.unexpectedToolCall),
                      ("MALFORMED_RESPONSE", .malformedResponse), ("MALFORMED_FUNCTION_CALL", .malformedFunctionCall)])
    func eachFailedAnswerReasonThrowsWholeAndStreamed(_ raw: String, _ reason: GatewayError.FailedAnswer.Reason) throws {
        let chunk = #"{"candidates":[{"finishReason":"\#(raw)","index":0}],"usageMetadata":{"promptTokenCount":40,"totalTokenCount":40},"modelVersion":"gemini-2.5-flash","responseId":"r1"}"#
        var whole: GatewayError?
        do { _ = try GeminiFormat().parseResponse(Array(chunk.utf8), deployment: GeminiTest.deployment) } catch { whole = error as? GatewayError }
        Self.expectFailedAnswer(whole, reason, raw: raw, inputTokens: 40)
        guard case .failure(let streamed) = GeminiTest.run(Array("data: \(chunk)\r\n\r\n".utf8), byteByByte: false) else {
            Issue.record("the stream did not fail")
            return
        }
        Self.expectFailedAnswer(streamed, reason, raw: raw, inputTokens: 40)
    }

    /// Safety stops stay content-filter answers and `OTHER` stays verbatim, as before (decisions 0112, 0114).
    @Test(arguments: [("SAFETY", FinishReason.contentFilter), ("RECITATION", .contentFilter), ("BLOCKLIST", .contentFilter),
                      ("PROHIBITED_CONTENT", .contentFilter), ("SPII", .contentFilter), ("OTHER", .other("OTHER")),
                      ("TOO_MANY_TOOL_CALLS", .other("TOO_MANY_TOOL_CALLS"))])
    func otherStopsAreStillAnswers(_ raw: String, _ expected: FinishReason) throws {
        let chunk = #"{"candidates":[{"content":{"parts":[{"text":"Hi"}],"role":"model"},"finishReason":"\#(raw)","index":0}],"responseId":"r1"}"#
        let whole = try GeminiFormat().parseResponse(Array(chunk.utf8), deployment: GeminiTest.deployment)
        #expect(whole.finishReason == expected && whole.text == "Hi")
        let streamed = try GeminiTest.run(Array("data: \(chunk)\r\n\r\n".utf8), byteByByte: false).get()
        #expect(streamed.contains(.finish(expected)))
    }
}
