import SkillGateChat
import SkillGateClient
import Testing

@Suite("ChatSession")
struct ChatSessionTests {
    @Test func firstRequestCarriesTheQuestionModelAndScenario() {
        let session = ChatSession(scenario: "chat", model: "strong")
        #expect(session.request(asking: "hi") == AgentRequest(messages: [.user("hi")], model: "strong", scenario: "chat"))
        #expect(ChatSession(model: "auto").request(asking: "hi") == AgentRequest(messages: [.user("hi")]))
    }

    @Test func conversationIsKeptBetweenTurns() {
        var session = ChatSession()
        session.record(question: "what time is it?", result: TurnResult(text: "07:55 UTC.", ending: .completed))
        session.record(question: "tell me a story", result: TurnResult(text: "Once upon", ending: .stopped))
        #expect(session.request(asking: "go on").messages == [
            .user("what time is it?"), .assistant("07:55 UTC."), .user("tell me a story"), .assistant("Once upon"), .user("go on"),
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
