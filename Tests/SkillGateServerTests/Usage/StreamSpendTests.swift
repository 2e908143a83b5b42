import Testing
import SkillGateCore
@testable import SkillGateServer

/// A stream cut before its usage came is charged an estimate of the output seen: a refusal's text counts as answer
/// text does (decision 0114), so a cut refusal is charged as its whole answer would be.
@Suite struct StreamSpendTests {
    @Test(arguments: [ChatStreamEvent.textDelta(String(repeating: "x", count: 400)), .refusalDelta(String(repeating: "x", count: 400))])
    func refusalTextCountsAsAnswerText(_ piece: ChatStreamEvent) {
        var spend = StreamSpend(inputOf: ChatRequest(model: "m", messages: []))
        spend.count(piece)
        #expect(spend.outputBytes == 400)
        #expect(spend.spent.estimated && spend.spent.usage.outputTokens > 0)
    }
}
