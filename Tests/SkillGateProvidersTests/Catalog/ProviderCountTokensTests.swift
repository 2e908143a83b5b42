import Foundation
import Testing
import SkillGateCore
import SkillGateTestSupport
@testable import SkillGateProviders

/// A provider file's `count_tokens` (decision 0136): whether the provider is asked to count input tokens at its wire
/// format's count endpoint. On by default for Anthropic's and Gemini's formats, off for the OpenAI format, whose count
/// (`/responses/input_tokens`) only OpenAI's own API has; the demo model has none.
@Suite struct ProviderCountTokensTests {
    private func load(_ wire: String, _ countTokens: String?) throws -> ProviderSpec {
        let field = countTokens.map { #""count_tokens":\#($0),"# } ?? ""
        let json = #"{"id":"p","wire_format":"\#(wire)","base_url":"https://x","auth":"none",\#(field)"models":[{"id":"m"}]}"#
        return try ProviderSpec(json: try JSONValue.parse(json), file: "p.json")
    }

    @Test(arguments: [("anthropic-messages", nil, true), ("gemini", nil, true), ("openai-chat", nil, false), ("demo", nil, false),
                      ("openai-chat", "true", true), ("anthropic-messages", "false", false), ("gemini", "false", false), ("demo", "false", false)]
          as [(String, String?, Bool)])
    func theFileOrTheWireFormatSays(_ wire: String, _ countTokens: String?, _ expected: Bool) throws {
        #expect(try load(wire, countTokens).countsTokens == expected)
    }

    @Test(arguments: [("demo", "true", "has no token count endpoint"), ("openai-chat", "\"yes\"", "true or false")])
    func aCountTheProviderCannotHaveIsRefused(_ wire: String, _ countTokens: String, _ fragment: String) throws {
        do {
            _ = try load(wire, countTokens)
            Issue.record("count_tokens \(countTokens) was accepted for \(wire)")
        } catch let error as JSONShapeError {
            #expect(error.path == "$.count_tokens" && error.message.contains(fragment), "\(error)")
        }
    }

    /// The shipped catalog: OpenAI's own API counts; no OpenAI-compatible one is asked for an endpoint it lacks.
    @Test func onlyOpenAIsOwnAPICountsAmongTheOpenAIFormatProviders() throws {
        let catalog = try ProviderCatalog.load(directory: ProviderCatalogTests.catalogDirectory)
        let counting = catalog.providers.filter { $0.wireFormat == .openAIChat && $0.countsTokens }.map(\.id)
        #expect(counting == ["openai"], "\(counting)")
        #expect(catalog.provider("anthropic")?.countsTokens == true && catalog.provider("gemini")?.countsTokens == true)
    }
}
