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

    /// A lexicon word's key as the table holds it: an English word's stem, a Chinese word whole.
    private static func lexiconKey(_ word: String) -> Int {
        SkillDocument.key(word.utf8.allSatisfy({ $0 < 0x80 }) ? SkillTokenizer.terms(word, concepts: false)[0] : word)
    }

    @Test func aBroaderLinkGivesTheWordAndItsWholeGroupTheTopic() {
        let table = ConceptLexicon.build("rain drizzle 下雨\nweather forecast 天气\nsnow", broader: "weather: rain 冰雹 nowhere\nunknown: snow")
        func concepts(_ word: String) -> Set<Int32> { Set(table[Self.lexiconKey(word)] ?? []) }
        #expect(concepts("rain") == [0, 1])
        #expect(concepts("drizzle") == [0, 1], "the whole group of a linked word")
        #expect(concepts("下雨") == [0, 1])
        #expect(concepts("冰雹") == [1], "a word in no group gets the topic alone")
        #expect(concepts("weather") == [1] && concepts("forecast") == [1], "links go one way")
        #expect(concepts("snow") == [2], "a topic in no group links nothing")
    }

    @Test(arguments: [ConceptLexicon.broader, ConceptLexicon.colloquial])
    func theShippedLinksNameTopicsThatExist(_ links: String) {
        for line in links.split(separator: "\n") {
            let topic = line.split(separator: ":")[0]
            #expect(ConceptLexicon.table[Self.lexiconKey(String(topic))] != nil, "topic \(topic) is in no group")
        }
    }

    @Test func rainMeetsAWeatherForecast() {
        #expect(!concepts("will it rain this weekend").isDisjoint(with: concepts("Get the daily weather forecast")))
    }

    @Test func aColloquialWordMeetsTheToolsWord() {
        #expect(!concepts("put on some tunes").isDisjoint(with: concepts("Play music from the user's library")))
        #expect(!concepts("tmrw").isDisjoint(with: concepts("tomorrow")))
        #expect(concepts("zebra tunes").count == concepts("tunes").count, "an unknown word adds nothing")
    }
}
