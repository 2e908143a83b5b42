import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

/// A model's refusal in OpenAI Chat Completions streams, both ways (decision 0114): an upstream's `delta.refusal`
/// pieces become refusal events, never answer text; a client gets them back in `delta.refusal` with `stop`, as
/// OpenAI streams them, and as the whole answer puts them in `message.refusal`.
@Suite struct OpenAIChatRefusalStreamTests {
    static let recorded = "I'm sorry, I can't assist with that request."

    static func isText(_ event: ChatStreamEvent) -> Bool {
        if case .textDelta = event { return true }
        return false
    }

    static func fold(_ events: [ChatStreamEvent]) -> ChatResponse {
        var acc = ChatResponseAccumulator()
        events.forEach { acc.apply($0) }
        return acc.response
    }

    @Test func theRecordedRefusalStreamsAsRefusalPiecesNotText() throws {
        let body = try OpenAIChatTestSupport.streamBody("test_parse_pydantic_model_refusal.sse")
        let events = try StreamFeeding.whole(OpenAIChatTestSupport.translator(), body)
        var refusal = ""
        for case .refusalDelta(let piece) in events { refusal += piece }
        #expect(refusal == Self.recorded)
        #expect(!events.contains(where: Self.isText), "\(events)")
        #expect(events.contains(.finish(.refusal)))
        #expect(try StreamFeeding.byteByByte(OpenAIChatTestSupport.translator(), body) == events)
    }

    /// A pydantic-style mix some compatible servers send: content and refusal pieces stay apart.
    @Test func contentAndRefusalPiecesStayApart() throws {
        let chunk = { (delta: String, finish: String) in
            #"data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":\#(delta),"logprobs":null,"finish_reason":\#(finish)}]}"# + "\n\n"
        }
        let body = chunk(#"{"role":"assistant","content":"Note: "}"#, "null") + chunk(#"{"refusal":"no."}"#, "null") + chunk("{}", #""stop""#) + "data: [DONE]\n\n"
        let events = try StreamFeeding.whole(OpenAIChatTestSupport.translator(), Array(body.utf8))
        #expect(events.filter { if case .start = $0 { false } else { true } } == [.textDelta("Note: "), .refusalDelta("no."), .finish(.refusal)])
    }

    static let refusalAnswer: [ChatStreamEvent] = [
        .start(id: "chatcmpl-r", model: "m"), .refusalDelta("I can't"), .refusalDelta(" help \"with\" that."), .finish(.refusal),
        .usage(Usage(inputTokens: 3, outputTokens: 2)),
    ]

    @Test func aClientGetsRefusalPiecesInDeltaRefusalAndStop() throws {
        var encoder = OpenAIChatStreamEncoder(id: "chatcmpl-r", model: "m", created: 1, includeUsage: true)
        let bytes = Self.refusalAnswer.flatMap { encoder.encode($0) } + encoder.finish()
        var decoder = SSEDecoder()
        let sse = decoder.feed(bytes) + decoder.finish()
        let chunks = try sse.filter { !$0.isDone }.map { try JSONValue.parse($0.data) }
        let choices = chunks.compactMap { $0["choices"]?.arrayValue?.first }
        let deltas = choices.compactMap { $0["delta"] }
        #expect(deltas.compactMap { $0["refusal"]?.stringValue } == ["I can't", " help \"with\" that."])
        #expect(deltas.compactMap { $0["content"]?.stringValue }.joined() == "", "no answer text: \(deltas)")
        #expect(choices.compactMap { $0["finish_reason"]?.stringValue } == ["stop"])
        // The gateway's own reader of OpenAI streams gives back the answer a whole body gives.
        let back = Self.fold(try StreamFeeding.whole(OpenAIChatTestSupport.translator(), bytes))
        let whole = ChatResponse(id: "chatcmpl-r", model: "m", content: [.text("I can't help \"with\" that.")], finishReason: .refusal)
        let wholeBack = try OpenAIChatFormat.parseCompletion(
            OpenAIChatFormat.encodeInboundResponseBytes(whole, id: "chatcmpl-r", model: "m", created: 1), provider: "p")
        #expect(back.content == wholeBack.content && back.finishReason == wholeBack.finishReason && back.finishReason == .refusal)
    }

    /// A content filter (Anthropic's `refusal`, Gemini's `SAFETY`) is `content_filter` streamed, as whole (decision 0114).
    @Test func aContentFilterIsContentFilterStreamedAsWhole() throws {
        var encoder = OpenAIChatStreamEncoder(id: "c", model: "m", created: 1, includeUsage: false)
        let streamed = String(decoding: encoder.encode(.finish(.contentFilter)), as: UTF8.self)
        #expect(streamed.contains(#""finish_reason":"content_filter""#))
        let whole = OpenAIChatFormat.encodeInboundResponse(ChatResponse(id: "c", model: "m", content: [.text("Hello..")], finishReason: .contentFilter),
                                                           id: "c", model: "m", created: 1)
        #expect(whole["choices"]?.arrayValue?.first?["finish_reason"] == "content_filter")
        #expect(whole["choices"]?.arrayValue?.first?["message"]?["content"] == "Hello..")
    }
}
