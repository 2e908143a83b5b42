import Foundation
import Testing
import SkillGateCore
import SkillGateProviders
import SkillGateRouting
@testable import SkillGateServer

/// `auto` routing through the resolver: scoring, the tier header, scenario defaults, allow-lists.
@Suite struct ModelResolverAutoTests {
    static let config = #"""
    {"aliases":{"fast":"demo/demo-light"},
     "tiers":{"light":["demo/demo-light"],"strong":["demo/demo-strong"]},
     "default_model":"auto",
     "scenarios":{"chat":{},
                  "support":{"default_model":"strong","allowed_models":["strong"]},
                  "cheap":{"default_model":"light"},
                  "pinned":{"default_model":"fast"}},
     "routing":{"strong_threshold":0.5}}
    """#

    private func resolver(_ json: String = Self.config) throws -> ModelResolver {
        let config = try GatewayConfig(json: try JSONValue.parse(json), file: "test.json", baseDirectory: ModelResolverTests.repoRoot.path)
        try config.validate(against: ModelResolverTests.catalog)
        return ModelResolver(config: config, catalog: ModelResolverTests.catalog)
    }

    private func plan(_ prompt: String, model: String = "auto", header: String? = nil, scenario: String = "chat",
                      json: String = Self.config) throws -> RoutePlan {
        let r = try resolver(json)
        let s = try r.scenario(named: scenario, scope: .unrestricted)
        let request = ChatRequest(model: model, messages: [Message(role: .user, text: prompt)])
        return try r.plan(for: request, tierHeader: header, scenario: s.config, scope: .unrestricted)
    }

    static let hard = "Prove step by step that the algorithm terminates."

    @Test(arguments: ["auto", "", " auto "])
    func autoAndMissingAreScored(_ model: String) throws {
        let strong = try plan(Self.hard, model: model)
        #expect(strong.primary.qualifiedName == "demo/demo-strong")
        #expect(strong.route.hasPrefix("tier=strong; by=score; score="))
        #expect(strong.decision?.tier == .strong)
        #expect(try plan("hi", model: model).primary.qualifiedName == "demo/demo-light")
    }

    @Test(arguments: [("demo/demo-light", "tier=none; by=request"), ("fast", "tier=none; by=request"), ("light", "tier=light; by=request")])
    func aConcreteModelAliasOrTierIsNeverScoredNorOverriddenByTheHeader(_ model: String, _ route: String) throws {
        let p = try plan(Self.hard, model: model, header: "strong")
        #expect(p.primary.qualifiedName == "demo/demo-light")
        #expect(p.route == route)
        #expect(p.decision == nil)
    }

    @Test func theTierHeaderOverridesTheScore() throws {
        let down = try plan(Self.hard, header: "light")
        #expect(down.primary.qualifiedName == "demo/demo-light")
        #expect(down.route == "tier=light; by=header")
        #expect(try plan("hi", header: "Strong").primary.qualifiedName == "demo/demo-strong")
        #expect(try plan("hi", header: "auto").route.contains("by=score"))
    }

    @Test func anInvalidTierHeaderIsA400NamingTheHeader() {
        do {
            _ = try plan("hi", header: "medium")
            Issue.record("expected a 400")
        } catch let e as GatewayError {
            #expect(e.status == 400 && e.param == "x-skillgate-tier")
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func aScenarioDefaultModelOptsOutOfScoring() throws {
        let p = try plan(Self.hard, scenario: "pinned")
        #expect(p.primary.qualifiedName == "demo/demo-light")
        #expect(p.route == "tier=none; by=scenario")
        #expect(try plan(Self.hard, model: "demo/demo-strong", scenario: "pinned").primary.qualifiedName == "demo/demo-strong")
    }

    @Test func aScenarioDefaultTierLeansTheScore() throws {
        let neutral = try #require(try plan(Self.hard).decision)
        let cheap = try #require(try plan(Self.hard, scenario: "cheap").decision)
        #expect(cheap.score < neutral.score)
        #expect(cheap.contributions.contains { $0.name == "scenario_default" && $0.value == -1 })
        // A strong lean (log-odds 8) overrides the task.
        let leaning = Self.config.replacingOccurrences(of: #""strong_threshold":0.5"#, with: #""strong_threshold":0.5,"scenario_lean":8"#)
        let p = try plan(Self.hard, scenario: "cheap", json: leaning)
        #expect(p.primary.qualifiedName == "demo/demo-light")
        #expect(p.route.contains("scenario_default(-8.00)"))
    }

    @Test func theMarkerScorerIsStillAvailable() throws {
        let markers = Self.config.replacingOccurrences(of: #""routing":{"strong_threshold":0.5}"#,
                                                        with: #""routing":{"model":"markers","weights":{"reasoning":0.9}}"#)
        let p = try plan(Self.hard, json: markers)
        #expect(p.primary.qualifiedName == "demo/demo-strong")
        #expect(p.route.contains("reasoning(+0.90)"))
        #expect(p.decision?.input == nil)
    }

    @Test func aTrainedModelFileIsLoadedRelativeToTheConfig() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-router-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var model = RouterModel(hashBits: 10, bias: 5, provenance: "always strong")
        model.threshold = 0.5
        try Data(model.json().serializedBytes()).write(to: dir.appendingPathComponent("m.json"))
        let json = Self.config.replacingOccurrences(of: #""routing":{"strong_threshold":0.5}"#, with: #""routing":{"model":"m.json"}"#)
        let config = try GatewayConfig(json: try JSONValue.parse(json), file: "test.json", baseDirectory: dir.path)
        #expect(config.routing.source == "m.json")
        #expect(config.routing.router.decide(ChatRequest(model: "auto", messages: [Message(role: .user, text: "hi")])).tier == .strong)
    }

    @Test func aScoredTierOutsideTheAllowListSwitchesButAForcedOneIsRefused() throws {
        let p = try plan("hi", scenario: "support")
        #expect(p.primary.qualifiedName == "demo/demo-strong")
        #expect(p.route.hasSuffix("; adjusted=light-not-allowed"))
        #expect(p.route.hasPrefix("tier=light; by=score"))
        #expect(throws: GatewayError.self) { try plan("hi", header: "light", scenario: "support") }
    }

    @Test func theThresholdComesFromConfig() throws {
        let p = try #require(try plan("Why is the sky blue?").decision).score
        for (threshold, model) in [(p * 0.9, "demo/demo-strong"), (min(0.999, p * 1.1 + 0.0001), "demo/demo-light")] {
            let json = Self.config.replacingOccurrences(of: #""strong_threshold":0.5"#, with: #""strong_threshold":\#(threshold)"#)
            #expect(try plan("Why is the sky blue?", json: json).primary.qualifiedName == model)
        }
        #expect(try plan("Why is the sky blue?").primary.qualifiedName == "demo/demo-light")
    }

    @Test(arguments: [
        (#"{"routing":{"weights":{"mth":1}}}"#, "$.routing.weights.mth"),
        (#"{"routing":{"strong_threshold":"high"}}"#, "$.routing.strong_threshold"),
        (#"{"routing":[]}"#, "$.routing"),
        (#"{"routing":{"weight":{}}}"#, "$.routing.weight"),
        (#"{"routing":{"weights":{"math":1}}}"#, "$.routing.weights"),
        (#"{"routing":{"strong_threshold":1.5}}"#, "$.routing.strong_threshold"),
        (#"{"routing":{"model":"no-such-file.json"}}"#, "$.routing.model"),
        (#"{"routing":{"model":"markers","scenario_lean":1}}"#, "$.routing.scenario_lean"),
        (#"{"routing":{"scenario_lean":99}}"#, "$.routing.scenario_lean"),
    ])
    func badRoutingConfigNamesFileAndPath(_ json: String, _ path: String) {
        do {
            _ = try GatewayConfig(json: try JSONValue.parse(json), file: "test.json", baseDirectory: "/tmp")
            Issue.record("expected an error at \(path)")
        } catch let e as JSONShapeError {
            #expect(e.file == "test.json" && e.path == path, "\(e)")
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func explainShowsFeaturesContributionsAndTargets() throws {
        let text = try resolver().explain(prompt: Self.hard, scenario: "cheap")
        #expect(text.contains("scenario      cheap (default light)"))
        #expect(text.contains("prove, step by step"))
        #expect(text.contains("scenario_default  -1.00"))
        #expect(text.contains("p(strong)"))
        #expect(text.contains("words that weigh most"))
        let neutral = try resolver().explain(prompt: Self.hard, scenario: "chat")
        #expect(neutral.contains("targets       demo/demo-strong"))
        #expect(neutral.contains("x-skillgate-route: tier=strong; by=score"))
        let pinned = try resolver().explain(prompt: Self.hard, scenario: "pinned")
        #expect(pinned.contains("not scored") && pinned.contains("demo/demo-light"))
        let adjusted = try resolver().explain(prompt: "hi", scenario: "support")
        #expect(adjusted.contains("note          the light tier is not allowed"))
    }
}
