import Testing
import SkillGateCore
import SkillGateSkills
@testable import SkillGateServer

@Suite struct SkillPolicyTests {
    static let config = #"""
    {"tiers":{"light":["demo/demo-light"],"strong":["demo/demo-strong"]},
     "skill_packs":{"weather":{"skills":["get_weather","current_time"],"pinned":["current_time"]},
                    "office":["send_email","create_event","list_events","translate_text","calculator"]},
     "skills":{"calculator":{"keywords":["math","计算"]}},
     "scenarios":{"chat":{},
                  "assistant":{"skill_packs":["weather","office"],"max_visible_skills":3},
                  "strict":{"skill_packs":["weather"],"disallowed_tools":"reject"}}}
    """#
    /// BM25 alone, so the cuts below are BM25's (ties to the first declared).
    static let policy = SkillPolicy(config: try! SkillConfigTests.load(config), ranker: .bm25)
    /// As the gateway ranks without an embedding model: BM25 and the built-in word vectors.
    static let wordVectorPolicy = SkillPolicy(config: try! SkillConfigTests.load(config))

    static func tools(_ names: [String]) -> [ToolDefinition] {
        names.map { ToolDefinition(name: $0, description: "Tool \($0.replacingOccurrences(of: "_", with: " "))") }
    }

    private func request(_ names: [String], _ text: String = "hello", choice: ToolChoice? = nil) -> ChatRequest {
        ChatRequest(model: "auto", messages: [Message(role: .user, text: text)], tools: Self.tools(names), toolChoice: choice, parallelToolCalls: true)
    }

    @Test func removeModeDropsToolsOutsideThePacksAndSaysSo() async throws {
        var r = request(["get_weather", "delete_files", "current_time", "rm_rf"])
        let d = try await Self.policy.apply(to: &r, scenario: "assistant")
        #expect(r.tools.map(\.name) == ["get_weather", "current_time"])
        #expect(d.removed == ["delete_files", "rm_rf"])
        #expect(d.header == "visible=get_weather,current_time; removed=delete_files,rm_rf; max=3")
        var o = JSONObject()
        d.appendLogFields(to: &o)
        #expect(o["skills_removed"] == ["delete_files", "rm_rf"])
    }

    @Test func rejectModeRefusesWith403NamingToolsAndScenario() async {
        var r = request(["get_weather", "delete_files"])
        await #expect {
            try await Self.policy.apply(to: &r, scenario: "strict")
        } throws: { error in
            guard let e = error as? GatewayError else { return false }
            return e.status == 403 && e.message.contains("\"delete_files\"") && e.message.contains("scenario \"strict\"") && e.param == "tools"
        }
    }

    @Test func toolChoiceNamingARemovedToolIs403() async {
        var r = request(["get_weather", "delete_files"], choice: .named("delete_files"))
        await #expect {
            try await Self.policy.apply(to: &r, scenario: "assistant")
        } throws: { error in
            (error as? GatewayError).map { $0.status == 403 && $0.param == "tool_choice" && $0.message.contains("delete_files") } ?? false
        }
    }

    @Test func whenNoToolIsLeftToolChoiceGoesAwayOrRequiredFails() async throws {
        var r = request(["delete_files"], choice: .auto)
        _ = try await Self.policy.apply(to: &r, scenario: "assistant")
        #expect(r.tools.isEmpty && r.toolChoice == nil && r.parallelToolCalls == nil)
        var required = request(["delete_files"], choice: .required)
        await #expect(throws: GatewayError.self) { try await Self.policy.apply(to: &required, scenario: "assistant") }
    }

    @Test func scenarioWithoutPacksKeepsEveryTool() async throws {
        var r = request(["anything", "at_all"])
        let d = try await Self.policy.apply(to: &r, scenario: "chat")
        #expect(r.tools.count == 2 && d.removed.isEmpty && d.cut.isEmpty)
        var none = request([])
        #expect(try await Self.policy.apply(to: &none, scenario: "chat").header == nil)
    }

    @Test func relevanceCutKeepsPinnedAndTheBestMatches() async throws {
        var r = request(["get_weather", "current_time", "send_email", "create_event", "list_events", "translate_text", "calculator"],
                        "Please email Bob the numbers")
        let d = try await Self.policy.apply(to: &r, scenario: "assistant")
        // current_time is pinned, send_email matches; the last slot goes to the first declared of the rest.
        #expect(r.tools.map(\.name) == ["get_weather", "current_time", "send_email"])
        #expect(d.cut == ["create_event", "list_events", "translate_text", "calculator"])
        #expect(d.header == "visible=get_weather,current_time,send_email; cut=create_event,list_events,translate_text,calculator; max=3; ranking=lexical")
    }

    /// The default ranking without an embedding model: a request that shares no word (and no concept)
    /// with any tool still reaches the right one through the word vectors, and the cut is not blind.
    @Test func withoutASharedWordTheWordVectorsFindTheTool() async throws {
        let names = ["send_email", "create_event", "list_events", "translate_text", "calculator", "get_weather", "current_time"]
        var bm25 = request(names, "stormy in Lisbon tomorrow?")
        let blind = try await Self.policy.apply(to: &bm25, scenario: "assistant")
        #expect(blind.header?.hasSuffix("ranking=lexical; blind") == true, "\(blind.header ?? "")")
        var r = request(names, "stormy in Lisbon tomorrow?")
        let d = try await Self.wordVectorPolicy.apply(to: &r, scenario: "assistant")
        #expect(r.tools.map(\.name).contains("get_weather"))
        #expect(d.header?.hasSuffix("ranking=lexical") == true, "\(d.header ?? "")")
    }

    @Test func chineseQueryUsesConfigKeywords() async throws {
        var r = request(["get_weather", "current_time", "send_email", "create_event", "calculator"], "帮我计算一下这个月的开销")
        _ = try await Self.policy.apply(to: &r, scenario: "assistant")
        #expect(r.tools.map(\.name).contains("calculator"))
        #expect(r.tools.map(\.name).contains("current_time"))
    }

    @Test func aToolNamedByToolChoiceIsNeverCut() async throws {
        var r = request(["get_weather", "current_time", "send_email", "create_event", "list_events"], "weather?", choice: .named("list_events"))
        let d = try await Self.policy.apply(to: &r, scenario: "assistant")
        #expect(r.tools.map(\.name) == ["get_weather", "current_time", "list_events"])
        #expect(!d.cut.contains("list_events"))
    }
}
