import Testing
import SkillGateCore
import SkillGateProviders
import SkillGateSkills
@testable import SkillGateServer

@Suite struct SkillConfigTests {
    static func load(_ json: String) throws -> GatewayConfig {
        try GatewayConfig(json: try JSONValue.parse(json), file: "test.json", baseDirectory: "/etc/skillgate")
    }

    static let tiers = #""tiers":{"light":["demo/demo-light"],"strong":["demo/demo-strong"]}"#

    @Test func packsAreArraysOrObjectsWithPinnedSkills() throws {
        let c = try Self.load(#"""
        {\#(Self.tiers),
         "skill_packs":{"calendar":["create_event","list_events","create_event"],
                        "travel":{"skills":["get_weather","book_flight"],"pinned":["get_weather"],"description":"trips"}},
         "skills":{"get_weather":{"description":"Weather for a city","keywords":["forecast","天气"]}},
         "scenarios":{"assistant":{"skill_packs":["calendar","travel"],"max_visible_skills":2,"disallowed_tools":"reject",
                                   "escalate":true,"escalate_to":"strong"},
                      "chat":{}}}
        """#)
        #expect(c.skillPacks["calendar"] == SkillPack(name: "calendar", skills: ["create_event", "list_events"]))
        #expect(c.skillPacks["travel"]?.pinned == ["get_weather"])
        #expect(c.skillMetadata["get_weather"]?.keywords == ["forecast", "天气"])
        let s = try #require(c.scenarios["assistant"])
        #expect(s.skills == ScenarioSkillOptions(disallowedTools: .reject, escalate: true, escalateTo: .strong))
        #expect(c.scenarios["chat"]?.skills == ScenarioSkillOptions())
    }

    @Test func aScenarioWithoutPacksHasNoSkillLimit() throws {
        let c = try Self.load(#"{"scenarios":{"chat":{"skill_packs":[]}},"skill_packs":{}}"#)
        let policy = SkillPolicy(config: c)
        #expect(policy.scenarios["chat"]?.allowlist == nil)
    }

    @Test(arguments: [
        (#"{"skill_packs":{"empty":[]}}"#, "$.skill_packs.empty", "has no skills"),
        (#"{"skill_packs":{"empty":{"skills":[]}}}"#, "$.skill_packs.empty", "has no skills"),
        (#"{"skill_packs":{"p":"get_weather"}}"#, "$.skill_packs.p", "expected an array of skill names or an object"),
        (#"{"skill_packs":{"p":["get weather"]}}"#, "$.skill_packs.p[0]", "not a valid skill name"),
        (#"{"skill_packs":{"p":{"skills":["a"],"pinned":["b"]}}}"#, "$.skill_packs.p.pinned[0]", "not one of this pack's skills"),
        (#"{"skill_packs":{"p":{"skills":["a"],"pinnned":["a"]}}}"#, "$.skill_packs.p.pinnned", "unknown key"),
        (#"{"skill_packs":{"p":["a"]},"skills":{"b":{"keywords":["x"]}}}"#, "$.skills.b", "in no skill pack"),
        (#"{"skill_packs":{"p":["a"]},"skills":{"a":{"keywords":"x"}}}"#, "$.skills.a.keywords", "expected an array of strings"),
        (#"{"scenarios":{"chat":{"skill_packs":["nope"]}}}"#, "$.scenarios.chat.skill_packs", "not defined"),
        (#"{"scenarios":{"chat":{"disallowed_tools":"drop"}}}"#, "$.scenarios.chat.disallowed_tools", #"expected one of "remove", "reject""#),
        (#"{"scenarios":{"chat":{"escalate":"yes"}}}"#, "$.scenarios.chat.escalate", "true or false"),
        (#"{"scenarios":{"chat":{"escalate_to":"strong"}}}"#, "$.scenarios.chat.escalate_to", "no effect unless"),
        (#"{"scenarios":{"chat":{"escalate":true}}}"#, "$.scenarios.chat.escalate_to", "has no models"),
        (#"{"tiers":{"strong":["demo/demo-strong"]},"scenarios":{"chat":{"escalate":true,"allowed_models":["light"]}}}"#,
         "$.scenarios.chat.allowed_models", "does not allow tier \"strong\""),
        (#"{"scenarios":{"chat":{"max_visible_skills":0}}}"#, "$.scenarios.chat.max_visible_skills", "at least 1"),
        (#"{"skill_packs":{"p":{"skills":["a","b","c"],"pinned":["a","b"]}},"scenarios":{"chat":{"skill_packs":["p"],"max_visible_skills":1}}}"#,
         "$.scenarios.chat.max_visible_skills", "pin 2 skills (a, b)"),
    ])
    func badSkillConfigNamesFileAndPath(_ json: String, _ path: String, _ fragment: String) {
        do {
            _ = try Self.load(json)
            Issue.record("expected an error at \(path)")
        } catch let error as JSONShapeError {
            #expect(error.file == "test.json")
            #expect(error.path == path)
            #expect(error.message.contains(fragment), "\(error.message)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func escalationAllowedThroughAConcreteModelOfTheTier() throws {
        let c = try Self.load(#"{\#(Self.tiers),"scenarios":{"chat":{"escalate":true,"allowed_models":["light","demo/demo-strong"]}}}"#)
        #expect(c.scenarios["chat"]?.skills.escalate == true)
    }
}
