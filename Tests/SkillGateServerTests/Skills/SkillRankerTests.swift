import Foundation
import Testing
import Synchronization
import SkillGateCore
import SkillGateSkills
@testable import SkillGateServer
import SkillGateTestSupport

/// A `TextEmbedder` double for the ranker: topic vectors, calls counted, an optional stall or failure, or
/// queries answered with 3e38 values (finite, but of a length a `Float` cannot hold).
final class TopicEmbedder: TextEmbedder {
    let identity = "test:topics"
    let stall: Duration?
    let failure: EmbeddingError?
    let hugeQueries: Bool
    private let count = Atomic<Int>(0)

    init(stall: Duration? = nil, failure: EmbeddingError? = nil, hugeQueries: Bool = false) {
        self.stall = stall
        self.failure = failure
        self.hugeQueries = hugeQueries
    }

    var calls: Int { count.load(ordering: .relaxed) }

    func embed(_ texts: [String], as purpose: EmbeddingPurpose) async throws -> [[Float]] {
        count.add(1, ordering: .relaxed)
        if let stall { try await Task.sleep(for: stall) }
        if let failure { throw failure }
        if hugeQueries && purpose == .query { return texts.map { _ in [3e38, 3e38, 3e38] } }
        return texts.map(TopicVectors.vector)
    }
}

@Suite struct SkillRankerTests {
    /// English descriptions; the weather tool is declared last, so a blind cut drops it.
    static let candidates = [
        SkillCandidate(name: "send_email", description: "Send an email to a contact"),
        SkillCandidate(name: "create_event", description: "Create a calendar event"),
        SkillCandidate(name: "translate_text", description: "Translate text between languages"),
        SkillCandidate(name: "get_weather", description: "Current weather and forecast for a city"),
    ]
    /// "Will it be sunny and hot in Beijing tomorrow?": no word of it is in the thesaurus, so BM25 finds nothing.
    static let chinese = [Message(role: .user, text: "明天北京晒不晒？")]

    @Test func aChineseQueryKeepsTheEnglishWeatherToolWithEmbeddings() async {
        let lexical = await SkillRanker.bm25.select(Self.candidates, messages: Self.chinese, limit: 2, pinned: [])
        #expect(lexical.mode == .lexical && lexical.cut.blind && !lexical.cut.kept.contains("get_weather"))
        let embedder = TopicEmbedder()
        let ranker = SkillRanker(scorer: SemanticScorer(embedder: embedder, timeout: .seconds(60)))
        let hybrid = await ranker.select(Self.candidates, messages: Self.chinese, limit: 2, pinned: [])
        #expect(hybrid.mode == .hybrid && hybrid.usedSemantic && !hybrid.cut.blind)
        #expect(hybrid.cut.kept.contains("get_weather"))
        #expect(hybrid.fallbackReason == nil && hybrid.semanticMilliseconds != nil)
        #expect(embedder.calls == 2, "one document batch, one query")
        #expect(ranker.counters.hybrid == 1 && ranker.counters.fallbacks == 0)
    }

    @Test func withoutAModelTheWordVectorsKeepTheEnglishWeatherToolForAChineseQuery() async {
        let r = await SkillRanker.lexical.select(Self.candidates, messages: Self.chinese, limit: 2, pinned: [])
        #expect(r.mode == .lexical && !r.cut.blind)
        #expect(r.cut.kept.contains("get_weather"), "\(r.cut.scores)")
        #expect(SkillRanker.lexical.wordVectors != nil && SkillRanker.bm25.wordVectors == nil)
    }

    @Test func nothingToCutNeverAsksTheModel() async {
        let embedder = TopicEmbedder()
        let ranker = SkillRanker(scorer: SemanticScorer(embedder: embedder, timeout: .seconds(60)))
        let r = await ranker.select(Self.candidates, messages: Self.chinese, limit: 4, pinned: [])
        #expect(r.cut.kept == Self.candidates.map(\.name) && r.cut.cut.isEmpty)
        #expect(embedder.calls == 0)
        #expect(ranker.counters.hybrid + ranker.counters.lexical + ranker.counters.fallbacks == 0)
    }

    @Test func aConversationWithoutTextIsRankedLexicallyWithoutTheModel() async {
        let embedder = TopicEmbedder()
        let ranker = SkillRanker(scorer: SemanticScorer(embedder: embedder, timeout: .seconds(60)))
        let toolResultsOnly = [Message(role: .user, content: [.toolResult(ToolResult(callId: "c1", text: "done"))])]
        let r = await ranker.select(Self.candidates, messages: toolResultsOnly, limit: 2, pinned: [])
        #expect(r.mode == .lexical && embedder.calls == 0)
    }

    @Test func aStallingModelFallsBackLexicallyWithinTheTimeout() async {
        await onOwnThread {
            let ranker = SkillRanker(scorer: SemanticScorer(embedder: TopicEmbedder(stall: .seconds(5)), timeout: .milliseconds(100)))
            let clock = ContinuousClock()
            let started = clock.now
            let r = await ranker.select(Self.candidates, messages: [Message(role: .user, text: "email Bob")], limit: 2, pinned: ["get_weather"])
            #expect(clock.now - started < .seconds(4), "never waits for the stalled model (a generous bound for a busy machine)")
            #expect(r.mode == .lexicalFallback(reason: "embeddings_timeout") && r.fallbackReason == "embeddings_timeout")
            #expect(r.mode.label == "lexical_fallback(embeddings_timeout)" && r.mode.name == "lexical_fallback")
            #expect(r.fallbackMessage?.contains("timeout_ms") == true)
            #expect(r.cut.kept == ["send_email", "get_weather"], "BM25 and the pinned skill decide")
            #expect(ranker.counters.fallbacks == 1)
        }
    }

    @Test func aFailingModelFallsBackWithItsReason() async {
        let failure = EmbeddingError(kind: .rejected, model: "acme/e", upstreamStatus: 401, message: "acme rejected the key")
        let ranker = SkillRanker(scorer: SemanticScorer(embedder: TopicEmbedder(failure: failure), timeout: .seconds(60)))
        let r = await ranker.select(Self.candidates, messages: Self.chinese, limit: 2, pinned: [])
        #expect(r.mode == .lexicalFallback(reason: "embeddings_http_401"))
        #expect(r.fallbackMessage == failure.description)
        #expect(!r.cut.blind && r.cut.kept.contains("get_weather"), "the fallback ranks with the word vectors: \(r.cut.scores)")
        let bm25Only = SkillRanker(scorer: SemanticScorer(embedder: TopicEmbedder(failure: failure), timeout: .seconds(60)), wordVectors: nil)
        let blind = await bm25Only.select(Self.candidates, messages: Self.chinese, limit: 2, pinned: [])
        #expect(blind.mode == .lexicalFallback(reason: "embeddings_http_401") && blind.cut.blind)
    }

    /// Decision 0102: the answer that made every later cut keep the first declared tools while saying `hybrid`
    /// (attack round 5) is a fallback that says why.
    @Test func aQueryVectorOfHugeValuesFallsBackWithItsReason() async {
        let ranker = SkillRanker(scorer: SemanticScorer(embedder: TopicEmbedder(hugeQueries: true), timeout: .seconds(60)))
        let r = await ranker.select(Self.candidates, messages: Self.chinese, limit: 2, pinned: [])
        #expect(r.mode == .lexicalFallback(reason: "embeddings_malformed") && r.mode.name == "lexical_fallback")
        #expect(r.fallbackMessage?.contains("has a length that is not finite") == true, "\(r.fallbackMessage ?? "")")
        #expect(!r.cut.blind && r.cut.kept.contains("get_weather"), "the fallback ranks with the word vectors: \(r.cut.scores)")
        #expect(ranker.counters.fallbacks == 1 && ranker.counters.hybrid == 0)
    }
}
