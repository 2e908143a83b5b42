import Testing
import SkillGateCore
@testable import SkillGateRouting

@Suite struct LearnedTierScorerTests {
    static let model: RouterModel = {
        var options = RouterTrainer.Options()
        options.hashBits = 12
        return RouterTrainer(options: options).fit(RouterTrainerTests.examples)
    }()

    private func request(_ text: String) -> ChatRequest { ChatRequest(model: "auto", messages: [Message(role: .user, text: text)]) }

    @Test func contributionsAndTheBiasSumToTheLogOdds() {
        let d = LearnedTierScorer(model: Self.model).decide(request("Prove it by induction and include tests"))
        let logit = Self.model.bias + d.contributions.map(\.value).reduce(0, +)
        #expect(abs(LearnedTierScorer.sigmoid(logit) - d.score) < 1e-9)
        #expect(d.contributions.contains { $0.name == "words" })
        #expect(d.input != nil && d.source == .score)
    }

    @Test func theScenarioLeanShiftsTheLogOddsBothWays() {
        let s = LearnedTierScorer(model: Self.model, scenarioLean: 2)
        let r = request("what does this do")
        let none = s.decide(r).score, up = s.decide(r, scenarioLean: .strong).score, down = s.decide(r, scenarioLean: .light).score
        #expect(down < none && none < up)
        #expect(s.decide(r, scenarioLean: .strong).contributions.contains { $0.name == "scenario_default" && $0.value == 2 })
    }

    @Test func aHintForcesTheTierAndKeepsTheScore() {
        let s = LearnedTierScorer(model: Self.model)
        let d = s.decide(request("hi there"), hint: .strong)
        #expect(d.tier == .strong && d.source == .header)
        #expect(d.headerValue() == "tier=strong; by=header")
    }

    @Test func theThresholdDecides() {
        let r = request("translate good night into French")
        let p = LearnedTierScorer(model: Self.model).probability(r)
        #expect(LearnedTierScorer(model: Self.model, threshold: p - 0.01).decide(r).tier == .strong)
        #expect(LearnedTierScorer(model: Self.model, threshold: min(0.999, p + 0.01)).decide(r).tier == .light)
    }

    @Test func explainListsTheWordsThatWeighMostWithTheirText() {
        let r = ChatRequest(model: "auto", messages: [Message(role: .user, text: "Implement a queue"), Message(role: .assistant, text: "ok"),
                                                     Message(role: .user, text: "now prove it")])
        let d = LearnedTierScorer(model: Self.model).decide(r, explain: true)
        #expect(!d.terms.isEmpty && d.terms.count <= 10)
        #expect(d.terms.contains { $0.term == "prove" && !$0.fromContext })
        #expect(d.terms.contains { $0.fromContext })
        #expect(zip(d.terms, d.terms.dropFirst()).allSatisfy { abs($0.value) >= abs($1.value) })
        #expect(LearnedTierScorer(model: Self.model).decide(r).terms.isEmpty)
    }

    @Test func theHeaderIsASCIIAndNamesTheTopReasons() {
        let d = LearnedTierScorer(model: Self.model).decide(request("证明存在无穷多个素数，并给出详细推导"))
        let h = d.headerValue()
        let ascii = h.allSatisfy { $0.isASCII }
        #expect(ascii)
        #expect(h.hasPrefix("tier=") && h.contains("; by=score; score=") && h.contains("reasons="))
    }

    @Test func earlierTurnsReachTheModelApartFromTheTask() {
        let r = ChatRequest(model: "auto", messages: [Message(role: .user, text: "Implement a thread-safe queue"),
                                                     Message(role: .assistant, text: "```swift\nactor Q {}\n```"),
                                                     Message(role: .user, text: "now add tests")])
        let input = RouterInput(request: r, hashBits: 12)
        #expect(input.taskGramCount > 0 && input.buckets.count > input.taskGramCount)
        #expect(input[.technicalContext] == 1)
        let alone = RouterInput(request: request("now add tests"), hashBits: 12)
        #expect(alone.buckets.count == alone.taskGramCount && alone[.technicalContext] == 0)
    }
}
