import SkillGateCore
import Testing

@Suite struct FilePathTests {
    @Test func joining() {
        #expect(FilePath.join("/etc/skillgate", "providers") == "/etc/skillgate/providers")
        #expect(FilePath.join("/etc/skillgate/", "providers") == "/etc/skillgate/providers")
        #expect(FilePath.join("", "providers") == "providers")
        #expect(FilePath.join("/", "x") == "/x")
    }

    @Test func components() {
        #expect(FilePath.lastComponent("/a/b.json") == "b.json")
        #expect(FilePath.lastComponent("b.json") == "b.json")
        #expect(FilePath.lastComponent("/a/dir/") == "dir")
        #expect(FilePath.directory(of: "/a/b.json") == "/a")
        #expect(FilePath.directory(of: "b.json") == "")
        #expect(FilePath.directory(of: "/b.json") == "/")
        #expect(FilePath.deletingExtension("openai.json") == "openai")
        #expect(FilePath.deletingExtension(".hidden") == ".hidden")
        #expect(FilePath.deletingExtension("a.b.c") == "a.b")
    }

    @Test func cFormatAndTrimming() {
        #expect(CFormat.string("%.12g", 0.1 + 0.2) == "0.3")
        #expect(CFormat.string("$%.2f/$%.2f", 0.15, 0.6) == "$0.15/$0.60")
        #expect(CFormat.string("%0200d", 7) == String(repeating: "0", count: 199) + "7")   // longer than the first buffer
        #expect(" \t a b \n".trimmingWhitespace() == "a b")
        #expect("\u{3000}中文\u{3000}".trimmingWhitespace() == "中文")
        #expect("   ".trimmingWhitespace() == "")
        #expect("plain".trimmingWhitespace() == "plain")
    }
}
