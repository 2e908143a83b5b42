import Foundation
import Testing
import SkillGateCore
import SkillGateProviders
@testable import SkillGateServer

/// The `skill_ranking` section, and embedding models kept out of chat routing.
@Suite struct SkillRankingConfigTests {
    static let catalog = ModelResolverTests.catalog

    private func load(_ json: String) throws -> GatewayConfig {
        let config = try GatewayConfig(json: try JSONValue.parse(json), file: "test.json", baseDirectory: ModelResolverTests.repoRoot.path)
        try config.validate(against: Self.catalog)
        return config
    }

    @Test func withoutTheSectionRankingIsLexicalWithWordVectors() throws {
        #expect(try load("{}").skillRanking == GatewayConfig.SkillRanking(embeddings: nil, wordVectors: true))
        #expect(try load(#"{"skill_ranking":{}}"#).skillRanking.embeddings == nil)
        #expect(try load(#"{"skill_ranking":{"word_vectors":false}}"#).skillRanking == GatewayConfig.SkillRanking(wordVectors: false))
        let both = try load(#"{"skill_ranking":{"word_vectors":false,"embeddings":{"model":"local-e5/multilingual-e5-small"}}}"#)
        #expect(both.skillRanking.wordVectors == false && both.skillRanking.embeddings != nil)
    }

    @Test func theEmbeddingsSectionReadsModelTimeoutAndPrefixes() throws {
        let c = try load(#"""
        {"skill_ranking":{"embeddings":{"model":"local-e5/multilingual-e5-small","timeout_ms":250,"query_prefix":"query: ","document_prefix":""}}}
        """#)
        #expect(c.skillRanking.embeddings == GatewayConfig.Embeddings(model: "local-e5/multilingual-e5-small", timeoutMs: 250,
                                                                       queryPrefix: "query: ", documentPrefix: ""))
        let defaults = try load(#"{"skill_ranking":{"embeddings":{"model":"openai/text-embedding-3-small"}}}"#).skillRanking.embeddings
        #expect(defaults?.timeoutMs == 300 && defaults?.cacheVectors == 4096)
        #expect(try load(#"{"skill_ranking":{"embeddings":{"model":"openai/text-embedding-3-small","cache_vectors":50000}}}"#)
            .skillRanking.embeddings?.cacheVectors == 50_000)
    }

    @Test func theSelectorSectionReadsModelCandidatesAndTimeoutWithDefaults() throws {
        #expect(try load("{}").skillRanking.selector == nil)
        #expect(try load(#"{"tiers":{"light":["openai/gpt-6-luna"]},"skill_ranking":{"selector":{}}}"#).skillRanking.selector == GatewayConfig.Selector(model: "light", candidates: 15, timeoutMs: 2000))
        let c = try load(#"{"skill_ranking":{"selector":{"model":"openai/gpt-6-luna","candidates":8,"timeout_ms":900},"word_vectors":false}}"#)
        #expect(c.skillRanking == GatewayConfig.SkillRanking(wordVectors: false, selector: GatewayConfig.Selector(model: "openai/gpt-6-luna", candidates: 8, timeoutMs: 900)))
        let both = try load(#"{"tiers":{"strong":["openai/gpt-6-luna"]},"skill_ranking":{"embeddings":{"model":"local-e5/multilingual-e5-small"},"selector":{"model":"strong"}}}"#)
        #expect(both.skillRanking.embeddings != nil && both.skillRanking.selector?.model == "strong")
        let scenarios = try load(#"{"scenarios":{"a":{},"b":{"skill_selector":false}},"default_scenario":"a"}"#).scenarios
        #expect(scenarios["a"]?.skills.useSelector == true && scenarios["b"]?.skills.useSelector == false)
    }

    @Test func theExamplesSectionReadsModelTimeoutWeightAndHourlyCapWithDefaults() throws {
        let e5 = #""embeddings":{"model":"local-e5/multilingual-e5-small"}"#
        #expect(try load("{}").skillRanking.examples == nil)
        #expect(try load(#"{"tiers":{"light":["openai/gpt-6-luna"]},"skill_ranking":{\#(e5),"examples":{}}}"#).skillRanking.examples
                == GatewayConfig.Examples(model: "light", timeoutMs: 120_000, weight: 0.5, maxPerHour: 600))
        let c = try load(#"{"skill_ranking":{\#(e5),"examples":{"model":"openai/gpt-6-luna","timeout_ms":30000,"weight":0.25,"max_per_hour":40}}}"#)
        #expect(c.skillRanking.examples == GatewayConfig.Examples(model: "openai/gpt-6-luna", timeoutMs: 30_000, weight: 0.25, maxPerHour: 40))
    }

    @Test(arguments: [
        (#"{"tiers":{"light":["openai/gpt-6-luna"]},"skill_ranking":{"examples":{}}}"#, "$.skill_ranking.examples", "needs \"embeddings\""),
        (#"{"skill_ranking":{"embeddings":{"model":"local-e5/multilingual-e5-small"},"examples":{"model":"auto"}}}"#, "$.skill_ranking.examples.model", "not \"auto\""),
        (#"{"skill_ranking":{"embeddings":{"model":"local-e5/multilingual-e5-small"},"examples":{"model":"nope/model"}}}"#, "$.skill_ranking.examples.model", "is not a tier, an alias or a provider/model"),
        (#"{"skill_ranking":{"embeddings":{"model":"local-e5/multilingual-e5-small"},"examples":{"model":"openai/gpt-6-luna","weight":1.5}}}"#, "$.skill_ranking.examples.weight", "between 0 and 1"),
        (#"{"skill_ranking":{"embeddings":{"model":"local-e5/multilingual-e5-small"},"examples":{"model":"openai/gpt-6-luna","timeout_ms":0}}}"#, "$.skill_ranking.examples.timeout_ms", "between 1 and 600000"),
        (#"{"skill_ranking":{"embeddings":{"model":"local-e5/multilingual-e5-small"},"examples":{"model":"openai/gpt-6-luna","max_per_hour":0}}}"#, "$.skill_ranking.examples.max_per_hour", "between 1 and 100000"),
        (#"{"skill_ranking":{"embeddings":{"model":"local-e5/multilingual-e5-small"},"examples":{"model":"openai/gpt-6-luna","max_per_hour":"many"}}}"#, "$.skill_ranking.examples.max_per_hour", "expected an integer"),
        (#"{"skill_ranking":{"embeddings":{"model":"local-e5/multilingual-e5-small"},"examples":{"modle":"light"}}}"#, "$.skill_ranking.examples.modle", "unknown key"),
        (#"{"skill_ranking":{"embedings":{}}}"#, "$.skill_ranking.embedings", "unknown key"),
        (#"{"skill_ranking":{"selector":{"modle":"light"}}}"#, "$.skill_ranking.selector.modle", "unknown key"),
        (#"{"skill_ranking":{"selector":{"model":" "}}}"#, "$.skill_ranking.selector.model", "must name a chat model"),
        (#"{"skill_ranking":{"selector":{"model":"auto"}}}"#, "$.skill_ranking.selector.model", "would route the selector's own call"),
        (#"{"skill_ranking":{"selector":{"model":"nope/model"}}}"#, "$.skill_ranking.selector.model", "is not a tier, an alias or a provider/model"),
        (#"{"skill_ranking":{"selector":{"model":"local-e5/multilingual-e5-small"}}}"#, "$.skill_ranking.selector.model", "is an embedding model"),
        (#"{"tiers":{"strong":[]},"skill_ranking":{"selector":{"model":"strong"}}}"#, "$.skill_ranking.selector.model", "tier \"strong\" has no usable models"),
        (#"{"tiers":{"light":["openai/gpt-6-luna"]},"skill_ranking":{"selector":{"candidates":1}}}"#, "$.skill_ranking.selector.candidates", "between 2 and 100"),
        (#"{"tiers":{"light":["openai/gpt-6-luna"]},"skill_ranking":{"selector":{"candidates":101}}}"#, "$.skill_ranking.selector.candidates", "between 2 and 100"),
        (#"{"tiers":{"light":["openai/gpt-6-luna"]},"skill_ranking":{"selector":{"timeout_ms":0}}}"#, "$.skill_ranking.selector.timeout_ms", "between 1 and 60000"),
        (#"{"skill_ranking":{"selector":"light"}}"#, "$.skill_ranking.selector", "expected an object"),
        (#"{"scenarios":{"a":{"skill_selector":"no"}},"default_scenario":"a"}"#, "$.scenarios.a.skill_selector", "expected true or false"),
        (#"{"skill_ranking":{"word_vectors":"off"}}"#, "$.skill_ranking.word_vectors", "expected true or false"),
        (#"{"skill_ranking":{"embeddings":{"model":"local-e5/multilingual-e5-small","timeout":300}}}"#, "$.skill_ranking.embeddings.timeout", "unknown key"),
        (#"{"skill_ranking":{"embeddings":{}}}"#, "$.skill_ranking.embeddings.model", "required field is missing"),
        (#"{"skill_ranking":{"embeddings":{"model":"local-e5/multilingual-e5-small","cache_vectors":10}}}"#, "$.skill_ranking.embeddings.cache_vectors", "between 64 and 1048576"),
        (#"{"skill_ranking":{"embeddings":{"model":"multilingual-e5-small"}}}"#, "$.skill_ranking.embeddings.model", "expected provider/model"),
        (#"{"skill_ranking":{"embeddings":{"model":"local-e5/multilingual-e5-small","timeout_ms":0}}}"#, "$.skill_ranking.embeddings.timeout_ms", "between 1 and 60000"),
        (#"{"skill_ranking":{"embeddings":{"model":"local-e5/multilingual-e5-small","timeout_ms":"300"}}}"#, "$.skill_ranking.embeddings.timeout_ms", "expected an integer"),
        (#"{"skill_ranking":{"embeddings":{"model":"nope/e5"}}}"#, "$.skill_ranking.embeddings.model", "no provider \"nope\""),
        (#"{"skill_ranking":{"embeddings":{"model":"local-e5/e5-large"}}}"#, "$.skill_ranking.embeddings.model", "has no model \"e5-large\""),
        (#"{"skill_ranking":{"embeddings":{"model":"openai/gpt-6-luna"}}}"#, "$.skill_ranking.embeddings.model", "is a chat model"),
        (#"{"skill_ranking":{"embeddings":{"model":"anthropic/claude-haiku-5-5"}}}"#, "$.skill_ranking.embeddings.model", "has no embeddings endpoint"),
        (#"{"skill_ranking":{"embeddings":{"model":"local-e5/multilingual-e5-small"}},"providers":{"local-e5":{"enabled":false}}}"#, "$.skill_ranking.embeddings.model", "disabled"),
        (#"{"tiers":{"light":["local-e5/multilingual-e5-small"]}}"#, "$.tiers.light[0]", "is an embedding model"),
        (#"{"aliases":{"e5":"local-e5/multilingual-e5-small"}}"#, "$.aliases.e5", "is an embedding model"),
        (#"{"default_model":"openai/text-embedding-3-small"}"#, "$.default_model", "is an embedding model"),
        (#"{"scenarios":{"chat":{"allowed_models":["gemini/gemini-embedding-001"]}}}"#, "$.scenarios.chat.allowed_models[0]", "is an embedding model"),
        (#"{"resilience":{"weights":{"local-e5/multilingual-e5-small":2}}}"#, "$.resilience.weights.local-e5/multilingual-e5-small", "is an embedding model"),
    ])
    func badSkillRankingAndMisusedEmbeddingModelsNameTheirPath(_ json: String, _ path: String, _ fragment: String) {
        do {
            _ = try load(json)
            Issue.record("expected an error at \(path)")
        } catch let error as JSONShapeError {
            #expect(error.file == "test.json")
            #expect(error.path == path)
            #expect(error.message.contains(fragment), "\(error.message)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func anUnknownModelErrorListsTheCatalogsEmbeddingModels() throws {
        do {
            _ = try load(#"{"skill_ranking":{"embeddings":{"model":"local-e5/e5-large"}}}"#)
            Issue.record("expected an error")
        } catch let error as JSONShapeError {
            #expect(error.message.contains("local-e5/multilingual-e5-small") && error.message.contains("openai/text-embedding-3-small"))
        }
    }

    @Test func aClientCannotChatWithAnEmbeddingModel() throws {
        let resolver = ModelResolver(config: try load("{}"), catalog: Self.catalog)
        let chat = try resolver.scenario(named: nil, scope: .unrestricted)
        #expect {
            try resolver.plan(requested: "local-e5/multilingual-e5-small", scenario: chat.config, scope: .unrestricted)
        } throws: { error in
            guard let e = error as? GatewayError else { return false }
            return e.status == 400 && e.param == "model" && e.message.contains("embedding model")
        }
        // A bare id matches chat models only.
        #expect(throws: GatewayError.self) { try resolver.plan(requested: "multilingual-e5-small", scenario: chat.config, scope: .unrestricted) }
        let listed = resolver.visibleModels(scenario: chat.config, scope: .unrestricted).map(\.qualifiedName)
        #expect(!listed.contains("local-e5/multilingual-e5-small") && !listed.contains("openai/text-embedding-3-small"))
        #expect(listed.contains("openai/gpt-6-luna"))
    }
}
