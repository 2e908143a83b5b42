import Testing
@testable import SkillGateSkills
import SkillGateTestSupport

/// Timeouts a test does not check are a minute: the scorer's worker is a task on the cooperative
/// pool, which tests running in parallel may keep busy for seconds, and the deadline is wall-clock.
@Suite struct SemanticScorerTests {
    static let documents = ["get weather: Current weather for a city", "send email: Send an email", "calculator: Evaluate math"]

    @Test func similaritiesRankTheMatchingDocumentFirst() async throws {
        let scorer = SemanticScorer(embedder: FakeEmbedder(), timeout: .seconds(60))
        let scores = try await scorer.similarities(query: "明天会下雨吗", documents: Self.documents).get()
        #expect(scores.count == 3)
        #expect(scores[0] > scores[1] && scores[0] > scores[2])
        #expect(abs(scores[0] - 1) < 1e-6)
    }

    @Test func documentsAreEmbeddedOnceInOneBatchThenEachCallIsOneQuery() async throws {
        let fake = FakeEmbedder()
        let scorer = SemanticScorer(embedder: fake, timeout: .seconds(60))
        _ = try await scorer.similarities(query: "weather?", documents: Self.documents).get()
        _ = try await scorer.similarities(query: "mail Bob", documents: Self.documents).get()
        _ = try await scorer.similarities(query: "mail Bob", documents: Self.documents + ["new tool"]).get()
        let calls = fake.calls
        #expect(calls.filter { $0.purpose == .document } == [.init(texts: Self.documents, purpose: .document), .init(texts: ["new tool"], purpose: .document)])
        #expect(calls.filter { $0.purpose == .query }.count == 3)
    }

    @Test func concurrentCallersShareOneDocumentBatch() async throws {
        let fake = FakeEmbedder(stall: .milliseconds(50))
        let scorer = SemanticScorer(embedder: fake, timeout: .seconds(60))
        try await withThrowingTaskGroup(of: [Double].self) { group in
            for _ in 0..<8 { group.addTask { try await scorer.similarities(query: "weather", documents: Self.documents).get() } }
            for try await scores in group { #expect(scores.count == 3) }
        }
        #expect(fake.calls.filter { $0.purpose == .document }.count == 1)
    }

    @Test func aStallingModelFallsBackAtTheDeadlineAndTheBatchStillFillsTheCache() async throws {
        try await onOwnThread {
            let fake = FakeEmbedder()
            fake.hold()  // answers only when released: the deadline is the only way out
            let scorer = SemanticScorer(embedder: fake, timeout: .milliseconds(100))
            let clock = ContinuousClock()
            let started = clock.now
            let result = await scorer.similarities(query: "weather", documents: Self.documents)
            let elapsed = clock.now - started
            guard case .failure(let e) = result else { Issue.record("expected a timeout"); return }
            #expect(e.kind == .timeout && e.reason == "embeddings_timeout")
            #expect(e.message.contains("timeout_ms"))
            // A generous bound: on a loaded 2-core machine the timer itself may run late.
            #expect(elapsed < .seconds(3), "\(elapsed)")
            // The document batch was not cancelled: once the model answers, it lands in the cache.
            fake.release()
            for _ in 0..<3000 where scorer.cache.count < 3 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(scorer.cache.count == 3)
            let warm = try await SemanticScorer(embedder: fake, cache: scorer.cache, timeout: .seconds(60))
                .similarities(query: "weather", documents: Self.documents).get()
            #expect(warm[0] > warm[1])
            #expect(fake.calls.filter { $0.purpose == .document }.count == 1)
        }
    }

    @Test func aFailingModelGivesItsReason() async throws {
        let error = EmbeddingError(kind: .rejected, model: "acme/embed-1", upstreamStatus: 503, message: "acme is unavailable")
        let scorer = SemanticScorer(embedder: FakeEmbedder(failure: error), timeout: .seconds(60))
        let result = await scorer.similarities(query: "weather", documents: Self.documents)
        guard case .failure(let e) = result else { Issue.record("expected a failure"); return }
        #expect(e == error && e.reason == "embeddings_http_503")
        #expect(scorer.cache.count == 0)
    }

    @Test func aCancelledCallerStopsWaitingAtOnce() async throws {
        let scorer = SemanticScorer(embedder: FakeEmbedder(stall: .seconds(60)), timeout: .seconds(60))
        let task = Task { await scorer.similarities(query: "weather", documents: Self.documents) }
        try await Task.sleep(for: .milliseconds(20))
        task.cancel()
        guard case .failure(let e) = await task.value else { Issue.record("expected a failure"); return }
        #expect(e.kind == .cancelled)
    }
}
