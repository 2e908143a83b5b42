import Testing
import SkillGateCore
import SkillGateRouting
@testable import SkillGateEval

@Suite struct EvaluationTallyTests {
    private func example(_ id: String, _ text: String, strong: Bool, lang: String) -> RoutingExample {
        RoutingExample(id: id, request: ChatRequest(model: "auto", messages: [Message(role: .user, text: text)]), strong: strong, lang: lang, kind: "k")
    }

    @Test func routingAgreementIsCountedPerClassAndLanguage() {
        let xs = [example("a", "Prove it rigorously, step by step", strong: true, lang: "en"),
                  example("b", "hi", strong: false, lang: "en"),
                  example("c", "hello", strong: true, lang: "zh")]
        let e = RoutingEvaluation.run(.markers(TierScorer()), on: xs, timed: false)
        #expect(e.overall.hits == 2 && e.overall.total == 3)
        #expect(e.byClass["strong"]?.hits == 1 && e.byClass["strong"]?.total == 2)
        #expect(e.byLanguage["zh/strong"]?.hits == 0)
        #expect(e.misses.map(\.id) == ["c"])
        #expect(e.render(title: "t").contains("66.7% (2/3)"))
    }

    @Test func recallNeedsEveryExpectedToolAndNoToolRequestsAreCountedApart() async {
        let requests = [
            SkillsCorpus.Request(id: "1", lang: "en", category: "en", messages: [], expected: ["a"], split: "test"),
            SkillsCorpus.Request(id: "2", lang: "zh", category: "cross", messages: [], expected: ["a", "b"], split: "test"),
            SkillsCorpus.Request(id: "3", lang: "en", category: "none", messages: [], expected: [], split: "test"),
        ]
        let e = await SkillsEvaluation.run(requests, k: 2) { _ in .init(kept: ["a", "c"], blind: false, ranking: "lexical") }
        #expect(e.recall["all"]?.hits == 1 && e.recall["all"]?.total == 2)
        #expect(e.recall["cross"]?.hits == 0)
        #expect(e.requestsWithoutTool == 1 && e.decisions == 3)
        #expect(e.render(title: "t").contains("mean visible tools: 2.00"))
    }
}
