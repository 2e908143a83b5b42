import Foundation
import Testing
import SkillGateCore
@testable import SkillGateProviders

/// Refusals and the Anthropic format (decision 0114). Upstream, `stop_reason: "refusal"` is Anthropic's streaming
/// classifiers cutting the answer: a content filter, whole or streamed, its text ordinary text. Towards an Anthropic
/// client, an OpenAI refusal's pieces are text and the stop reason `refusal`, as the whole answer has them.
@Suite struct AnthropicRefusalStreamTests {
    static func fold(_ events: [ChatStreamEvent]) -> ChatResponse {
        var acc = ChatResponseAccumulator()
        events.forEach { acc.apply($0) }
        return acc.response
    }

    @Test func anUpstreamRefusalIsAContentFilterStreamedAndWhole() throws {
        let events = try AnthropicTestSupport.events(try Fixtures.bytes("anthropic/skillgate-refusal.sse"))
        #expect(events.contains(.finish(.contentFilter)), "\(events)")
        #expect(!events.contains { if case .refusalDelta = $0 { true } else { false } })
        let streamed = Self.fold(events)
        let whole = try AnthropicTestSupport.format.parseResponse(try Fixtures.bytes("anthropic/skillgate-refusal.json"),
                                                                  deployment: AnthropicTestSupport.deployment)
        #expect(streamed == whole)
        #expect(whole.content == [.text("Hello..")] && whole.finishReason == .contentFilter)
    }

    @Test func aClientGetsRefusalPiecesAsTextWithStopReasonRefusal() throws {
        var encoder = AnthropicMessagesSSEEncoder(fallbackId: "msg_r", fallbackModel: "m", sendPing: false)
        let events: [ChatStreamEvent] = [.start(id: "msg_r", model: "m"), .refusalDelta("I can't"), .refusalDelta(" help."), .finish(.refusal),
                                         .usage(Usage(inputTokens: 3, outputTokens: 2))]
        let text = String(decoding: events.flatMap { encoder.encode($0) } + encoder.finish(), as: UTF8.self)
        #expect(text.contains(#"{"type":"text_delta","text":"I can't"}"#) && text.contains(#"{"type":"text_delta","text":" help."}"#), "\(text)")
        #expect(text.components(separatedBy: "event: content_block_start").count == 2, "one text block")
        #expect(text.contains(#""stop_reason":"refusal""#))
        let whole = String(decoding: AnthropicMessagesFormat.inboundResponseBytes(
            ChatResponse(id: "msg_r", model: "m", content: [.text("I can't help.")], finishReason: .refusal)), as: UTF8.self)
        #expect(whole.contains(#"{"type":"text","text":"I can't help."}"#) && whole.contains(#""stop_reason":"refusal""#), "\(whole)")
    }
}
