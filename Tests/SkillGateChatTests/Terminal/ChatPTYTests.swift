import Foundation
import SkillGateCore
import Testing

/// Drives the built `skillgate` binary through a pseudo-terminal against a fake /v1/agent server.
@Suite("skillgate chat in a pseudo-terminal")
struct ChatPTYTests {
    /// The `skillgate` executable next to the test bundle (swift build --build-tests builds both).
    static func binary() throws -> String {
        let me = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var dir = URL(fileURLWithPath: me).deletingLastPathComponent()
        // The tests run from <build>/debug/SkillGatePackageTests.xctest (a file on Linux).
        if dir.lastPathComponent.hasSuffix(".xctest") { dir.deleteLastPathComponent() }
        let path = dir.appendingPathComponent("skillgate").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw PTYError("\(path) is missing; build it first with `swift build --build-tests`")
        }
        return path
    }

    /// `skillgate chat --url URL --token TOKEN` on a dumb terminal.
    static func chat(url: String, token: String) throws -> PseudoTerminal {
        try PseudoTerminal(executable: try binary(), arguments: ["chat", "--url", url, "--token", token], environment: ["TERM": "dumb"])
    }

    @Test func skillLineCtrlCStopsTheAnswerNextQuestionWorksQuitExits() async throws {
        let server = try FakeAgentServer()
        var environment = ["TERM": "dumb", "PATH": "/usr/bin:/bin"]
        environment["HOME"] = NSTemporaryDirectory()
        let chat = try PseudoTerminal(executable: try Self.binary(),
                                      arguments: ["chat", "--url", server.url, "--token", FakeAgentServer.token],
                                      environment: environment)
        do {
            var at = try await chat.waitFor("> ")

            chat.type("what time is it?\r")
            at = try await chat.waitFor("⚙ current_time {\"timezone\":\"UTC\"} … ✓ 3 ms", after: at)
            at = try await chat.waitFor("The time is 07:55 UTC.", after: at)
            at = try await chat.waitFor("12 in / 5 out tokens", after: at)
            at = try await chat.waitFor("> ", after: at)

            chat.type("tell me a slow story\r")
            at = try await chat.waitFor("Once upon upon", after: at)
            chat.type("\u{03}")
            at = try await chat.waitFor("⏹ stopped", after: at)
            at = try await chat.waitFor("> ", after: at)
            #expect(await server.wait { server.disconnects == 1 }, "the server did not see the connection close")
            let wordsAtStop = chat.screen.components(separatedBy: " upon").count
            try await Task.sleep(for: .milliseconds(400))
            #expect(chat.screen.components(separatedBy: " upon").count == wordsAtStop, "text kept streaming after Ctrl-C")

            chat.type("and now?\r")
            at = try await chat.waitFor("⚙ current_time {\"timezone\":\"UTC\"} … ✓ 3 ms", after: at)
            at = try await chat.waitFor("> ", after: at)

            // The conversation went along: the first answer and the stopped partial answer.
            let third = try #require(server.requests.count == 3 ? server.requests[2] : nil)
            let messages = third["messages"]?.arrayValue ?? []
            #expect(messages.compactMap { $0["role"]?.stringValue } == ["user", "assistant", "user", "assistant", "user"])
            #expect(messages[1]["content"]?.stringValue == "The time is 07:55 UTC.")
            #expect(messages[3]["content"]?.stringValue?.hasPrefix("Once upon") == true)

            chat.type("/quit\r")
            await chat.expectExit(0)
        } catch {
            chat.terminate()
            await server.stop()
            throw error
        }
        chat.terminate()
        await server.stop()
    }

    @Test func ctrlCAtThePromptLeaves() async throws {
        // Nothing is asked, so nothing connects: the URL needs no server.
        let chat = try Self.chat(url: "http://127.0.0.1:9", token: "t")
        defer { chat.terminate() }
        var at = try await chat.waitFor("> ")
        chat.type("half a quest")
        at = try await chat.waitFor("half a quest", after: at)
        chat.type("\u{03}")  // on a half-typed line: discards it, stays
        at = try await chat.waitFor("^C", after: at)
        at = try await chat.waitFor("> ", after: at)
        #expect(!chat.screen.contains("half a questhalf"), "the typed text was echoed twice")
        chat.type("\u{03}")  // on the empty prompt: leaves
        await chat.expectExit(0)
        #expect(chat.isCanonicalWithEcho == true, "Ctrl-C left the terminal without its canonical mode and echo")
    }

    @Test func lineEditingBackspaceAndCtrlU() async throws {
        let server = try FakeAgentServer()
        let chat = try Self.chat(url: server.url, token: FakeAgentServer.token)
        defer { chat.terminate() }
        var at = try await chat.waitFor("> ")
        chat.type("garbage\u{15}timé?\u{7F}\u{7F}e\u{1B}[A!\r")  // Ctrl-U, two Backspaces, an arrow key
        at = try await chat.waitFor("✓ 3 ms", after: at)
        try await chat.waitFor("> ", after: at)
        #expect(server.requests.first?["messages"]?.arrayValue?.last?["content"]?.stringValue == "time!")
        chat.type("/quit\r")
        await chat.expectExit(0)
        #expect(chat.isCanonicalWithEcho == true, "/quit left the terminal without its canonical mode and echo")
        await server.stop()
    }

    @Test func ctrlDAtThePromptLeaves() async throws {
        let chat = try Self.chat(url: "http://127.0.0.1:9", token: "t")
        defer { chat.terminate() }
        try await chat.waitFor("> ")
        chat.type("/help\r")
        try await chat.waitFor("/scenario NAME")
        chat.type("\u{04}")
        await chat.expectExit(0)
    }

    /// Keys typed while an answer streams wait for the next prompt: a Ctrl-D typed during the answer leaves once it
    /// ends, and text typed during it is echoed once, by the prompt that reads it. (The editor used to switch the
    /// terminal back to canonical mode between lines; a Ctrl-D typed then became a NUL byte and was lost, and the
    /// stress runs caught `ctrlDAtThePromptLeaves` waiting forever when its Ctrl-D came that way.)
    @Test func keysTypedDuringAnAnswerAreReadByTheNextPrompt() async throws {
        let server = try FakeAgentServer()
        let chat = try Self.chat(url: server.url, token: FakeAgentServer.token)
        defer { chat.terminate() }
        var at = try await chat.waitFor("> ")
        chat.type("pause please\r")
        at = try await chat.waitFor("Wait", after: at)
        chat.type("typed ahead")
        at = try await chat.waitFor(" done.", after: at)
        at = try await chat.waitFor("> ", after: at)
        at = try await chat.waitFor("typed ahead", after: at)
        #expect(chat.screen.components(separatedBy: "typed ahead").count == 2, "typed-ahead text echoed more than once")
        chat.type("\u{15}pause again\r")  // Ctrl-U drops the typed-ahead text; a second question
        at = try await chat.waitFor("Wait", after: at)
        chat.type("\u{04}")                 // Ctrl-D during the answer
        at = try await chat.waitFor(" done.", after: at)
        await chat.expectExit(0)
        #expect(chat.isCanonicalWithEcho == true, "the terminal was left without its canonical mode and echo")
        #expect(server.requests.compactMap { $0["messages"]?.arrayValue?.last?["content"]?.stringValue } == ["pause please", "pause again"])
        await server.stop()
    }

    @Test func missingTokenSaysHowToCreateOne() async throws {
        let chat = try PseudoTerminal(executable: try Self.binary(), arguments: ["chat", "--url", "http://127.0.0.1:9"],
                                      environment: ["TERM": "dumb"])
        defer { chat.terminate() }
        try await chat.waitFor("skillgate tokens create --name me")
        await chat.expectExit(2)
    }
}
