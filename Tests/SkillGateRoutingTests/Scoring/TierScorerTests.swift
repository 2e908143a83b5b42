import Testing
import SkillGateCore
@testable import SkillGateRouting

@Suite struct TierScorerTests {
    private func request(_ text: String, _ edit: (inout ChatRequest) -> Void = { _ in }) -> ChatRequest {
        var r = ChatRequest(model: "auto", messages: [Message(role: .user, text: text)])
        edit(&r)
        return r
    }

    private func decide(_ r: ChatRequest, hint: RouteTier? = nil, lean: RouteTier? = nil, weights: RoutingWeights = .defaults) -> TierDecision {
        TierScorer(weights: weights).decide(TaskFeatures(request: r), hint: hint, scenarioLean: lean)
    }

    @Test func contributionsAreSortedBySizeAndSumToTheScore() {
        let d = decide(request("Prove it. ```\nx\n```") { $0.maxTokens = 8000 })
        #expect(d.contributions.map(\.feature) == [.reasoning, .codeBlocks, .maxTokens])
        #expect(abs(d.score - (0.7 + 0.2 + 0.2)) < 1e-9)
        #expect(abs(d.contributions.map(\.value).reduce(0, +) - d.score) < 1e-9)
        #expect(d.tier == .strong)
    }

    @Test func headerHintForcesTheTierEitherWay() {
        let hard = request("Prove the theorem step by step.")
        let easy = request("hello")
        #expect(decide(hard, hint: .light).tier == .light)
        #expect(decide(easy, hint: .strong).tier == .strong)
        #expect(decide(easy, hint: .strong).source == .header)
        #expect(decide(easy, hint: .strong).headerValue() == "tier=strong; by=header")
    }

    @Test(arguments: [("light", RouteTier.light), ("STRONG", .strong), (" strong ", .strong)])
    func hintParses(_ value: String, _ tier: RouteTier) throws {
        #expect(try TierHint.parse(value) == tier)
    }

    @Test func hintAutoOrEmptyMeansNoHintAndTyposAreCallerErrors() throws {
        #expect(try TierHint.parse(nil) == nil)
        #expect(try TierHint.parse("") == nil)
        #expect(try TierHint.parse("auto") == nil)
        do {
            _ = try TierHint.parse("medium")
            Issue.record("expected an error")
        } catch {
            #expect(error.status == 400)
            #expect(error.param == "x-skillgate-tier")
            #expect(error.message.contains("light") && error.message.contains("medium"))
        }
    }

    @Test func scenarioLeanTipsBorderlineTasks() {
        let borderline = request("Analyze these sales figures and compare the regions.") // reasoning 0.9 × 0.7 = 0.63
        #expect(decide(borderline).tier == .strong)
        #expect(decide(borderline, lean: .light).tier == .light)   // 0.48
        let mild = request("Compare these two phones and tell me why one is cheaper.") // 0.7 × 0.7 = 0.49
        #expect(decide(mild).tier == .light)
        #expect(decide(mild, lean: .strong).tier == .strong)       // 0.64
        let lean = decide(mild, lean: .light).contributions.first { $0.feature == .scenarioDefault }
        #expect(lean?.value == -0.15)
    }

    @Test func nonTextFeaturesCount() {
        #expect(decide(request("hi") { $0.thinking = ThinkingConfig(enabled: true) }).tier == .strong)
        #expect(decide(request("hi") { $0.thinking = ThinkingConfig(enabled: false) }).tier == .light)
        let huge = String(repeating: "lorem ipsum dolor sit amet ", count: 2000) // ~13.5k tokens
        let long = decide(request(huge))
        #expect(long.contributions.first?.feature == .promptSize)
        #expect(long.contributions.first?.value == 0.3)
        let json = decide(request("extract the fields") { $0.responseFormat = ["type": "json_object"] })
        #expect(json.contributions.map(\.feature) == [.structuredOutput] && json.tier == .light)
        let toolResult = decide(ChatRequest(model: "auto", messages: [
            Message(role: .user, text: "weather?"),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "1", text: "sunny"))]),
        ]))
        #expect(toolResult.contributions.map(\.feature) == [.toolResult])
        #expect(toolResult.score == -0.1)
    }

    @Test func weightsAndThresholdChangeTheOutcome() {
        let r = request("Why is the sky blue?")
        #expect(decide(r).tier == .light)
        #expect(decide(r, weights: RoutingWeights(strongThreshold: 0.2)).tier == .strong)
        #expect(decide(r, weights: RoutingWeights(overrides: [.reasoning: 2])).tier == .strong)
        #expect(decide(request("Prove it"), weights: RoutingWeights(overrides: [.reasoning: 0])).contributions.isEmpty)
    }

    @Test func headerValueIsShortAsciiAndNamesTheTopReasons() {
        let d = decide(request("证明这个定理，分析复杂度并优化代码：```\nx\n```"))
        let h = d.headerValue()
        #expect(h.hasPrefix("tier=strong; by=score; score="))
        #expect(h.contains("reasons=reasoning(+0.70),math(+0.50),code(+0.36)"))
        #expect(h.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F })
        #expect(h.utf8.count < 120)
        #expect(decide(request("hello")).headerValue() == "tier=light; by=score; score=0.00; reasons=none")
    }

    @Test(arguments: [(0.72, false, "0.72"), (0.3, true, "+0.30"), (-0.15, true, "-0.15"), (1.005, false, "1.00"), (-0.001, false, "0.00"), (12.5, true, "+12.50")])
    func formatsTwoDecimals(_ value: Double, _ signed: Bool, _ text: String) {
        #expect(TierDecision.format(value, signed: signed) == text)
    }
}
