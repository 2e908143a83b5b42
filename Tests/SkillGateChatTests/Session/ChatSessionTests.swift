import SkillGateChat
import SkillGateCore
import Testing

@Suite("ChatSession")
struct ChatSessionTests {
    @Test func firstRequestCarriesTheQuestionModelAndScenario() {
        let session = ChatSession(scenario: "chat", model: "strong")
        #expect(session.requestBody(asking: "hi") == [
            "messages": [["role": "user", "content": "hi"]], "model": "strong", "scenario": "chat",
        ])
        #expect(ChatSession(model: "auto").requestBody(asking: "hi") == ["messages": [["role": "user", "content": "hi"]]])
    }

    @Test func conversationIsKeptBetweenTurns() {
        var session = ChatSession()
        session.record(question: "what time is it?", result: TurnResult(text: "07:55 UTC.", ending: .completed))
        session.record(question: "tell me a story", result: TurnResult(text: "Once upon", ending: .stopped))
        let body = session.requestBody(asking: "go on")
        #expect(body["messages"] == [
            ["role": "user", "content": "what time is it?"], ["role": "assistant", "content": "07:55 UTC."],
            ["role": "user", "content": "tell me a story"], ["role": "assistant", "content": "Once upon"],
            ["role": "user", "content": "go on"],
        ])
    }

    @Test(arguments: [TurnEnding.stopped, .failed, .completed, .transportError("down")])
    func turnsWithoutTextAreLeftOut(_ ending: TurnEnding) {
        var session = ChatSession()
        session.record(question: "q", result: TurnResult(text: "", ending: ending))
        #expect(session.messages.isEmpty)
    }

    @Test func commandsChangeTheSession() {
        var session = ChatSession()
        session.record(question: "q", result: TurnResult(text: "a", ending: .completed))
        #expect(session.apply(.scenario("research")) == .say("scenario: research"))
        #expect(session.scenario == "research")
        #expect(session.apply(.scenario("none")) == .say("scenario: none (the server's default)"))
        #expect(session.scenario == nil)
        #expect(session.apply(.model("light")) == .say("model: light"))
        #expect(session.apply(.model(nil)) == .say("model: light"))
        #expect(session.apply(.model("auto")) == .say("model: auto"))
        #expect(session.model == nil)
        #expect(session.apply(.reset) == .say("conversation cleared (2 messages forgotten)"))
        #expect(session.messages.isEmpty)
        #expect(session.apply(.quit) == .quit)
        #expect(session.apply(.help) == .say(ChatInput.helpText))
    }
}

@Suite("ChatDefaults")
struct ChatDefaultsTests {
    @Test(arguments: [
        ("127.0.0.1", 8080, "http://127.0.0.1:8080"),
        ("0.0.0.0", 9000, "http://127.0.0.1:9000"),
        ("::", 8080, "http://[::1]:8080"),
        ("::1", 8080, "http://[::1]:8080"),
        ("[::1]", 8080, "http://[::1]:8080"),
        ("10.1.2.3", 80, "http://10.1.2.3:80"),
    ])
    func baseURLFromTheListenAddress(_ host: String, _ port: Int, _ url: String) {
        #expect(ChatDefaults.baseURL(host: host, port: port) == url)
    }

    @Test func tokenFromOptionThenEnvironment() {
        #expect(ChatDefaults.token(option: "a", environment: ["SKILLGATE_TOKEN": "b"]) == "a")
        #expect(ChatDefaults.token(option: nil, environment: ["SKILLGATE_TOKEN": "b"]) == "b")
        #expect(ChatDefaults.token(option: "", environment: ["SKILLGATE_TOKEN": ""]) == nil)
        #expect(ChatDefaults.missingTokenMessage.contains("skillgate tokens create --name me"))
    }
}
