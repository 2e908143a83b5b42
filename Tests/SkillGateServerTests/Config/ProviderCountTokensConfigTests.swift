import Testing
import SkillGateCore
@testable import SkillGateServer

/// `providers.<id>.count_tokens` (decision 0136): replaces the catalog's `count_tokens`, for a provider moved behind a
/// base URL that lacks its count endpoint (or has one its catalog file does not declare).
@Suite struct ProviderCountTokensConfigTests {
    private func load(_ providers: String) throws -> GatewayConfig {
        try GatewayConfig(json: try JSONValue.parse(#"{"providers":\#(providers)}"#), file: "test.json", baseDirectory: "/etc/skillgate")
    }

    @Test(arguments: [(#"{"openai":{"base_url":"https://proxy.internal/v1","count_tokens":false}}"#, false),
                      (#"{"vllm":{"count_tokens":true}}"#, true), (#"{"openai":{"enabled":true}}"#, nil)] as [(String, Bool?)])
    func theSettingReplacesTheCatalogs(_ providers: String, _ expected: Bool?) throws {
        let config = try load(providers)
        #expect(config.providerOverrides.values.first?.countTokens == expected)
    }

    @Test func aSettingThatIsNoBooleanIsAConfigError() throws {
        do {
            _ = try load(#"{"openai":{"count_tokens":"no"}}"#)
            Issue.record("count_tokens \"no\" was accepted")
        } catch let error as JSONShapeError {
            #expect(error.path == "$.providers.openai.count_tokens", "\(error)")
        }
    }
}
