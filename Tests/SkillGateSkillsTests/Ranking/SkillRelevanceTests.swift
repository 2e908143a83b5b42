import Testing
import SkillGateCore
@testable import SkillGateSkills

@Suite struct SkillRelevanceTests {
    /// A realistic mix of skills; some with config metadata (keywords in Chinese), some with only
    /// the client's description.
    static let candidates: [SkillCandidate] = [
        SkillCandidate(name: "current_time", description: "The current date and time in a time zone"),
        SkillCandidate(name: "get_weather", description: "Current weather and forecast for a city",
                       metadata: SkillMetadata(keywords: ["rain", "temperature", "天气", "气温", "下雨"])),
        SkillCandidate(name: "send_email", description: "Send an email to a contact",
                       metadata: SkillMetadata(keywords: ["mail", "邮件", "发邮件"])),
        SkillCandidate(name: "create_calendar_event", description: "Create an event in the user's calendar",
                       metadata: SkillMetadata(keywords: ["meeting", "appointment", "日程", "会议"])),
        SkillCandidate(name: "list_calendar_events", description: "List the events of a day in the calendar"),
        SkillCandidate(name: "book_flight", description: "Book a flight between two airports",
                       metadata: SkillMetadata(keywords: ["plane", "ticket", "机票", "航班"])),
        SkillCandidate(name: "translate_text", description: "Translate text into another language",
                       metadata: SkillMetadata(keywords: ["翻译"])),
        SkillCandidate(name: "calculator", description: "Evaluate an arithmetic expression",
                       metadata: SkillMetadata(keywords: ["math", "计算"])),
        SkillCandidate(name: "play_music", description: "Play a song or playlist"),
        SkillCandidate(name: "set_reminder", description: "Remind the user at a time",
                       metadata: SkillMetadata(keywords: ["提醒", "alarm"])),
        SkillCandidate(name: "lookup_stock", description: "查询股票的实时价格"),
    ]

    private func top(_ text: String, limit: Int, pinned: Set<String> = []) -> RelevanceCut {
        SkillRelevance.select(Self.candidates, query: SkillRelevance.query(from: [Message(role: .user, text: text)]),
                              limit: limit, pinned: pinned)
    }

    @Test(arguments: [
        ("Will it rain in Paris tomorrow? What temperature?", "get_weather"),
        ("Book me a plane ticket to Tokyo", "book_flight"),
        ("Please email the report to Alice", "send_email"),
        ("Schedule a meeting with the team on Friday", "create_calendar_event"),
        ("What is 17 * 23? do the math", "calculator"),
        ("明天北京天气怎么样？会下雨吗", "get_weather"),
        ("帮我订一张去上海的机票", "book_flight"),
        ("把这段话翻译成英文", "translate_text"),
        ("给老板发邮件说我迟到了", "send_email"),
        ("三点提醒我开会", "set_reminder"),
        ("腾讯股票现在多少钱", "lookup_stock"),
    ])
    func mostRelevantSkillIsKept(_ query: String, _ expected: String) {
        let cut = top(query, limit: 1)
        #expect(cut.kept == [expected], "scores: \(cut.scores.filter { $0.value > 0 })")
        #expect(cut.cut.count == Self.candidates.count - 1)
    }

    @Test func pinnedSkillsAreAlwaysKeptAndTakeSlots() {
        let cut = top("Will it rain in Paris tomorrow?", limit: 3, pinned: ["current_time", "play_music"])
        #expect(Set(cut.kept) == ["current_time", "play_music", "get_weather"])
        // Kept names stay in declaration order.
        #expect(cut.kept == ["current_time", "get_weather", "play_music"])
        #expect(!cut.cut.contains("current_time") && !cut.cut.contains("play_music"))
    }

    @Test func pinnedBeyondTheLimitAreAllKept() {
        let cut = top("weather", limit: 1, pinned: ["current_time", "calculator"])
        #expect(cut.kept == ["current_time", "calculator"])
    }

    @Test func zeroScoresFillRemainingSlotsInDeclarationOrder() {
        let cut = top("zzz qqq", limit: 2)
        #expect(cut.kept == ["current_time", "get_weather"])
        #expect(cut.cut.first == "send_email")
    }

    @Test func underTheLimitNothingIsCut() {
        let cut = SkillRelevance.select(Array(Self.candidates.prefix(3)), query: RelevanceQuery(["weather": 1]), limit: 5, pinned: [])
        #expect(cut.kept.count == 3 && cut.cut.isEmpty)
    }

    @Test func queryWeighsTheLatestUserTurnsAndSkipsToolResults() {
        let messages = [
            Message(role: .user, text: "old topic: music"),
            Message(role: .user, text: "earlier: calendar"),
            Message(role: .assistant, text: "ok"),
            Message(role: .user, text: "now: weather"),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "c", text: "sunny"))]),
            Message(role: .user, content: [.toolResult(ToolResult(callId: "d", text: "email"))]),
        ]
        let q = SkillRelevance.query(from: messages)
        #expect(q["weather"] == 1.0)
        #expect(q["calendar"] == 0.5)
        #expect(q["music"] == 0.25)
        #expect(q["email"] == nil && q["sunny"] == nil)
    }

    @Test func laterTurnOutranksEarlierTurn() {
        let messages = [Message(role: .user, text: "play some music"), Message(role: .user, text: "actually, book a flight")]
        let cut = SkillRelevance.select(Self.candidates, query: SkillRelevance.query(from: messages), limit: 2, pinned: [])
        #expect(cut.kept == ["book_flight", "play_music"])
        #expect(cut.scores["book_flight"]! > cut.scores["play_music"]!)
    }

    @Test func cachedDocumentsRankTheSameAndAreReused() {
        let cache = SkillDocumentCache(capacity: 100)
        let q = SkillRelevance.query(from: [Message(role: .user, text: "明天北京天气怎么样")])
        let plain = SkillRelevance.select(Self.candidates, query: q, limit: 3, pinned: [])
        let first = SkillRelevance.select(Self.candidates, query: q, limit: 3, pinned: [], cache: cache)
        let second = SkillRelevance.select(Self.candidates, query: q, limit: 3, pinned: [], cache: cache)
        #expect(first == plain && second == plain)
        #expect(cache.count == Self.candidates.count)
        // A changed description is a different document.
        var changed = Self.candidates
        changed[0].description = "Weather and rain forecast 天气"
        let third = SkillRelevance.select(changed, query: q, limit: 1, pinned: [], cache: cache)
        #expect(cache.count == Self.candidates.count + 1)
        #expect(third.scores["current_time"]! > 0)
    }

    @Test func theCacheStartsOverWhenFull() {
        let cache = SkillDocumentCache(capacity: 4)
        let before = cache.entries(for: Array(Self.candidates.prefix(3))).identities
        let after = cache.entries(for: Array(Self.candidates.suffix(3))).identities
        #expect(cache.count == 3)
        #expect(Set(before).isDisjoint(with: after), "identities are never reused, even after starting over: \(before) \(after)")
    }

    /// Past `maxBytes` the cache starts over too (decision 0083): clients declaring ever-new long descriptions cannot
    /// grow it by the documents' size, only up to about the bound.
    @Test func theCacheStartsOverPastItsBytes() {
        let cache = SkillDocumentCache(capacity: 1_000, maxBytes: 40_000)
        var most = 0
        for request in 0..<30 {
            let tools = (0..<3).map { i in
                SkillCandidate(name: "tool_\(i)", description: (0..<150).map { "\(DistinctWord.make(request * 1_000 + i * 200 + $0))" }.joined(separator: " "))
            }
            _ = cache.entries(for: tools)
            most = max(most, cache.bytes)
        }
        #expect(most <= 40_000, "the cache held \(most) bytes")
        #expect(cache.count < 90, "it started over")
        #expect(cache.bytes > 0)
    }

    /// A client's description and the parameters' text are read through `SkillCandidate.textWindow` (decision 0083).
    @Test func aLongDescriptionIsReadThroughTheWindow() {
        let long = "Looks up an invoice by its number. " + (0..<40_000).map { DistinctWord.make($0) }.joined(separator: " ")
            + " Returns the invoice."
        let candidate = SkillCandidate(name: "lookup_invoice", description: long)
        let window = SkillCandidate.textWindow
        #expect(candidate.description == window.apply(long))
        #expect((candidate.description?.utf8.count ?? 0) <= window.headBytes + window.tailBytes + 1)
        let document = candidate.document
        #expect(document.keys.count < 1_000, "a document of \(document.keys.count) terms")
        let middle = SkillRelevance.query(from: [Message(role: .user, text: DistinctWord.make(20_000))])
        let first = SkillRelevance.query(from: [Message(role: .user, text: "invoice")])
        #expect(SkillRelevance.select([candidate, SkillCandidate(name: "other")], query: middle, limit: 1, pinned: []).scores["lookup_invoice"] == 0)
        #expect(SkillRelevance.select([candidate, SkillCandidate(name: "other")], query: first, limit: 1, pinned: []).scores["lookup_invoice"]! > 0)
    }

    /// Identities name (name, description) pairs: the same pair keeps its identity from request to request
    /// (whatever the order), a changed description gets a new one.
    @Test func identitiesNameEachSkillAcrossRequests() {
        let cache = SkillDocumentCache(capacity: 100)
        let first = cache.entries(for: Self.candidates)
        #expect(Set(first.identities).count == Self.candidates.count)
        #expect(first.documents == Self.candidates.map(\.document))
        let again = cache.entries(for: Self.candidates.reversed())
        #expect(again.identities == first.identities.reversed())
        var changed = Self.candidates
        changed[0].description = "Something else entirely"
        let third = cache.entries(for: changed).identities
        #expect(third[0] != first.identities[0] && Array(third.dropFirst()) == Array(first.identities.dropFirst()))
    }

    @Test func bm25PrefersRarerTermsAndShorterDocuments() {
        let scores = BM25().scores(documents: [["a", "b"], ["a", "c", "d", "e", "f", "g"], ["c"]], query: ["a": 1, "b": 1])
        #expect(scores[0] > scores[1] && scores[2] == 0)
    }
}

@Suite struct SkillRelevanceConversationTests {
    static let tools = [SkillCandidate(name: "get_weather_forecast", description: "Forecast for a city and date"),
                        SkillCandidate(name: "send_email", description: "Send an email"),
                        SkillCandidate(name: "play_song", description: "Play a song"),
                        SkillCandidate(name: "book_table", description: "Reserve a restaurant table")]

    @Test func aRecentToolCallCarriesAFollowUp() {
        let messages = [
            Message(role: .user, text: "What's it like in Paris tomorrow?"),
            Message(role: .assistant, content: [.toolCall(ToolCall(id: "c1", name: "get_weather_forecast", arguments: "{}"))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "c1", text: "{\"sky\":\"rain\"}"))]),
            Message(role: .assistant, text: "Rain, 2-7°C."),
            Message(role: .user, text: "and on Friday?"),
        ]
        let q = SkillRelevance.query(from: messages)
        #expect(q["forecast"] == SkillRelevance.recentCallWeights[0])
        #expect(q["rain"] == SkillRelevance.assistantTextWeight)
        #expect(SkillRelevance.select(Self.tools, query: q, limit: 1, pinned: []).kept == ["get_weather_forecast"])
    }

    @Test func parametersAreSearched() {
        let tool = ToolDefinition(name: "convert", description: "Convert a value",
                                  parameters: ["type": "object", "properties": ["unit": ["type": "string", "description": "Target unit", "enum": ["celsius", "fahrenheit"]]]])
        let c = SkillCandidate(tool: tool)
        #expect(c.parameterText == "unit Target unit celsius fahrenheit")
        #expect(c.terms.contains("fahrenheit"))
        #expect(SkillCandidate(tool: ToolDefinition(name: "x")).parameterText == nil)
    }

    @Test func aCutWithNoSignalIsBlindAndSemanticScoresRankIt() {
        let q = SkillRelevance.query(from: [Message(role: .user, text: "zzzz qqqq")])
        let blind = SkillRelevance.select(Self.tools, query: q, limit: 2, pinned: [])
        #expect(blind.blind && blind.kept == ["get_weather_forecast", "send_email"])
        let semantic = SkillRelevance.select(Self.tools, query: q, limit: 2, pinned: [], semantic: [0.1, 0.2, 0.9, 0.8])
        #expect(!semantic.blind && semantic.kept == ["play_song", "book_table"])
    }

    @Test func fusionScalesBothListsAndMixesThem() {
        let fused = RelevanceFusion.fuse(lexical: [0, 2, 4], semantic: [0.80, 0.90, 0.85], lexicalWeight: 0.5)
        #expect(zip(fused, [0, 0.75, 0.75]).allSatisfy { abs($0 - $1) < 1e-12 })
        #expect(RelevanceFusion.fuse(lexical: [0, 0], semantic: [0.5, 0.5]) == [0, 0])
    }

    /// Decision 0102: a NaN similarity counts as the lowest; it neither hides the others (a NaN first made every
    /// similarity 0, so the first declared skills were kept) nor lands anywhere in between.
    @Test func aNonFiniteSimilarityCountsAsTheLowest() {
        let fused = RelevanceFusion.fuse(lexical: [0, 0, 0, 0], semantic: [.nan, 0.2, 0.9, .infinity], lexicalWeight: 0.5)
        #expect(fused == [0, 0, 0.5, 0], "\(fused)")
        #expect(RelevanceFusion.blend([.nan, 2, 3, 1], [0, .nan, 2, 1], secondWeight: 0.5) == [0, 0.25, 1, 0.25])
    }

    @Test func theSemanticQueryJoinsTheLastUserTurnsNewestFirst() {
        let messages = [Message(role: .user, text: "weather in Oslo"), Message(role: .assistant, text: "cold"), Message(role: .user, text: "and tomorrow?")]
        #expect(SkillRelevance.semanticQuery(from: messages) == "and tomorrow?\nweather in Oslo")
        #expect(SkillCandidate(name: "get_weather", description: "Weather now").embeddingText == "get weather: Weather now")
    }

    /// A long turn is read through `SkillRelevance.turnWindow` (decision 0078): words deep inside a paste are not
    /// query terms, and the query is that of the turn's window.
    @Test func aLongTurnIsReadThroughItsWindow() {
        let long = "Book a flight to Tokyo for the team offsite, details below:\n"
            + (0..<20_000).map { "\(DistinctWord.make($0)) weather forecast" }.joined(separator: "\n") + "\nThanks!"
        let whole = SkillRelevance.query(from: [Message(role: .user, text: long)])
        let window = SkillRelevance.query(from: [Message(role: .user, text: SkillRelevance.turnWindow.apply(long))])
        let same = whole == window  // as a Boolean: a failure would otherwise print every query term
        #expect(same, "the whole turn gave \(whole.weights.count) query terms, its window \(window.weights.count)")
        #expect(whole["flight"] != nil)
        #expect(whole[DistinctWord.make(19_999)] != nil)  // the last line's
        #expect(whole[DistinctWord.make(10_000)] == nil)
        let semantic = SkillRelevance.semanticQuery(from: [Message(role: .user, text: long)])
        #expect(semantic.utf8.count < 8_200 && semantic == SkillRelevance.turnWindow.apply(long))
    }
}

/// A word of letters only, different for each `n` ("qxa", "qxb", ...): no tokenizer folds two of them together.
private enum DistinctWord {
    static func make(_ n: Int) -> String {
        var n = n, letters = ""
        repeat { letters.append(Character(Unicode.Scalar(UInt8(97 + n % 26)))); n /= 26 } while n > 0
        return "qx" + letters
    }
}
