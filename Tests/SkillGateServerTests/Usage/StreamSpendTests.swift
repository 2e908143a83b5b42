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

    static func failed(_ usage: Usage, estimated: Bool = false) -> GatewayError {
        var e = GatewayError.failedAnswer(.malformedFunctionCall, usage: usage, message: "m", provider: "p")
        e.failedAnswer?.usageEstimated = estimated
        return e
    }

    /// A stream ended by a failed answer after its text went out (decision 0117) is charged what the provider reported
    /// up to it, which the failed answer carries (a Gemini stream's usage is sent on only at its end), not an estimate
    /// (decision 0123).
    @Test func aFailedAnswerEndingTheStreamGivesTheProvidersFigures() {
        var spend = StreamSpend(inputOf: ChatRequest(model: "m", messages: [Message(role: .user, text: "Where is Paris?")]))
        spend.count(.textDelta("Let me look up the country."))
        spend.ended(by: Self.failed(Usage(inputTokens: 2595, outputTokens: 7)))
        #expect(spend.spent.usage == Usage(inputTokens: 2595, outputTokens: 7) && !spend.spent.estimated)
    }

    /// The adapter's estimate (prompt tools, decision 0120) is used when nothing was reported, and stays an estimate; it
    /// never replaces reported figures, and a failed answer without figures, or another error, leaves the estimate.
    @Test func anEstimatedOrEmptyFailedAnswerDoesNotReplaceReportedFigures() {
        var estimated = StreamSpend(inputOf: ChatRequest(model: "m", messages: []))
        estimated.ended(by: Self.failed(Usage(inputTokens: 300, outputTokens: 9), estimated: true))
        #expect(estimated.spent == (Usage(inputTokens: 300, outputTokens: 9), true))
        var reported = StreamSpend(inputOf: ChatRequest(model: "m", messages: []))
        reported.count(.usage(Usage(inputTokens: 40, outputTokens: 2)))
        reported.ended(by: Self.failed(Usage(inputTokens: 300, outputTokens: 9), estimated: true))
        #expect(reported.spent == (Usage(inputTokens: 40, outputTokens: 2), false))
        var empty = StreamSpend(inputOf: ChatRequest(model: "m", messages: []))
        empty.count(.textDelta(String(repeating: "x", count: 400)))
        empty.ended(by: Self.failed(Usage()))
        empty.ended(by: GatewayError.upstreamProtocol("cut", provider: "p"))
        #expect(empty.spent.estimated && empty.spent.usage.outputTokens == 100)
    }
}
