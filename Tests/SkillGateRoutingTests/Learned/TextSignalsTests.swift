import Testing
@testable import SkillGateRouting

@Suite struct TextSignalsTests {
    private func scan(_ text: String, spans: Bool = false) -> TextSignals {
        var s = TextSignals(seed: 1, keepSpans: spans)
        s.scan(text)
        return s
    }

    private func terms(_ text: String) -> [String] {
        let s = scan(text, spans: true)
        let bytes = Array(text.utf8)
        return s.spans.map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    @Test func englishWordsGiveUnigramsAndBigramsAndNumbersOneToken() {
        #expect(terms("Add unit tests") == ["Add", "unit", "Add unit", "tests", "unit tests"])
        #expect(terms("top 10 rows") == ["top", "10", "top 10", "rows", "10 rows"])
        // Sentence punctuation ends a bigram chain.
        #expect(terms("done. next") == ["done", "next"])
    }

    @Test func chineseGivesCharactersAndBigrams() {
        #expect(terms("写代码") == ["写", "代", "写代", "码", "代码"])
    }

    @Test func theSameNGramHashesTheSameAndSeedsSeparateTexts() {
        var a = TextSignals(seed: 1), b = TextSignals(seed: 1), c = TextSignals(seed: 2)
        a.scan("unit tests"); b.scan("more unit tests"); c.scan("unit tests")
        #expect(Set(a.grams).isSubset(of: Set(b.grams)))
        #expect(Set(a.grams).isDisjoint(with: Set(c.grams)))
    }

    @Test func countsQuestionsListItemsDataLinesAndNumbers() {
        let s = scan("""
        Two questions? And a third？
        1. first item
        2) second item
        - bullet
        ① 圈号
        （1）括号
        name,qty,price
        apple,3,1.20
        a|b|c
        """)
        #expect(s.questionMarks == 2)
        #expect(s.listItems == 5)
        #expect(s.dataLines == 3)
        #expect(s.numbers == 6)  // 1, 2, 1, 3, 1, 20
        #expect(s.lines == 9)
    }

    @Test func countsDemandPhrasesInEnglishAndChinese() {
        let s = scan("Write a detailed report and also include unit tests; it must stay under budget. 请详细说明，并且不超过500字，合同条款也要看。")
        #expect(s.demand[DemandCategory.outputLength.rawValue] == 5)  // detailed, report, tests, unit tests, 详细
        #expect(s.demand[DemandCategory.asks.rawValue] == 3)          // also, include, 并且
        #expect(s.demand[DemandCategory.constraints.rawValue] == 4)   // must, under, budget, 不超过
        #expect(s.demand[DemandCategory.legal.rawValue] == 2)         // 合同, 条款
    }

    @Test func englishPhrasesMatchWholeWordsOnly() {
        #expect(scan("translation").demand[DemandCategory.lightIntent.rawValue] == 1)
        #expect(scan("untranslatable").demand[DemandCategory.lightIntent.rawValue] == 0)
        #expect(scan("one sentence please").demand[DemandCategory.brevity.rawValue] == 1)
    }

    @Test(arguments: ["", "????", "\n\n\n", "🙂🙂", "\u{FFFD}abc", "字字"])
    func oddInputIsSafe(_ text: String) {
        for t in [text, String(repeating: text, count: 500)] {
            let s = scan(t)
            #expect(s.bytes == t.utf8.count)
        }
    }

    @Test(arguments: ["1. first", "2) second", "- bullet", "* star", "① 圈号", "（1）括号", "• dot", "3、第三"])
    func listItemStarts(_ line: String) {
        #expect(scan("intro\n" + line).listItems == 1)
        #expect(scan("intro " + line).listItems == 0 || line.hasPrefix("①") || line.hasPrefix("•"))
    }
}
