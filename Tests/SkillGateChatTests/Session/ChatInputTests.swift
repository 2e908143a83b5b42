import SkillGateChat
import Testing

@Suite("ChatInput: the command interpreter")
struct ChatInputTests {
    @Test(arguments: [
        ("what time is it?", ChatInput.message("what time is it?")),
        ("  padded  ", .message("padded")),
        ("", .empty),
        ("   ", .empty),
        ("/scenario research", .scenario("research")),
        ("/scenario", .scenario(nil)),
        ("/model strong", .model("strong")),
        ("/MODEL openai/gpt-4o-mini", .model("openai/gpt-4o-mini")),
        ("/model", .model(nil)),
        ("/reset", .reset),
        ("/help", .help),
        ("/quit", .quit),
        ("/exit", .quit),
        ("//etc/hosts is a file", .message("/etc/hosts is a file")),
    ])
    func interprets(_ line: String, _ expected: ChatInput) {
        #expect(ChatInput.parse(line) == expected)
    }

    @Test(arguments: ["/frobnicate", "/model a b", "/quit now", "/"])
    func rejectsWithAHint(_ line: String) {
        guard case .invalid(let message) = ChatInput.parse(line) else {
            Issue.record("\(line) should be invalid"); return
        }
        #expect(!message.isEmpty)
    }

    @Test func unknownCommandPointsToHelp() {
        #expect(ChatInput.parse("/frobnicate") == .invalid("unknown command /frobnicate; type /help for the commands, or start the line with // to send it as text"))
    }
}
