import Foundation
import Testing
import SkillGateCore
import SkillGateSkills

@Suite struct WordVectorScorerTests {
    /// Tools written for this test (not from the evaluation corpus), English descriptions.
    static let tools = [
        SkillCandidate(name: "send_email", description: "Send an email message to a contact."),
        SkillCandidate(name: "get_weather_forecast", description: "Weather forecast for the coming days in a city."),
        SkillCandidate(name: "set_alarm", description: "Set an alarm on the phone's clock."),
        SkillCandidate(name: "play_music", description: "Play a song, an album or a playlist."),
        SkillCandidate(name: "book_taxi", description: "Book a taxi ride to an address."),
        SkillCandidate(name: "pay_invoice", description: "Pay an open invoice from the bank account."),
    ]

    static func best(_ text: String) throws -> String {
        let scorer = try #require(WordVectorScorer.builtIn)
        let s = try #require(scorer.similarities(messages: [Message(role: .user, text: text)], candidates: tools))
        return tools[s.indices.max { s[$0] < s[$1] }!].name
    }

    /// Requests that share no word with the right tool's text, in English and in Chinese.
    @Test(arguments: [
        ("will it rain in Lisbon this weekend?", "get_weather_forecast"),
        ("put on some jazz", "play_music"),
        ("明天会下雨吗", "get_weather_forecast"),
        ("放一首周杰伦的歌", "play_music"),
        ("帮我叫辆出租车去机场", "book_taxi"),
    ])
    func theRightToolIsNearestWithoutASharedWord(_ text: String, _ tool: String) throws {
        #expect(try Self.best(text) == tool)
    }

    @Test func aQueryWithNoWordInTheTableHasNoSimilarities() throws {
        let scorer = try #require(WordVectorScorer.builtIn)
        #expect(scorer.similarities(messages: [Message(role: .user, text: "12345 !!! 😀")], candidates: Self.tools) == nil)
        #expect(scorer.similarities(messages: [], candidates: Self.tools) == nil)
        #expect(scorer.similarities(messages: [Message(role: .user, text: "hello")], candidates: []) == [])
    }

    /// Two-dimensional words make the arithmetic checkable: "x" and "y" each occur in two of three
    /// skills, so both weigh ln(1 + 3/3); "x y" is their normalised sum.
    @Test func similaritiesAreCosinesOfRarityWeightedSums() throws {
        let table = try SmallWordVectorTable.table([("x", [1, 0]), ("y", [0, 1]), ("z", [0, -1])])
        let scorer = WordVectorScorer(table: table)
        let candidates = [SkillCandidate(name: "x"), SkillCandidate(name: "y"), SkillCandidate(name: "x", description: "y")]
        let s = try #require(scorer.similarities(query: [(text: "x", weight: 1)], candidates: candidates))
        #expect(abs(s[0] - 1) < 1e-6 && abs(s[1]) < 1e-6 && abs(s[2] - 0.5.squareRoot()) < 1e-6, "\(s)")
        // A word no skill has weighs ln(1 + 3/1) = 2 ln 2; at turn weight ½ it balances "x" (ln 2), so the
        // query points between x and −y.
        let t = try #require(scorer.similarities(query: [(text: "x", weight: 1), (text: "z", weight: 0.5)], candidates: candidates))
        let half = 0.5.squareRoot()
        #expect(abs(t[0] - half) < 1e-5 && abs(t[1] + half) < 1e-5 && abs(t[2]) < 1e-5, "\(t)")
    }

    @Test func skillSetsAreCachedByTheirTextsWithinTheCapacity() throws {
        let table = try SmallWordVectorTable.table([("x", [1, 0]), ("y", [0, 1])])
        let scorer = WordVectorScorer(table: table, capacity: 2)
        let a = [SkillCandidate(name: "x"), SkillCandidate(name: "y")]
        let query: [(text: String, weight: Float)] = [("x", 1)]
        _ = scorer.similarities(query: query, candidates: a)
        _ = scorer.similarities(query: query, candidates: a)
        #expect(scorer.cachedSets == 1)
        let b = [SkillCandidate(name: "x"), SkillCandidate(name: "y", description: "x")]
        let s = try #require(scorer.similarities(query: query, candidates: b))
        #expect(scorer.cachedSets == 2)
        #expect(s[1] > 0, "a changed description is a new set, not the cached one")
        _ = scorer.similarities(query: query, candidates: [SkillCandidate(name: "y")])
        #expect(scorer.cachedSets <= 2)
    }

    /// Past `maxSkills` skills in all the cache starts over (decision 0083): ever-new large tool lists cannot grow it
    /// by their size, only up to about the bound.
    @Test func skillSetsStayWithinTheirSkills() throws {
        let table = try SmallWordVectorTable.table([("x", [1, 0]), ("y", [0, 1])])
        let scorer = WordVectorScorer(table: table, capacity: 64, maxSkills: 100)
        var most = 0
        for request in 0..<20 {
            let candidates = (0..<30).map { SkillCandidate(name: "tool_\(request)_\($0)", description: $0 % 2 == 0 ? "x" : "y") }
            _ = scorer.similarities(query: [("x", 1)], candidates: candidates)
            most = max(most, scorer.cachedSkills)
        }
        #expect(most <= 100, "the sets held \(most) skills")
        #expect(scorer.cachedSets < 20 && scorer.cachedSkills > 0)
    }

    /// With identities (as `SkillRanker` passes them from the document cache) the set is found by them,
    /// and the answer is the same as by the texts.
    @Test func identitiesNameTheSetWithoutComparingTexts() throws {
        let table = try SmallWordVectorTable.table([("x", [1, 0]), ("y", [0, 1])])
        let scorer = WordVectorScorer(table: table)
        let documents = SkillDocumentCache()
        let candidates = [SkillCandidate(name: "x"), SkillCandidate(name: "y"), SkillCandidate(name: "x", description: "y")]
        let query: [(text: String, weight: Float)] = [("x", 1)]
        let byText = scorer.similarities(query: query, candidates: candidates)
        let ids = documents.entries(for: candidates).identities
        #expect(scorer.similarities(query: query, candidates: candidates, identities: ids) == byText)
        #expect(scorer.similarities(query: query, candidates: candidates, identities: documents.entries(for: candidates).identities) == byText)
        #expect(scorer.cachedSets == 2, "one set by text, one by identities")
        var changed = candidates
        changed[1].description = "x"
        let s = try #require(scorer.similarities(query: query, candidates: changed, identities: documents.entries(for: changed).identities))
        #expect(scorer.cachedSets == 3 && s[1] > 0.5, "a changed description has a new identity, so a new set (y: x now has x in it)")
    }
}
