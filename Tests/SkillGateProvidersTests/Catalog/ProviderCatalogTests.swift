import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateTestSupport
@testable import SkillGateProviders

@Suite struct ProviderCatalogTests {
    /// The repository's own `Providers/` directory.
    static let catalogDirectory = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Providers").path

    static let requiredProviders = ["openai", "anthropic", "gemini", "deepseek", "mistral", "groq", "openrouter",
                                    "qwen", "moonshot", "ollama", "vllm", "demo"]

    @Test func shippedCatalogLoadsAndHasEveryRequiredProvider() throws {
        let catalog = try ProviderCatalog.load(directory: Self.catalogDirectory)
        for id in Self.requiredProviders {
            #expect(catalog.provider(id) != nil, "missing Providers/\(id).json")
        }
    }

    @Test(arguments: requiredProviders)
    func everyShippedProviderIsComplete(_ id: String) throws {
        let spec = try ProviderCatalog.loadFile(Self.catalogDirectory + "/\(id).json")
        #expect(!spec.models.isEmpty)
        if spec.auth != .none { #expect(spec.keyName != nil) }
        let local = ["ollama", "vllm", "demo"].contains(id)
        for model in spec.models where !local {
            #expect(model.price != nil, "\(id)/\(model.id) has no price")
        }
        #expect(!spec.baseURL.hasSuffix("/"))
    }

    /// Writes `text` to `name` in a fresh directory, runs `body` with the file's path, and removes the directory.
    private func withCatalogFile<T>(_ name: String, _ text: String, _ body: (String) throws -> T) throws -> T {
        try withTemporaryDirectory { dir in
            let path = dir + "/" + name
            try text.writeAtomically(toFile: path)
            return try body(path)
        }
    }

    @Test func oneFileAddsAnOpenAICompatibleProvider() throws {
        let catalog = try withCatalogFile("acme.json", #"""
        {"id":"acme","display_name":"Acme AI","wire_format":"openai-chat","base_url":"https://api.acme.test/v1/",
         "auth":"bearer","key_name":"ACME_API_KEY",
         "models":[{"id":"acme-1","tier":"light","context_window":32000,"tools":"native",
                    "price":{"input_per_mtok":0.1,"output_per_mtok":0.2}}]}
        """#) { path in try ProviderCatalog.load(directory: (path as NSString).deletingLastPathComponent) }
        let resolved = try #require(catalog.resolve("acme/acme-1"))
        #expect(resolved.provider.wireFormat == .openAIChat)
        #expect(resolved.model.price?.cost(of: Usage(inputTokens: 1_000_000, outputTokens: 500_000)) == 0.2)
    }

    @Test(arguments: [(nil, HTTPVersion.negotiated), ("auto", .negotiated), ("1.1", .http1)])
    func httpVersionIsReadFromTheFile(_ value: String?, _ expected: HTTPVersion) throws {
        let field = value.map { #""http_version":"\#($0)","# } ?? ""
        let version = try withCatalogFile("local.json", #"{"id":"local","wire_format":"openai-chat","base_url":"http://127.0.0.1:9000/v1","auth":"none",\#(field)"models":[{"id":"m","tier":"light"}]}"#) {
            try ProviderCatalog.loadFile($0).httpVersion
        }
        #expect(version == expected)
    }

    @Test(arguments: ["3", "2-prior-knowledge"])
    func anUnknownHTTPVersionNamesTheChoices(_ value: String) throws {
        _ = try withCatalogFile("local.json", #"{"id":"local","wire_format":"openai-chat","base_url":"http://127.0.0.1:9000/v1","auth":"none","http_version":"\#(value)","models":[{"id":"m","tier":"light"}]}"#) { path in
            #expect(throws: JSONShapeError.self) { try ProviderCatalog.loadFile(path) }
        }
    }

    @Test(arguments: [
        (#"{"id":"bad","base_url":"https://x","auth":"none","models":[{"id":"m","tier":"medium"}]}"#, "$.models[0].tier"),
        (#"{"id":"bad","base_url":"https://x","auth":"none","models":[{"id":"m","price":{"input_per_mtok":"1"}}]}"#, "$.models[0].price.input_per_mtok"),
        (#"{"id":"bad","base_url":"https://x","auth":"bearer","models":[{"id":"m"}]}"#, "$.key_name"),
        (#"{"id":"bad","base_url":"https://x","auth":"none","modles":[]}"#, "$.modles"),
        (#"{"id":"bad","base_url":"ftp://x","auth":"none","models":[{"id":"m"}]}"#, "$.base_url"),
        (#"{"id":"other","base_url":"https://x","auth":"none","models":[{"id":"m"}]}"#, "$.id"),
        (#"{"id":"bad","base_url":"https://x","auth":"none","models":[{"id":"m"},{"id":"m"}]}"#, "$.models[1].id"),
        (#"{"id":"bad", "base_url": }"#, "$"),
    ])
    func malformedFileIsRefusedWithFileAndPath(_ json: String, _ expectedPath: String) throws {
        try withCatalogFile("bad.json", json) { path in
            do {
                _ = try ProviderCatalog.loadFile(path)
                Issue.record("expected \(expectedPath) to be refused")
            } catch let error as JSONShapeError {
                #expect(error.file == path)
                #expect(error.path == expectedPath)
                #expect(error.description.contains("bad.json"))
            }
        }
    }

    @Test func cachedTokensUseTheCachedPrice() {
        let price = ModelPrice(inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5)
        let cost = price.cost(of: Usage(inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 400_000))
        #expect(abs(cost - (0.6 * 2 + 0.4 * 0.5)) < 1e-12)
    }
}
