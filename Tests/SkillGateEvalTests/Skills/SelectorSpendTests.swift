import Testing
import SkillGateCore
@testable import SkillGateEval

/// `skillgate eval skills` with a selector model: one call per request (no second pass for the timing), and
/// what the calls spent in the report, so an operator sees a model's cost per 1,000 requests before turning it on.
@Suite struct SelectorSpendTests {
    static let requests = [
        SkillsCorpus.Request(id: "1", lang: "en", category: "en", messages: [], expected: ["a"], split: "dev"),
        SkillsCorpus.Request(id: "2", lang: "zh", category: "cross", messages: [], expected: ["b"], split: "dev"),
        SkillsCorpus.Request(id: "3", lang: "en", category: "none", messages: [], expected: [], split: "dev"),
        SkillsCorpus.Request(id: "4", lang: "en", category: "en", messages: [], expected: ["a"], split: "dev"),
    ]

    /// Request 4's selector timed out (asked, nothing spent).
    static func outcome(_ r: SkillsCorpus.Request, priced: Bool) -> SkillsEvaluation.Outcome {
        let answered = r.id != "4"
        return .init(kept: ["a"], blind: false, ranking: answered ? "hybrid + selector=chose" : "hybrid + selector=failed(selector_timeout)",
                     askedSelector: true, selectorUsage: answered ? Usage(inputTokens: 400, outputTokens: 10) : nil,
                     selectorCostUSD: answered && priced ? 0.0002 : nil)
    }

    @Test func aSelectorRunAsksOncePerRequestAndReportsWhatItSpent() async {
        var calls = 0
        let e = await SkillsEvaluation.run(Self.requests, k: 5, timingPass: false) { r in
            calls += 1
            return Self.outcome(r, priced: true)
        }
        #expect(calls == 4, "one call per request")
        #expect(e.selector.calls == 4 && e.selector.answered == 3 && e.selector.usage.inputTokens == 1200)
        let text = e.render(title: "t")
        #expect(text.contains("selector: 4 calls, 3 answered, mean 400 input + 10 output tokens, $0.0006 in all ($0.150 per 1,000 requests)"), "\(text)")
    }

    @Test func aModelWithoutAPriceSaysSo() async {
        let e = await SkillsEvaluation.run(Self.requests, k: 5, timingPass: false) { Self.outcome($0, priced: false) }
        #expect(e.render(title: "t").contains("selector: 4 calls, 3 answered, mean 400 input + 10 output tokens; no catalog price for the model, so no cost"))
    }

    @Test func rankingsWithoutASelectorAreTimedInASecondPassAndSayNothingOfOne() async {
        var calls = 0
        let e = await SkillsEvaluation.run(Self.requests, k: 5) { _ in
            calls += 1
            return .init(kept: ["a"], blind: false, ranking: "lexical")
        }
        #expect(calls == 8)
        #expect(!e.render(title: "t").contains("selector:"))
    }
}
