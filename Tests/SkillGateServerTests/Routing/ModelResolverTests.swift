import Foundation
import Testing
import SkillGateCore
import SkillGateProviders
@testable import SkillGateServer

@Suite struct ModelResolverTests {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let catalog = try! ProviderCatalog.load(directory: repoRoot.appendingPathComponent("Providers").path)

    private func resolver(_ json: String) throws -> ModelResolver {
        let config = try GatewayConfig(json: try JSONValue.parse(json), file: "test.json", baseDirectory: Self.repoRoot.path)
        try config.validate(against: Self.catalog)
        return ModelResolver(config: config, catalog: Self.catalog)
    }

    static let config = #"""
    {"aliases":{"fast":"demo/demo-light","claude":"anthropic/claude-haiku-5-5"},
     "tiers":{"light":["demo/demo-light","openai/gpt-6-luna"],"strong":["demo/demo-strong"]},
     "default_model":"auto",
     "scenarios":{"chat":{},"support":{"default_model":"strong","allowed_models":["strong","claude"]}},
     "providers":{"mistral":{"enabled":false}}}
    """#

    private func plan(_ model: String?, scenario: String = "chat", scope: AccessScope = .unrestricted) throws -> RoutePlan {
        let r = try resolver(Self.config)
        let s = try r.scenario(named: scenario, scope: scope)
        return try r.plan(requested: model, scenario: s.config, scope: scope)
    }

    @Test(arguments: [
        (nil as String?, ["demo/demo-light", "openai/gpt-6-luna"]),
        ("auto", ["demo/demo-light", "openai/gpt-6-luna"]),
        ("light", ["demo/demo-light", "openai/gpt-6-luna"]),
        ("strong", ["demo/demo-strong"]),
        ("fast", ["demo/demo-light"]),
        ("anthropic/claude-opus-5-5", ["anthropic/claude-opus-5-5"]),
        ("gpt-6.2-sol", ["openai/gpt-6.2-sol"]),
        ("openrouter/anthropic/claude-sonnet-5.5", ["openrouter/anthropic/claude-sonnet-5.5"]),
    ])
    func resolvesEveryKindOfModelName(_ model: String?, _ expected: [String]) throws {
        #expect(try plan(model).targets.map(\.qualifiedName) == expected)
    }

    @Test func scenarioDefaultAndAllowList() throws {
        #expect(try plan(nil, scenario: "support").targets.map(\.qualifiedName) == ["demo/demo-strong"])
        #expect(try plan("claude", scenario: "support").primary.qualifiedName == "anthropic/claude-haiku-5-5")
        #expect(throws: GatewayError.self) { try plan("light", scenario: "support") }
    }

    @Test func errorsSayWhatToDo() {
        func status(_ model: String?, scenario: String = "chat", scope: AccessScope = .unrestricted) -> (Int, String)? {
            do { _ = try plan(model, scenario: scenario, scope: scope); return nil } catch let e as GatewayError {
                return (e.status, e.message)
            } catch { return nil }
        }
        #expect(status("no-such-model")?.0 == 404)
        #expect(status("no-such-model")?.1.contains("/v1/models") == true)
        #expect(status("mistral/mistral-small-2603")?.0 == 404)
        #expect(status("anything", scenario: "nope")?.0 == 404)
        #expect(status("light", scope: AccessScope(scenarios: ["support"]))?.0 == 403)
        #expect(status("strong", scope: AccessScope(models: ["light"]))?.0 == 403)
    }

    /// A scenario a request body named (`/v1/agent`'s `scenario`) is named as that field in the errors, not as the header.
    @Test func aScenarioErrorNamesWhereTheNameCameFrom() throws {
        let r = try resolver(Self.config)
        for (param, scope, name) in [("scenario", AccessScope(scenarios: ["support"]), "chat"), ("scenario", AccessScope.unrestricted, "nope"),
                                     ("x-skillgate-scenario", AccessScope(scenarios: ["support"]), "chat")] {
            do {
                _ = param == "scenario" ? try r.scenario(named: name, scope: scope, param: param) : try r.scenario(named: name, scope: scope)
                Issue.record("scenario \(name) was allowed")
            } catch {
                #expect(error.param == param)
            }
        }
    }

    static let threeScenarios = #"{"scenarios":{"chat":{},"cheap":{},"support":{}},"default_scenario":"chat"}"#

    /// A request that names no scenario runs in the token's default, else the token's only scenario, else the
    /// gateway's default (decision 0103: a token made with `--scenario cheap` alone was refused "chat" unless the client
    /// sent the header).
    @Test(arguments: [
        (AccessScope(scenarios: ["cheap"]), "cheap"),
        (AccessScope(defaultScenario: "support"), "support"),
        (AccessScope(scenarios: ["cheap", "support"], defaultScenario: "support"), "support"),
        (AccessScope(scenarios: ["cheap", "chat"]), "chat"),
        (AccessScope.unrestricted, "chat"),
    ])
    func aRequestNamingNoScenarioRunsInTheTokensOwn(_ scope: AccessScope, _ expected: String) throws {
        #expect(try resolver(Self.threeScenarios).scenario(named: nil, scope: scope).name == expected)
    }

    /// A named scenario wins over the token's default and only scenario; outside the scope it is still refused.
    @Test func aNamedScenarioWinsAndIsStillChecked() throws {
        let r = try resolver(Self.threeScenarios)
        #expect(try r.scenario(named: "cheap", scope: AccessScope(scenarios: ["cheap", "support"], defaultScenario: "support")).name == "cheap")
        do throws(GatewayError) {
            _ = try r.scenario(named: "chat", scope: AccessScope(scenarios: ["cheap"]))
            Issue.record("chat was allowed")
        } catch {
            #expect(error.status == 403 && error.message.contains("may not use scenario \"chat\"; it is scoped to: cheap"), "\(error.message)")
        }
    }

    /// A token of several scenarios, without a default among them, sending none: the 403 says the request named none,
    /// lists the token's scenarios, and says how to name one or give the token a default.
    @Test func aScopedTokenNamingNoneIsToldWhatToSend() throws {
        let r = try resolver(Self.threeScenarios)
        do throws(GatewayError) {
            _ = try r.scenario(named: nil, scope: AccessScope(scenarios: ["cheap", "support"]))
            Issue.record("the gateway's default was allowed")
        } catch {
            #expect(error.status == 403)
            #expect(error.message.contains("this request named no scenario"), "\(error.message)")
            #expect(error.message.contains("(cheap, support)") && error.message.contains("x-skillgate-scenario: <one of them>"), "\(error.message)")
            #expect(error.message.contains("--default-scenario"), "\(error.message)")
            #expect(!error.message.contains("may not use scenario"), "\(error.message)")
        }
    }

    @Test func tokenScopeAllowsTiersByExpansion() throws {
        let p = try plan("demo/demo-light", scope: AccessScope(models: ["light"]))
        #expect(p.primary.qualifiedName == "demo/demo-light")
    }

    @Test func validateRejectsUnknownModelsInTiersAtLoadTime() {
        #expect(throws: JSONShapeError.self) { try resolver(#"{"tiers":{"light":["openai/gpt-0"]}}"#) }
        #expect(throws: JSONShapeError.self) { try resolver(#"{"aliases":{"x":"nope/nope"}}"#) }
        #expect(throws: JSONShapeError.self) { try resolver(#"{"providers":{"nope":{}}}"#) }
    }

    @Test(arguments: ["Config/skillgate.json", "Config/examples/multi-provider.json", "Config/examples/assistant-scenarios.json",
                       "Tests/Eval/eval-hybrid.json", "Tests/Eval/eval-selector.json",
                       "Tests/Eval/eval-examples.json", "Tests/Eval/eval-examples-selector.json"])
    func shippedConfigsAreValid(_ path: String) throws {
        let config = try GatewayConfig.load(path: Self.repoRoot.appendingPathComponent(path).path)
        let catalog = try ProviderCatalog.load(directory: config.providersDirectory)
        try config.validate(against: catalog)
        #expect(config.warnings.isEmpty, "\(path): \(config.warnings)")
    }
}
