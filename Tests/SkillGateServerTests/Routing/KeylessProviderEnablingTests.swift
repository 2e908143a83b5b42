import Foundation
import Testing
import SkillGateCore
import SkillGateProviders
@testable import SkillGateServer

/// A keyless provider on the operator's network (Ollama, vLLM, a local model server) is served only when the config
/// names it: before, any token could name one of its models and have the gateway post to a fixed port on its own
/// machine (decision 0092). Providers that need a key, and the built-in demo model, are served as before.
@Suite struct KeylessProviderEnablingTests {
    static let catalog = ModelResolverTests.catalog

    static func resolver(_ json: String) throws -> ModelResolver {
        let config = try GatewayConfig(json: try JSONValue.parse(json), file: "test.json", baseDirectory: ModelResolverTests.repoRoot.path)
        try config.validate(against: catalog)
        return ModelResolver(config: config, catalog: catalog)
    }

    static func plan(_ resolver: ModelResolver, _ model: String) throws -> [String] {
        let scenario = try resolver.scenario(named: "chat", scope: .unrestricted)
        return try resolver.plan(requested: model, scenario: scenario.config, scope: .unrestricted).targets.map(\.qualifiedName)
    }

    static let plain = #"{"tiers":{"light":["demo/demo-light"],"strong":["demo/demo-strong"]},"default_model":"light","scenarios":{"chat":{}}}"#

    @Test(arguments: ["ollama/llama3.1:8b", "vllm/Qwen/Qwen2.5-14B-Instruct", "llama3.1:8b"])
    func aKeylessProviderTheConfigNeverNamesIsNotServed(_ model: String) throws {
        let r = try Self.resolver(Self.plain)
        do {
            _ = try Self.plan(r, model)
            Issue.record("\(model) was served")
        } catch let error as GatewayError {
            #expect(error.status == 404 || error.status == 400, "\(error)")
            if model.contains("/") { #expect(error.message.contains("\"enabled\": true"), "\(error.message)") }
        }
        let visible = r.visibleModels(scenario: try r.scenario(named: "chat", scope: .unrestricted).config, scope: .unrestricted)
        #expect(!visible.contains { ["ollama", "vllm", "local-qwen"].contains($0.provider.id) })
        #expect(visible.contains { $0.provider.id == "demo" } && visible.contains { $0.provider.id == "openai" })
        #expect(try Self.plan(r, "openai/gpt-6-luna") == ["openai/gpt-6-luna"], "a provider that needs a key is served as before")
    }

    @Test(arguments: [
        #"{"tiers":{"light":["ollama/llama3.1:8b"],"strong":["demo/demo-strong"]},"default_model":"light","scenarios":{"chat":{}}}"#,
        #"{"aliases":{"local":"ollama/qwen2.5:14b"},"tiers":{"light":["demo/demo-light"],"strong":["demo/demo-strong"]},"default_model":"light","scenarios":{"chat":{}}}"#,
        #"{"providers":{"ollama":{}},"tiers":{"light":["demo/demo-light"],"strong":["demo/demo-strong"]},"default_model":"light","scenarios":{"chat":{}}}"#,
    ])
    func aKeylessProviderTheConfigNamesIsServed(_ json: String) throws {
        #expect(try Self.plan(try Self.resolver(json), "ollama/llama3.1:8b") == ["ollama/llama3.1:8b"])
    }

    @Test func anExplicitlyDisabledProviderSaysSo() throws {
        let r = try Self.resolver(#"{"providers":{"ollama":{"enabled":false}},"tiers":{"light":["demo/demo-light"],"strong":["demo/demo-strong"]},"default_model":"light","scenarios":{"chat":{}}}"#)
        #expect(throws: GatewayError.self) { try Self.plan(r, "ollama/llama3.1:8b") }
        do { _ = try Self.plan(r, "ollama/llama3.1:8b") } catch let e as GatewayError { #expect(e.message.contains("disabled in the gateway config")) }
    }
}
