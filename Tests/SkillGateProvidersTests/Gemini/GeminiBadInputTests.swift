import Testing
import SkillGateCore
@testable import SkillGateProviders

/// Upstream bodies that are broken, cut off or carry errors.
@Suite struct GeminiBadInputTests {
    func bothWays(_ body: [UInt8]) -> GatewayError? {
        let whole = GeminiTest.run(body, byteByByte: false)
        let bytewise = GeminiTest.run(body, byteByByte: true)
        #expect(whole == bytewise, "whole and byte-by-byte feeding must agree")
        if case .failure(let e) = whole { return e }
        return nil
    }

    @Test func errorBodyAfterTheEventsThrowsTheMappedError() throws {
        let body = try Fixtures.bytes("gemini/vertexai-streaming-failure-error-mid-stream.txt")
        let e = try #require(bothWays(body))
        #expect(e.upstreamCode == "CANCELLED")
        #expect(e.upstreamStatus == 499)
        #expect(e.provider == "gemini")
        #expect(e.message.contains("The operation was cancelled."))
        // the text before the error still came through as events
        var t = GeminiTest.translator()
        let events = try t.feed(body)
        #expect(events.contains(.textDelta("First ")) && events.contains(.textDelta("Second ")))
        #expect(throws: GatewayError.self) { try t.finish() }
    }

    @Test func errorChunkInsideTheStreamThrows() throws {
        let body = Array(("data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hel\"}],\"role\":\"model\"}}]}\r\n\r\n"
            + "data: {\"error\":{\"code\":503,\"message\":\"The model is overloaded. Please try again later.\",\"status\":\"UNAVAILABLE\"}}\r\n\r\n").utf8)
        let e = try #require(bothWays(body))
        #expect(e.kind == .upstreamUnavailable)
        #expect(e.isRetryable)
    }

    @Test func truncatedStreamNamesTheProvider() throws {
        let full = try GeminiTest.streamBody("google-text.chunks.txt")
        let cut = Array(full.prefix(full.count / 2))
        let e = try #require(bothWays(cut))
        #expect(e.kind == .upstreamProtocol)
        #expect(e.provider == "gemini")
        #expect(e.message.contains("ended before"))
    }

    @Test func cutAfterCompleteChunksButBeforeFinishIsTruncated() throws {
        let lines = try Fixtures.text("gemini/google-text.chunks.txt").split(separator: "\n")
        let body = Array(lines.dropLast().map { "data: \($0)\n\n" }.joined().utf8)
        let e = try #require(bothWays(body))
        #expect(e.message.contains("ended before"))
    }

    @Test func emptyStreamIsTruncated() throws {
        let e = try #require(bothWays([]))
        #expect(e.kind == .upstreamProtocol && e.message.contains("no data"))
    }

    @Test func malformedChunkJSON() throws {
        let e = try #require(bothWays(Array("data: {\"candidates\":[{\"content\":\n\n".utf8)))
        #expect(e.kind == .upstreamProtocol && e.message.contains("not valid JSON"))
    }

    @Test func htmlPageInsteadOfAStream() throws {
        let e = try #require(bothWays(Array("<html><body><h1>502 Bad Gateway</h1></body></html>\n".utf8)))
        #expect(e.kind == .upstreamProtocol)
        #expect(e.message.contains("alt=sse"))
    }

    @Test func blockedPromptIsAContentFilterAnswer() throws {
        let events = try StreamFeeding.whole(GeminiTest.translator(),
                                             try Fixtures.bytes("gemini/googleai-streaming-failure-prompt-blocked-safety.txt"))
        let response = StreamFeeding.response(events)
        #expect(response.finishReason == .contentFilter)
        #expect(response.content.isEmpty)
        let unary = #"{"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"},"usageMetadata":{"promptTokenCount":7}}"#
        let parsed = try GeminiFormat().parseResponse(Array(unary.utf8), deployment: GeminiTest.deployment)
        #expect(parsed.finishReason == .contentFilter && parsed.usage.inputTokens == 7)
    }

    @Test(arguments: ["", "<html>oops</html>", "{\"candidates\":", "[1,2]", "{}"])
    func brokenUnaryBodiesThrow(_ body: String) {
        #expect(throws: GatewayError.self) {
            try GeminiFormat().parseResponse(Array(body.utf8), deployment: GeminiTest.deployment)
        }
    }

    @Test func errorBodyWithStatus200Throws() {
        let body = #"{"error":{"code":500,"message":"Internal error encountered.","status":"INTERNAL"}}"#
        #expect { try GeminiFormat().parseResponse(Array(body.utf8), deployment: GeminiTest.deployment) }
            throws: { ($0 as? GatewayError)?.upstreamStatus == 500 }
    }
}
