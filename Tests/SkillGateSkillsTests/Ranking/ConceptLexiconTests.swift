import Testing
@testable import SkillGateSkills

@Suite struct ConceptLexiconTests {
    private func concepts(_ text: String) -> Set<Int> {
        Set(SkillTokenizer.termKeys(text)).intersection(ConceptLexicon.conceptKeys)
    }

    @Test func theLexiconIsLargeAndEveryGroupIsUsable() {
        #expect(ConceptLexicon.groupCount >= 300)
        #expect(ConceptLexicon.table.count > 1500)
    }

    @Test(arguments: [
        ("remind me to call mom", "set a reminder"),
        ("wake me up at 7", "alarm clock"),
        ("提醒我明天交房租", "Create a reminder"),
        ("明天天气怎么样", "weather forecast for a city"),
        ("I'm freezing in here", "heating thermostat"),
        ("打车去机场", "book a ride"),
    ])
    func paraphrasesAndOtherLanguagesShareAConcept(_ request: String, _ description: String) {
        #expect(!concepts(request).isDisjoint(with: concepts(description)), "\(request) / \(description)")
    }

    @Test func conceptTermsAreAddedNextToTheWords() {
        let terms = SkillTokenizer.terms("reminder")
        #expect(terms.first == "remind")
        #expect(terms.count > 1 && terms.dropFirst().allSatisfy { $0.hasPrefix("\u{1}c") })
        #expect(SkillTokenizer.termKeys("reminder") == terms.map(SkillDocument.key))
        #expect(SkillTokenizer.terms("zebra") == ["zebra"])
    }

    @Test func aParaphraseRanksTheRightToolLexically() {
        let tools = [SkillCandidate(name: "set_alarm", description: "Set an alarm for a time"),
                     SkillCandidate(name: "send_email", description: "Send an email message"),
                     SkillCandidate(name: "get_weather", description: "Current weather for a city")]
        let q = SkillRelevance.query(from: [.init(role: .user, text: "wake me up at 6 tomorrow")])
        #expect(SkillRelevance.select(tools, query: q, limit: 1, pinned: []).kept == ["set_alarm"])
    }
}
