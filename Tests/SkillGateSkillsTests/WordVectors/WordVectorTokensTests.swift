import Testing
import SkillGateSkills

@Suite struct WordVectorTokensTests {
    @Test(arguments: [
        ("Will it RAIN in Lisbon?", ["will", "it", "rain", "in", "lisbon"]),
        ("mp3 player at 6pm, don't", ["mp", "player", "at", "pm", "don", "t"]),
        // 会, 下, 吗 and 好 are function characters: kept in pairs, not alone.
        ("明天会下雨吗", ["明", "天", "明天", "天会", "会下", "雨", "下雨", "雨吗"]),
        ("天气ok 好", ["天", "气", "天气", "ok"]),
        ("café au lait", ["caf", "au", "lait"]),
        ("set_alarm getWeather", ["set", "alarm", "getweather"]),
        ("", []),
        ("12:30 — !!", []),
    ])
    func tokensAreLowerCaseWordsAndHanCharactersWithTheirPairs(_ text: String, _ expected: [String]) {
        #expect(WordVectorTokens.tokens(text) == expected)
    }

    @Test func aWordLongerThanAnyInTheTableIsSkippedNotCut() {
        let long = String(repeating: "a", count: 40)
        #expect(WordVectorTokens.tokens("one \(long) two") == ["one", "two"])
        let limit = String(repeating: "b", count: 32)
        #expect(WordVectorTokens.tokens(limit) == [limit])
    }
}
