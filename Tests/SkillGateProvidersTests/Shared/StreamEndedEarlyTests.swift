import Testing
import SkillGateCore
@testable import SkillGateProviders

/// Each adapter marks a stream whose body ended cleanly before the stream's own end, with nothing garbled in it, as
/// `streamEndedEarly` (the route executor treats it as a cut before the first event, decision 0129); a body that was no
/// event stream (an HTML page) is not marked: it stays a garbled answer (decision 0006). The OpenAI adapter starts the
/// answer at its first chunk with a choice: a chunk of metadata only gives no event.
@Suite struct StreamEndedEarlyTests {
    static let azureMetadata = #"data: {"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}]}"# + "\n\n"

    static func openAIError(_ text: String) -> GatewayError? { OpenAIChatBadStreamTests.error(feeding: text) }

    @Test(arguments: ["", ": keep-alive\n\n", azureMetadata, ": keep-alive\n\n" + azureMetadata + "data: [DONE]\n\n", "data: [DONE]\n\n"])
    func anOpenAIStreamWithoutAnAnswerChunkEndedEarly(_ body: String) throws {
        let e = try #require(Self.openAIError(body), "no error for \(body)")
        #expect(e.streamEndedEarly && e.kind == .upstreamProtocol && e.status == 502, "\(e)")
        #expect(e.message.contains("acme") && e.message.contains("retry the request"), "\(e)")
    }

    @Test func anOpenAIMetadataChunkGivesNoEventAndTheRoleChunkStartsTheAnswer() throws {
        var translator = OpenAIChatTestSupport.translator(provider: "acme")
        #expect(try translator.feed(Array(Self.azureMetadata.utf8)).isEmpty, "metadata only: no start yet")
        let role = OpenAIChatBadStreamTests.chunk(#"{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}"#)
        let events = try translator.feed(Array(role.utf8))
        #expect(events == [.start(id: "chatcmpl-x", model: "gpt-4o-mini")], "\(events)")
    }

    @Test func anOpenAIStreamCutAfterItsAnswerStartedIsMarkedToo() throws {
        let text = OpenAIChatBadStreamTests.chunk(#"{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}"#)
        let e = try #require(Self.openAIError(text))
        #expect(e.streamEndedEarly, "the executor decides by the first event whether it is a cut")
    }

    @Test func anOpenAIBodyThatIsNoEventStreamIsNotMarked() throws {
        let e = try #require(Self.openAIError("<html><body>502 Bad Gateway</body></html>"))
        #expect(!e.streamEndedEarly && e.kind == .upstreamProtocol, "\(e)")
    }

    @Test(arguments: ["", "event: ping\ndata: {\"type\": \"ping\"}\n\n"])
    func anAnthropicStreamEndedBeforeMessageStartEndedEarly(_ body: String) throws {
        let e = try #require(AnthropicTestSupport.streamError(Array(body.utf8)))
        #expect(e.streamEndedEarly && e.message.contains("before `message_start`"), "\(e)")
    }

    @Test func anAnthropicHTMLBodyIsNotMarked() throws {
        let e = try #require(AnthropicTestSupport.streamError(Array("<html><body><h1>502 Bad Gateway</h1></body></html>\n".utf8)))
        #expect(!e.streamEndedEarly && e.kind == .upstreamProtocol, "\(e)")
    }

    @Test(arguments: [false, true])
    func aGeminiStreamOfMetadataThenTheEndEndedEarly(_ byteByByte: Bool) throws {
        guard case .failure(let e) = GeminiTest.run(GeminiMetadataFirstTests.event(GeminiMetadataFirstTests.metadataOnly), byteByByte: byteByByte) else {
            Issue.record("a stream without an answer gave events")
            return
        }
        #expect(e.streamEndedEarly, "\(e)")
    }

    @Test func aGeminiStreamCutInTheMiddleOfAChunkEndedEarly() throws {
        guard case .failure(let e) = GeminiTest.run(Array(#"data: {"candidates": [{"content": {"parts": [{"text": "Hel"#.utf8), byteByByte: false) else {
            Issue.record("a cut chunk gave events")
            return
        }
        #expect(e.streamEndedEarly && e.message.contains("cut off in the middle of a chunk"), "\(e)")
    }

    @Test func aGeminiBodyThatIsNoEventStreamIsNotMarked() throws {
        guard case .failure(let e) = GeminiTest.run(Array("<html>502 Bad Gateway</html>".utf8), byteByByte: false) else {
            Issue.record("an HTML body gave events")
            return
        }
        #expect(!e.streamEndedEarly, "\(e)")
    }
}
