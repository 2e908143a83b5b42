import Testing
@testable import SkillGateSkills

/// An embedding answer of huge but finite values (3e38: each value finite, the length not) never gets
/// into the ranking: not into the running mean of queries, not into the cache (decision 0102).
@Suite struct HugeVectorTests {
    static let documents = SemanticScorerTests.documents

    /// The length of `v`, in `Double`.
    static func length(_ v: [Float]) -> Double { v.reduce(0.0) { $0 + Double($1) * Double($1) }.squareRoot() }

    @Test func oneHugeQueryAnswerLeavesLaterQueriesRankedAsBefore() async throws {
        // The running mean of queries is used from the second query on, as it is after 20 in production.
        let scorer = SemanticScorer(embedder: FakeEmbedder(), timeout: .seconds(60), centering: LanguageCentering(minimumQueries: 2))
        for query in ["weather in Oslo?", "mail Bob", "weather tomorrow?"] { _ = try await scorer.similarities(query: query, documents: Self.documents).get() }
        let before = try await scorer.similarities(query: "weather?", documents: Self.documents).get()
        #expect(before[0] > before[1] && before[0] > before[2], "\(before)")

        let bad = await scorer.similarities(query: "HUGE weather", documents: Self.documents)
        guard case .failure(let e) = bad else { Issue.record("a 3e38 query vector was used: \(bad)"); return }
        #expect(e.kind == .malformed && e.reason == "embeddings_malformed")
        #expect(e.message.contains("length that is not finite"), "\(e.message)")

        for _ in 0..<5 {
            let after = try await scorer.similarities(query: "weather?", documents: Self.documents).get()
            #expect(after.allSatisfy { $0.isFinite }, "\(after)")
            #expect(after[0] > after[1] && after[0] > after[2], "\(after)")
            #expect(zip(before, after).allSatisfy { abs($0 - $1) < 0.2 }, "before \(before), after \(after)")
        }
    }

    @Test func aHugeQueryGivenToTheCentringDirectlyDoesNotMoveItsCentre() {
        let centering = LanguageCentering(minimumQueries: 3)
        let documents: [[Float]] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
        let texts = ["get weather", "send email", "calculator"]
        for q: [Float] in [[1, 0, 0], [0, 1, 0], FakeEmbedder.huge] {
            _ = centering.center(query: q, queryText: "english", documents: documents, documentTexts: texts)
        }
        let c = centering.center(query: [1, 0, 0], queryText: "english", documents: documents, documentTexts: texts)
        #expect(c.query.allSatisfy { $0.isFinite } && Self.length(c.query) <= 2, "the centred query \(c.query)")
        #expect(VectorMath.cosines(c.query, c.documents).allSatisfy { $0.isFinite })
    }

    @Test func aHugeDocumentVectorIsRefusedAndNeverCached() async throws {
        let store = MemoryEmbeddingStore()
        let scorer = SemanticScorer(embedder: FakeEmbedder(), cache: EmbeddingCache(store: store), timeout: .seconds(60))
        let result = await scorer.similarities(query: "weather?", documents: Self.documents + ["HUGE tool: answers 3e38"])
        guard case .failure(let e) = result else { Issue.record("a 3e38 document vector was used: \(result)"); return }
        #expect(e.kind == .malformed && e.message.contains("vector 3 has a length that is not finite"), "\(e.message)")
        #expect(scorer.cache.count == 0 && store.count == 0, "nothing of the refused batch is cached")
    }

    @Test func documentVectorsAreCachedAtUnitLength() async throws {
        let store = MemoryEmbeddingStore()
        let scorer = SemanticScorer(embedder: FakeEmbedder(), cache: EmbeddingCache(store: store), timeout: .seconds(60))
        _ = try await scorer.similarities(query: "weather?", documents: Self.documents).get()
        let keys = Self.documents.map { EmbeddingKey(identity: "fake:model", purpose: .document, text: $0) }
        let stored = try store.vectors(for: keys)
        #expect(stored.count == 3)
        #expect(stored.values.allSatisfy { abs(Self.length($0) - 1) < 1e-6 }, "\(stored)")
    }

    @Test func aBadVectorInTheStoreIsAMissAndIsEmbeddedAgain() async throws {
        // A store written by an older build, which cached what the model answered.
        let store = MemoryEmbeddingStore()
        let weather = EmbeddingKey(identity: "fake:model", purpose: .document, text: Self.documents[0])
        let mail = EmbeddingKey(identity: "fake:model", purpose: .document, text: Self.documents[1])
        let nan = EmbeddingKey(identity: "fake:model", purpose: .document, text: Self.documents[2])
        try store.store([weather: FakeEmbedder.huge, mail: [0, 0, 0], nan: [.nan, 1, 0]])
        let cache = EmbeddingCache(store: store)
        #expect(await cache.vectors(for: [weather, mail, nan]) == [nil, nil, nil])
        #expect(cache.count == 0)

        let fake = FakeEmbedder()
        let scores = try await SemanticScorer(embedder: fake, cache: cache, timeout: .seconds(60))
            .similarities(query: "weather?", documents: Self.documents).get()
        #expect(scores.allSatisfy { $0.isFinite } && scores[0] > scores[1] && scores[0] > scores[2], "\(scores)")
        #expect(fake.calls.filter { $0.purpose == .document } == [.init(texts: Self.documents, purpose: .document)])
        let replaced = try store.vectors(for: [weather, mail, nan])
        #expect(replaced.values.allSatisfy { abs(Self.length($0) - 1) < 1e-6 }, "\(replaced)")
    }
}
