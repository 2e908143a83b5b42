import Testing
@testable import SkillGateSkills

@Suite struct SkillTokenizerTests {
    @Test(arguments: [
        ("get_weather", ["get", "weath"]),
        ("getWeatherForecast", ["get", "weath", "forecast"]),
        ("Send an e-mail to Bob", ["send", "e", "mail", "bob"]),
        ("Lists calendar events", ["list", "calendar", "event"]),
        ("class address", ["class", "address"]),
        ("Zürich 2026", ["zürich"]),
        ("call mom at 6pm", ["call", "mom", "pm"]),
        ("What is 15% of 238?", ["percent"]),
        ("costs $20 or 20€, 21°C", ["cost", "currency", "currency", "degree", "c"]),
        ("set2Alarms", ["set", "alarm"]),
    ])
    func englishWords(_ text: String, _ expected: [String]) {
        #expect(SkillTokenizer.terms(text, concepts: false) == expected)
    }

    @Test func chineseRunsGiveCharactersAndBigrams() {
        #expect(SkillTokenizer.terms("天气预报", concepts: false) == ["天", "天气", "气", "气预", "预", "预报", "报"])
        #expect(SkillTokenizer.terms("查询weather天气", concepts: false) == ["查", "查询", "询", "weath", "天", "天气", "气"])
        #expect(SkillTokenizer.terms("机票，航班", concepts: false) == ["机", "机票", "票", "航", "航班", "班"])
    }

    @Test func japaneseAndKoreanAreSplitLikeChinese() {
        #expect(SkillTokenizer.terms("天気", concepts: false).contains("天気"))
        #expect(SkillTokenizer.terms("날씨", concepts: false).contains("날씨"))
    }

    @Test(arguments: ["getWeatherForecast for Zürich", "明天北京天气怎么样？会下雨吗 rains", "This is THE plan, please", ""])
    func keysAreTheKeysOfTheTerms(_ text: String) {
        #expect(SkillTokenizer.termKeys(text) == SkillTokenizer.terms(text).map(SkillDocument.key))
        let candidate = SkillCandidate(name: "get_weather", description: text, metadata: SkillMetadata(description: "天气", keywords: ["rain"]))
        #expect(candidate.document == SkillDocument(terms: candidate.terms))
    }

    @Test func stopWordsAndPunctuationAreDropped() {
        #expect(SkillTokenizer.terms("What is the weather, please?", concepts: false) == ["weath"])
    }

    @Test func chineseFunctionCharactersCountOnlyInsidePairs() {
        #expect(SkillTokenizer.terms("我的日历", concepts: false) == ["我的", "的日", "日", "日历", "历"])
        #expect(SkillTokenizer.terms("下单", concepts: false) == ["下单", "单"])
    }

    @Test func aChineseRequestDoesNotMatchAChineseToolThroughFunctionCharactersAlone() {
        // Before, 我, 的 and 和 alone gave the Chinese tool a score for a request about something else.
        let tools = [
            SkillCandidate(name: "query_credit_card_bill", description: "查询我的信用卡账单和还款日"),
            SkillCandidate(name: "play_song", description: "Play a song by title or artist."),
        ]
        let terms = SkillTokenizer.terms("帮我和他放一首歌", concepts: false)
        for function in ["我", "和", "的"] { #expect(!terms.contains(function)) }
        let shared = Set(tools[0].terms).intersection(terms)
        #expect(shared.isEmpty, "shared terms: \(shared)")
    }

    @Test(arguments: [
        (["remind", "reminder", "reminders", "reminded", "reminding"], "remind"),
        (["book", "booking", "booked", "books"], "book"),
        (["calculate", "calculator", "calculation", "calculated"], "calcul"),
        (["schedule", "scheduled", "scheduling", "schedules"], "schedul"),
        (["transfer", "transferred", "transferring", "transfers"], "transf"),
        (["pay", "payment", "payments"], "pay"),
        (["run", "running", "runs"], "run"),
        (["battery", "batteries"], "battery"),
    ])
    func formsOfAWordMeetAtOneStem(_ forms: [String], _ stem: String) {
        for form in forms { #expect(SkillTokenizer.terms(form, concepts: false) == [stem], "\(form)") }
    }

    @Test(arguments: ["user", "bus", "class", "analysis", "install", "access"])
    func shortStemsAndDoubleLettersAreKept(_ word: String) {
        #expect(SkillTokenizer.terms(word, concepts: false) == [word])
    }
}
