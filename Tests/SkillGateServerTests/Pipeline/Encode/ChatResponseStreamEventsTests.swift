import Testing
import SkillGateCore
@testable import SkillGateServer

/// A whole answer streamed to a client (after skills ran, for instance) gives the events a provider would have sent:
/// a refusal's text as refusal pieces, so each client format shows it as it shows a streamed refusal (decision 0114).
@Suite struct ChatResponseStreamEventsTests {
    @Test(arguments: [(FinishReason.refusal, true), (.stop, false), (.contentFilter, false)])
    func aRefusalsTextStreamsAsRefusalText(_ reason: FinishReason, _ refused: Bool) {
        let response = ChatResponse(id: "r", model: "m", content: [.text("I can't help.")], finishReason: reason, usage: Usage(inputTokens: 1, outputTokens: 2))
        let text: ChatStreamEvent = refused ? .refusalDelta("I can't help.") : .textDelta("I can't help.")
        #expect(response.streamEvents(fallbackId: "f", model: "m") == [.start(id: "r", model: "m"), text, .finish(reason), .usage(response.usage)])
    }
}
