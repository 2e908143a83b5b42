import Testing
import SkillGateCore

@Suite struct TextWindowTests {
    private let window = TextWindow(headBytes: 8, tailBytes: 6)

    @Test(arguments: ["", "short", "exactly-14byte", "天气很好"])
    func aTextWithinTheWindowIsKeptAsItIs(_ text: String) {
        #expect(text.utf8.count <= 14)
        #expect(window.apply(text) == text)
    }

    @Test func aLongerTextKeepsItsStartAndItsEndJoinedByALineBreak() {
        let text = "ask this: " + String(repeating: "pasted ", count: 1_000) + "the end?"
        #expect(window.apply(text) == "ask this\ne end?")
    }

    /// Cuts fall between whole Unicode scalars: a three-byte character that does not fit is left out, never split.
    @Test func cutsNeverSplitAScalar() {
        let text = "ab天气" + String(repeating: "x", count: 100) + "气很好"  // "天" spans bytes 2-4, "气" 5-7
        let windowed = TextWindow(headBytes: 4, tailBytes: 7).apply(text)
        #expect(windowed == "ab\n很好")  // "天" would need bytes up to 5; of the tail's 7 bytes, "气" would need 9
        #expect(!windowed.unicodeScalars.contains("\u{FFFD}"))
        let emoji = String(repeating: "🙂", count: 50)
        let cut = TextWindow(headBytes: 10, tailBytes: 10).apply(emoji)
        #expect(cut == "🙂🙂\n🙂🙂")
    }

    @Test func aWindowWithoutATailKeepsTheStartOnly() {
        #expect(TextWindow(headBytes: 3, tailBytes: 0).apply("abcdef") == "abc\n")
    }
}
