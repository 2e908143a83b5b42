import Testing
import SkillGateCore

/// `quotedExcerpt`: how a message quotes someone else's text of any length.
@Suite struct StringExcerptTests {
    @Test func aShortTextIsQuotedWhole() {
        #expect("tools/list".quotedExcerpt(100) == #""tools/list""#)
        #expect(String(repeating: "é", count: 100).quotedExcerpt(100) == "\"" + String(repeating: "é", count: 100) + "\"",
                "characters are counted, not bytes")
    }

    @Test func aLongTextIsQuotedByItsStartAndLength() {
        let long = String(repeating: "x", count: 4 << 20)
        #expect(long.quotedExcerpt(5) == #""xxxxx…" (4194304 bytes)"#)
        #expect("ab😀".quotedExcerpt(2) == #""ab…" (6 bytes)"#)
    }
}
