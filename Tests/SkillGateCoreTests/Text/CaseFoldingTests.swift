import Testing
import SkillGateCore

/// Unicode simple case folding (decision 0124): one scalar for one scalar, the same for every case of a letter.
@Suite struct CaseFoldingTests {
    @Test func lettersOfEveryCaseFoldAlike() {
        let pairs: [(String, String)] = [
            ("Über ÄRGER", "über ärger"), ("STRAẞE", "straße"), ("ΟΔΟΣ", "οδοσ"), ("οδος", "οδοσ"), ("ΆΣΤΥ", "άστυ"),
            ("МОСКВА Ёж", "москва ёж"), ("ＳｋｉｌｌＧａｔｅ", "ｓｋｉｌｌｇａｔｅ"), ("ǅ", "ǆ"), ("\u{212A}", "k"), ("ſ", "s"),
            ("µ", "μ"), ("ϐ", "β"), ("\u{1FBE}", "ι"), ("\u{13A0}", "\u{13A0}"), ("\u{AB70}", "\u{13A0}"), ("ᾈ", "ᾀ"),
        ]
        for (text, folded) in pairs { #expect(CaseFolding.folded(text) == folded, "\(text)") }
    }

    @Test func whatSimpleFoldingLeavesStays() {
        // No case (Chinese, kana, digits), the full folding's several scalars (ß, ŉ, ﬀ, ᾳ), the Turkic rules (İ, ı).
        for text in ["会议记录：明天上午十点", "メモ 123", "ß", "ŉ", "ﬀ", "ᾳ", "İ", "ı", "a\u{0}b", ""] {
            #expect(CaseFolding.folded(text) == text, "\(text)")
        }
        #expect(CaseFolding.folded("MiXeD 100% ASCII_!") == "mixed 100% ascii_!")
        let lower = "already folded"
        #expect(CaseFolding.folded(lower) == lower)
    }

    @Test func aFoldedTextHasAsManyScalars() {
        let text = "İSTANBUL ß ΣΊΣΥΦΟΣ Ǆ e\u{301}\u{301} 🇩🇪 ＡＢＣ"
        #expect(CaseFolding.folded(text).unicodeScalars.count == text.unicodeScalars.count)
        #expect(CaseFolding.folded(CaseFolding.folded(text)) == CaseFolding.folded(text), "folding twice changes nothing")
    }
}
