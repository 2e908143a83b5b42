import Testing
import SkillGateCore
import SkillGateSkills
@testable import SkillGateServer

@Suite struct AgentConfigTests {
    private func load(_ json: String) throws -> GatewayConfig {
        try GatewayConfig(json: try JSONValue.parse(json), file: "test.json", baseDirectory: "/etc/skillgate")
    }

    @Test func defaults() async throws {
        let a = try load("{}").agent
        #expect(a.maxIterations == 5 && a.maxResultBytes == 16_384 && a.maxSkillTimeoutSeconds == 60 && a.maxSkillCallsPerTurn == 16 && a.maxRunSeconds == 600)
    }

    @Test func readsEverySetting() async throws {
        let a = try load(#"{"agent":{"max_iterations":8,"max_result_bytes":4096,"max_skill_timeout_seconds":2.5,"max_skill_calls_per_turn":4,"max_run_seconds":90}}"#).agent
        #expect(a.maxIterations == 8 && a.maxResultBytes == 4096 && a.maxSkillTimeoutSeconds == 2.5 && a.maxSkillCallsPerTurn == 4 && a.maxRunSeconds == 90)
    }

    @Test(arguments: [
        (#"{"agent":{"iterations":3}}"#, "$.agent.iterations", "unknown key"),
        (#"{"agent":{"max_iterations":0}}"#, "$.agent.max_iterations", "between 1 and 50"),
        (#"{"agent":{"max_result_bytes":10}}"#, "$.agent.max_result_bytes", "at least 256"),
        (#"{"agent":{"max_skill_timeout_seconds":0}}"#, "$.agent.max_skill_timeout_seconds", "positive"),
        (#"{"agent":{"max_skill_calls_per_turn":0}}"#, "$.agent.max_skill_calls_per_turn", "between 1 and 128"),
        (#"{"agent":{"max_run_seconds":0}}"#, "$.agent.max_run_seconds", "between 1 and 3600"),
        (#"{"agent":{"max_run_seconds":7200}}"#, "$.agent.max_run_seconds", "between 1 and 3600"),
    ])
    func badSettingsNameTheirPath(_ json: String, _ path: String, _ fragment: String) {
        do {
            _ = try load(json)
            Issue.record("expected an error at \(path)")
        } catch let error as JSONShapeError {
            #expect(error.path == path, "\(error)")
            #expect(error.message.contains(fragment), "\(error.message)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func serverSkillsJoinTheVisibleSetOnlyThroughTheScenarioPacks() async throws {
        let config = try load(#"""
        {"skill_packs":{"p":["clock","get_weather"]},"scenarios":{"chat":{"skill_packs":["p"]},"open":{}}}
        """#)
        let policy = SkillPolicy(config: config)
        let registry = try SkillRegistry([TestSkill.fixed("clock", "now"), TestSkill.fixed("notes", "n")])
        var request = ChatRequest(model: "auto", messages: [Message(role: .user, text: "hi")])
        let decision = try await policy.apply(to: &request, scenario: "chat", serverSkills: registry)
        #expect(request.tools.map(\.name) == ["clock"])
        #expect(decision.serverSkills == ["clock"])
        #expect(decision.header == "visible=clock")
        var open = ChatRequest(model: "auto", messages: [Message(role: .user, text: "hi")])
        #expect(try await policy.apply(to: &open, scenario: "open", serverSkills: registry).serverSkills.isEmpty)
        #expect(open.tools.isEmpty)
    }

    /// The definitions joined to a request are the registry's, schemas kept as text: every request copies the same
    /// text, and a form derived from it (Gemini's sanitised schema) is made once for all of them (decision 0070).
    @Test func serverSkillsJoinWithTheRegistrysTextSchemas() async throws {
        let config = try load(#"""
        {"skill_packs":{"p":["lookup"]},"scenarios":{"chat":{"skill_packs":["p"]}}}
        """#)
        let schema: JSONValue = ["type": "object", "properties": ["q": ["type": "string"]], "required": ["q"]]
        let registry = try SkillRegistry([TestSkill.fixed("lookup", "found", parameters: schema)])
        let policy = SkillPolicy(config: config)
        let form = ToolSchema.DerivedForm("test.policy")
        var made = 0
        for _ in 0..<3 {
            var request = ChatRequest(model: "auto", messages: [Message(role: .user, text: "look it up")])
            _ = try await policy.apply(to: &request, scenario: "chat", serverSkills: registry)
            let tool = try #require(request.tools.first)
            #expect(tool.schema.isText && tool.parameters == schema && tool.description == "Test skill lookup")
            _ = tool.schema.derived(form) { made += 1; return $0.compactText }
        }
        #expect(made == 1)
    }

    @Test func serverSkillsAreSubjectToTheVisibleCap() async throws {
        let config = try load(#"""
        {"skill_packs":{"p":["clock","get_weather","notes"]},"scenarios":{"chat":{"skill_packs":["p"],"max_visible_skills":1}}}
        """#)
        let registry = try SkillRegistry([TestSkill.fixed("clock", "now"), TestSkill.fixed("notes", "n")])
        var request = ChatRequest(model: "auto", messages: [Message(role: .user, text: "what is the weather in Oslo")],
                                  tools: [ToolDefinition(name: "get_weather", description: "Current weather for a city")])
        let decision = try await SkillPolicy(config: config).apply(to: &request, scenario: "chat", serverSkills: registry)
        #expect(request.tools.count == 1)
        #expect(decision.cut.count == 2)
        #expect(decision.visible == ["get_weather"])
        #expect(decision.serverSkills.isEmpty)
    }
}
