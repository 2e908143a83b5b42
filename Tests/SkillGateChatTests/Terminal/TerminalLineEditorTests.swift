@testable import SkillGateChat
import Testing

@Suite("TerminalLineEditor pieces")
struct TerminalLineEditorTests {
    @Test func backspaceRemovesWholeUTF8Characters() {
        var line = Array("aé😀".utf8)
        #expect(TerminalLineEditor.dropLastCharacter(&line))
        #expect(line == Array("aé".utf8))
        #expect(TerminalLineEditor.dropLastCharacter(&line))
        #expect(line == Array("a".utf8))
        #expect(TerminalLineEditor.dropLastCharacter(&line))
        #expect(line.isEmpty)
        #expect(!TerminalLineEditor.dropLastCharacter(&line))
    }

    @Test(arguments: ["\u{1B}[A", "\u{1B}[1;5C", "\u{1B}OP", "\u{1B}[3~"])
    func escapeSequencesAreSwallowedWhole(_ sequence: String) {
        var skipper = EscapeSkipper()
        let bytes = Array((sequence + "x").utf8)
        let kept = bytes.filter { !skipper.consume($0) }
        #expect(kept == [UInt8(ascii: "x")])
    }
}
