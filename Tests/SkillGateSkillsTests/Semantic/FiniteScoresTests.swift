import Testing
@testable import SkillGateSkills

@Suite struct FiniteScoresTests {
    @Test func aNonFiniteScoreBecomesTheLowestOfTheOthers() {
        #expect(FiniteScores.cleaned([0.4, .nan, 0.9, -.infinity, 0.1]) == [0.4, 0.1, 0.9, 0.1, 0.1])
        #expect(FiniteScores.cleaned([0.4, 0.9]) == [0.4, 0.9])
        #expect(FiniteScores.cleaned([]) == [])
    }

    @Test func aRankingWithoutAFiniteScoreIsAMalformedAnswer() {
        #expect(FiniteScores.cleaned([.nan, .nan, .infinity]) == nil)
        let result = FiniteScores.checked([.nan, .nan], of: "the skill descriptions", model: "acme/embed-1")
        guard case .failure(let e) = result else { Issue.record("expected a failure"); return }
        #expect(e.kind == .malformed && e.reason == "embeddings_malformed")
        #expect(e.message.hasPrefix("no similarity of the request with the skill descriptions is a finite number"), "\(e.message)")
    }
}
