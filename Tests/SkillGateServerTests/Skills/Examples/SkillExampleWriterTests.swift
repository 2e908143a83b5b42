import Foundation
import Testing
import Synchronization
import SkillGateCore
import SkillGateSkills
import SkillGateState
@testable import SkillGateServer

/// Vectors by made-up topic words no tokenizer or thesaurus knows: "skronk" is music, "drizzleish"
/// weather; anything else the same neutral vector (so the skills' descriptions say nothing).
final class KeywordEmbedder: TextEmbedder {
    let identity = "test:keywords"
    func embed(_ texts: [String], as purpose: EmbeddingPurpose) async throws -> [[Float]] {
        texts.map { t in
            if t.contains("skronk") { return [0, 1, 0] }
            if t.contains("drizzleish") { return [0, 0, 1] }
            return [1, 0, 0]
        }
    }
}

/// `KeywordEmbedder`, counting the batches of example requests (embedded as queries, more than one text).
final class CountingEmbedder: TextEmbedder {
    let identity = "test:keywords"
    private let batches = Atomic<Int>(0)
    var exampleBatches: Int { batches.load(ordering: .relaxed) }
    func embed(_ texts: [String], as purpose: EmbeddingPurpose) async throws -> [[Float]] {
        if purpose == .query && texts.count > 1 { batches.add(1, ordering: .relaxed) }
        return try await KeywordEmbedder().embed(texts, as: purpose)
    }
}

/// A chat model double for the examples writer: per target, examples by the skill's name (read from
/// the prompt), a failure or a stall; counts the calls per skill.
final class ExampleModelDouble: Sendable {
    enum Behaviour: Sendable {
        case answer
        case fail
        case stall(Duration)
    }

    let behaviours: [String: Behaviour]
    /// Skills whose call fails whatever the target.
    let failing: Set<String>
    private let asked = Mutex<[(target: String, skill: String)]>([])

    init(_ behaviours: [String: Behaviour] = [:], failing: Set<String> = []) {
        self.behaviours = behaviours
        self.failing = failing
    }

    var calls: [(target: String, skill: String)] { asked.locked { $0 } }

    static func examples(for skill: String) -> String {
        switch skill {
        case "play_music": return #"{"en": ["some skronk please", "more skronk"], "zh": ["来点skronk"]}"#
        case "get_weather": return #"{"en": ["drizzleish out?", "is it drizzleish"], "zh": ["drizzleish吗"]}"#
        default: return #"{"en": ["do the \#(skill) thing", "\#(skill) now"], "zh": ["帮我\#(skill)"]}"#
        }
    }

    /// What each answer reports spending.
    static let usage = Usage(inputTokens: 120, outputTokens: 45)

    func writer(targets: [RouteTarget], store: SQLiteStateStore? = nil, timeoutMs: Int = 60_000,
                retryAfter: Duration = .seconds(600), maxQueued: Int = 1024, maxPerHour: Int = 600, hour: Duration = .seconds(3600),
                events: SkillExampleWriter.EventSink? = nil) -> SkillExampleWriter {
        SkillExampleWriter(settings: GatewayConfig.Examples(model: "light", timeoutMs: timeoutMs, weight: 0.5, maxPerHour: maxPerHour),
                           targets: targets, store: store, retryAfter: retryAfter,
                           maxQueued: maxQueued, hour: hour, events: events) { [self] target, request in
            let text = request.messages.last?.text ?? ""
            let skill = String(text.split(separator: "\n").first?.dropFirst("name: ".count) ?? "")
            asked.locked { $0.append((target.provider.id, skill)) }
            if failing.contains(skill) { throw ResilienceFixtures.serverError(target.provider.id) }
            switch behaviours[target.provider.id] ?? .answer {
            case .answer: return Self.answer(Self.examples(for: skill))
            case .fail: throw ResilienceFixtures.serverError(target.provider.id)
            case .stall(let d):
                try await Task.sleep(for: d)
                return Self.answer(Self.examples(for: skill))
            }
        }
    }

    func writer(targets: [String] = ["gen"], store: SQLiteStateStore? = nil, timeoutMs: Int = 60_000,
                retryAfter: Duration = .seconds(600), maxQueued: Int = 1024) -> SkillExampleWriter {
        writer(targets: targets.map { ResilienceFixtures.target($0) }, store: store, timeoutMs: timeoutMs, retryAfter: retryAfter,
               maxQueued: maxQueued)
    }

    private static func answer(_ text: String) -> ChatResponse {
        ChatResponse(id: "r", model: "m", content: [.text(text)], finishReason: .stop, usage: usage)
    }
}

@Suite struct SkillExampleWriterTests {
    static let candidates = [
        SkillCandidate(name: "send_email", description: "Send an email to a contact"),
        SkillCandidate(name: "create_event", description: "Create a calendar event"),
        SkillCandidate(name: "get_weather", description: "Current conditions and forecast for a city"),
        SkillCandidate(name: "translate_text", description: "Translate text between languages"),
        SkillCandidate(name: "book_table", description: "Reserve a table at a restaurant"),
        SkillCandidate(name: "play_music", description: "Start playback of a song, album or playlist"),
    ]
    static let request = [Message(role: .user, text: "skronk!")]

    static func ranker(_ writer: SkillExampleWriter) -> SkillRanker {
        SkillRanker(scorer: SemanticScorer(embedder: KeywordEmbedder(), timeout: .seconds(60)), wordVectors: WordVectorScorer.builtIn,
                    selector: nil, examples: writer)
    }

    @Test func cutsAreRankedWithoutExamplesUntilEverySkillHasThemThenTheExamplesDecide() async {
        let model = ExampleModelDouble()
        let ranker = Self.ranker(model.writer())
        let before = await ranker.select(Self.candidates, messages: Self.request, limit: 2, pinned: [])
        #expect(before.mode == .hybrid && before.examples == .pending)
        #expect(!before.cut.kept.contains("play_music"), "nothing but the examples points at it: \(before.cut.scores)")

        let counts = await ranker.writeExamples(for: Self.candidates)
        #expect(counts.written == 6 && counts.failed == 0 && counts.embedding == nil)
        let after = await ranker.select(Self.candidates, messages: Self.request, limit: 2, pinned: [])
        #expect(after.examples == .used && after.cut.kept.contains("play_music"), "\(after.cut.scores)")
        let one = await ranker.select(Self.candidates, messages: Self.request, limit: 1, pinned: [])
        #expect(one.cut.kept == ["play_music"], "\(one.cut.scores)")
        var decision = SkillDecision(declared: 6, limit: 2)
        decision.ranking = after
        #expect(decision.header?.contains("ranking=hybrid; examples=used") == true, "\(decision.header ?? "")")
        var log = JSONObject()
        decision.appendLogFields(to: &log)
        #expect(log["skills_examples"] == "used")

        let weather = await ranker.select(Self.candidates, messages: [Message(role: .user, text: "drizzleish?")], limit: 1, pinned: [])
        #expect(weather.cut.kept == ["get_weather"], "\(weather.cut.scores)")
        #expect(model.calls.count == 6 && Set(model.calls.map(\.skill)) == Set(Self.candidates.map(\.name)), "each skill written once")
    }

    @Test func writtenExamplesAreEmbeddedInTheBackgroundWhileRequestsGoOnWithoutThem() async throws {
        let embedder = CountingEmbedder()
        let writer = ExampleModelDouble().writer()
        let ranker = SkillRanker(scorer: SemanticScorer(embedder: embedder, timeout: .seconds(60)), wordVectors: WordVectorScorer.builtIn,
                                 selector: nil, examples: writer)
        await writer.writeAll(Self.candidates)
        let first = await ranker.select(Self.candidates, messages: Self.request, limit: 1, pinned: [])
        #expect(first.mode == .hybrid && first.examples == .pending, "the request did not wait for the examples' vectors")
        var later = first
        for _ in 0..<200 where later.examples != .used {
            try await Task.sleep(for: .milliseconds(10))
            later = await ranker.select(Self.candidates, messages: Self.request, limit: 1, pinned: [])
        }
        #expect(later.examples == .used && later.cut.kept == ["play_music"])
        #expect(embedder.exampleBatches == 1, "the examples were embedded once, as queries")
    }

    @Test func aSecondWriterOverTheSameStoreFindsTheExamplesWithoutAsking() async throws {
        let dir = NSTemporaryDirectory() + "skillgate-examples-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = ExampleModelDouble()
        let writer = first.writer(store: try SQLiteStateStore(stateDirectory: dir))
        #expect(writer.examples(for: Self.candidates) == nil)
        await writer.writeAll(Self.candidates)
        let written = writer.examples(for: Self.candidates)
        #expect(written?.last == ["some skronk please", "more skronk", "来点skronk"])

        let second = ExampleModelDouble()
        let reopened = second.writer(store: try SQLiteStateStore(stateDirectory: dir))
        #expect(reopened.examples(for: Self.candidates) == written)
        #expect(second.calls.isEmpty)
        // Another model's examples are other examples: keyed by the writing model too.
        let other = ExampleModelDouble().writer(targets: ["other"], store: try SQLiteStateStore(stateDirectory: dir))
        #expect(other.examples(for: Self.candidates) == nil)
    }

    @Test func aFailedSkillIsWrittenAgainOnlyAfterTheBackoff() async {
        let model = ExampleModelDouble(failing: ["book_table"])
        let patient = model.writer()
        await patient.writeAll(Self.candidates)
        #expect(patient.counts.written == 5 && patient.counts.failed == 1)
        #expect(patient.examples(for: Self.candidates) == nil)
        #expect(patient.lastFailure == "skill book_table: gen/m: upstream 500")
        await patient.writeAll(Self.candidates)
        #expect(model.calls.count == 6, "within the backoff the failed skill is not asked again")

        let eager = ExampleModelDouble(failing: ["book_table"])
        let writer = eager.writer(retryAfter: .zero)
        await writer.writeAll(Self.candidates)
        await writer.writeAll(Self.candidates)
        #expect(eager.calls.filter { $0.skill == "book_table" }.count == 2)
    }

    @Test func aRequestRankedWithoutExamplesLogsWhyTheyAreMissing() async {
        let model = ExampleModelDouble(["gen": .fail])
        let writer = model.writer()
        let ranker = Self.ranker(writer)
        await writer.writeAll(Self.candidates)
        let r = await ranker.select(Self.candidates, messages: Self.request, limit: 2, pinned: [])
        #expect(r.examples == .pending && r.examplesError?.hasPrefix("skill ") == true)
        var decision = SkillDecision(declared: 6, limit: 2)
        decision.ranking = r
        var log = JSONObject()
        decision.appendLogFields(to: &log)
        #expect(log["skills_examples"] == "pending" && log["skills_examples_error"]?.stringValue?.contains("upstream 500") == true)
    }

    @Test func theQueueIsBoundedAndSkillsLeftOutAreQueuedByALaterRequest() async {
        // With room for two, a cut of six skills queues two; the rest are queued when later cuts meet them.
        let model = ExampleModelDouble()
        let writer = model.writer(maxQueued: 2)
        await writer.writeAll(Self.candidates)
        #expect(writer.counts.written == 2)
        await writer.writeAll(Self.candidates)
        #expect(writer.counts.written == 4)
        await writer.writeAll(Self.candidates)
        #expect(writer.counts.written == 6 && writer.examples(for: Self.candidates) != nil)
        #expect(model.calls.count == 6)
    }

    @Test func aFailingTargetIsFollowedByTheNext() async {
        let model = ExampleModelDouble(["a": .fail])
        let writer = model.writer(targets: ["a", "b"])
        await writer.writeAll(Array(Self.candidates.prefix(1)))
        #expect(writer.counts.written == 1)
        #expect(model.calls.map(\.target) == ["a", "b"])
    }

    @Test func aStallingModelIsGivenUpAtTheTimeout() async {
        // The bound is far from the 50 ms timeout and far below the stall: the timeout is a pool task, and a parallel run
        // of the whole suite keeps both pool threads busy for about 20 s at its start (a stress run measured 22 s).
        let model = ExampleModelDouble(["slow": .stall(.seconds(120))])
        let writer = model.writer(targets: ["slow"], timeoutMs: 50)
        let started = ContinuousClock.now
        await writer.writeAll(Array(Self.candidates.prefix(2)))
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(writer.counts.failed == 2 && writer.examples(for: Array(Self.candidates.prefix(2))) == nil)
        #expect(writer.lastFailure?.contains("wrote no examples within 50 ms (skill_ranking.examples.timeout_ms); raise it") == true)
    }
}
