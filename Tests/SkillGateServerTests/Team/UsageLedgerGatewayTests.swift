import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// The usage ledger through a real gateway: one row per request on every surface, streams included, with the
/// token, scenario, model, tokens, cost, status and outcome; written in batches off the request path.
@Suite(.serialized) struct UsageLedgerGatewayTests {
    static let chat = #"{"model":"light","messages":[{"role":"user","content":"Hello there, how are you today?"}]}"#

    /// (path, body) of each surface, streamed and not.
    static let requests: [(String, String)] = [
        ("/v1/chat/completions", chat),
        ("/v1/chat/completions", #"{"model":"light","stream":true,"messages":[{"role":"user","content":"Hello there"}]}"#),
        ("/v1/messages", #"{"model":"strong","max_tokens":64,"messages":[{"role":"user","content":"Hello there"}]}"#),
        ("/v1/messages", #"{"model":"strong","max_tokens":64,"stream":true,"messages":[{"role":"user","content":"Hello there"}]}"#),
    ]

    @Test(arguments: 0..<4)
    func everySurfaceAndStreamIsOneRowWithTokensAndCost(_ index: Int) async throws {
        let h = try TeamHarness()
        let (path, body) = Self.requests[index]
        let r = try await h.post(path, body)
        let rows = try await h.ledgerRows()
        await h.stop()
        #expect(r.status == 200)
        try #require(rows.count == 1, "\(rows)")
        let row = rows[0]
        #expect(row["kind"] == "request")
        #expect(row["token_name"] == "team-app")
        #expect(row["token_id"]?.hasPrefix("tok_") == true)
        #expect(row["scenario"] == "chat")
        #expect(row["model"]?.hasPrefix("demo/demo-") == true)
        #expect(row["surface"] == (path == "/v1/messages" ? "anthropic" : "openai"))
        #expect(row["stream"] == (body.contains("\"stream\":true") ? "1" : "0"))
        #expect(Int(row["input_tokens"] ?? "") ?? 0 > 0, "usage recorded for streams too: \(row)")
        #expect(Int(row["output_tokens"] ?? "") ?? 0 > 0)
        #expect(Int(row["cost_microdollars"] ?? "") ?? 0 > 0)
        #expect(row["outcome"] == "ok" && row["status"] == "200" && row["attempts"] == "1")
    }

    @Test func refusedRequestsAreRecordedWithTheirOutcomeAndUnauthenticatedOnesAreNot() async throws {
        let h = try TeamHarness()
        _ = try await h.post("/v1/chat/completions", #"{"model":"nope/nope","messages":[{"role":"user","content":"x"}]}"#)
        _ = try await h.post("/v1/chat/completions", Self.chat, token: "sgk_not_a_token")
        _ = try await h.get("/healthz")
        let rows = try await h.ledgerRows()
        await h.stop()
        #expect(rows.count == 1)
        #expect(rows.first?["status"] == "404")
        #expect(rows.first?["outcome"] == "not_found")
    }

    @Test func theReportGroupsByTokenModelScenarioAndDay() async throws {
        let h = try TeamHarness()
        for _ in 0..<3 { _ = try await h.post("/v1/chat/completions", Self.chat) }
        _ = try await h.post("/v1/messages", Self.requests[2].1)
        let byToken = try await h.ledger(by: .token)
        let byModel = try await h.ledger(by: .model)
        let byScenario = try await h.ledger(by: .scenario)
        let byDay = try await h.ledger(by: .day)
        await h.stop()
        #expect(byToken.map(\.key) == ["team-app"])
        #expect(byToken.first?.requests == 4)
        #expect(Set(byModel.map(\.key)) == ["demo/demo-light", "demo/demo-strong"])
        #expect(byModel.first { $0.key == "demo/demo-light" }?.requests == 3)
        #expect(byScenario.map(\.key) == ["chat"])
        #expect(byDay.count == 1 && byDay.first?.key.count == 10)
        let table = UsageReportText.table(byToken, by: .token)
        #expect(table.contains("team-app") && table.contains("TOTAL"))
    }

    @Test func recordingIsOffTheRequestPathAndCheap() async throws {
        try await offThePool { try Self.recordingCost() }
    }

    static func recordingCost() throws {
        // A ledger over a real store, 2,000 rows queued as the account stage queues them: the queueing itself (what
        // a request pays) is timed, the batch writes happen on the writer thread.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-ledger-\(UUID().uuidString)").path
        let store = try SQLiteStateStore(stateDirectory: dir)
        let ledger = UsageLedger(store: store, flushInterval: .milliseconds(50))
        var entry = RequestLogEntry(requestId: "req_x", method: "POST", path: "/v1/chat/completions")
        entry.tokenId = nil
        entry.tokenName = "bench"
        entry.status = 200
        entry.usage = Usage(inputTokens: 10, outputTokens: 5)
        let row = UsageRecord.rows(for: { var e = entry; e.tokenId = "tok_0000000000000000"; return e }(), outcome: "ok", admitted: true)
        _ = try store.withConnection { db in
            try db.execute("INSERT INTO client_tokens (id, name, token_hash, created_at) VALUES ('tok_0000000000000000', 'bench', 'h', 0)")
        }
        let start = ContinuousClock.now
        for _ in 0..<2000 { ledger.record(row) }
        let queueing = ContinuousClock.now - start
        let writeStart = ContinuousClock.now
        ledger.flush()
        let writing = ContinuousClock.now - writeStart
        let written = ledger.stats.written
        ledger.close()
        let summary = try store.usageSummary(tokenId: "tok_0000000000000000", since: Date(timeIntervalSince1970: 0))
        try? FileManager.default.removeItem(atPath: dir)
        #expect(written == 2000)
        #expect(summary.requests == 2000 && summary.inputTokens == 20_000)
        print("ledger: queueing 2,000 records took \(queueing) (\(queueing / 2000) per request); writing them \(writing) on the writer thread")
        #expect(queueing < .milliseconds(200))
    }

    /// A writer with nothing queued sleeps until a record comes (it used to wake every interval, 40 times a second
    /// at the embedded store's 25 ms), and a record that comes is written one interval later.
    @Test func anIdleWriterSleepsUntilARecordComes() async throws {
        let fixture = try LedgerFixture(flushInterval: .milliseconds(10))
        defer { fixture.remove() }
        let ledger = fixture.ledger
        try await Task.sleep(for: .milliseconds(400))
        let idleWakes = ledger.stats.writerWakes
        #expect(idleWakes == 0, "an idle writer woke \(idleWakes) times in 400 ms")
        ledger.record(fixture.row)
        let deadline = ContinuousClock.now + .seconds(10)
        while ledger.stats.written < 1 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(ledger.stats.written == 1)
        // Written, the writer goes back to sleep.
        try await Task.sleep(for: .milliseconds(300))
        let wakesAfter = ledger.stats.writerWakes
        #expect(wakesAfter <= 3, "the writer woke \(wakesAfter) times around one record")
    }

    @Test func aFullBatchIsWrittenBeforeTheInterval() async throws {
        // A minute-long interval and a batch of 8: the eighth record wakes the writer, so the rows land long before the
        // interval; the seven before it alone do not.
        let fixture = try LedgerFixture(flushInterval: .seconds(60), batchSize: 8)
        defer { fixture.remove() }
        let (ledger, row) = (fixture.ledger, fixture.row)
        #expect(row.count == 1)
        for _ in 0..<7 { ledger.record(row) }
        try await Task.sleep(for: .milliseconds(300))
        #expect(ledger.stats.written == 0)
        ledger.record(row)
        let deadline = ContinuousClock.now + .seconds(10)
        while ledger.stats.written < 8 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(ledger.stats.written == 8)
    }

    /// A batch of four early batches or more means the low-priority writer is behind (decision 0060): it is written at
    /// normal priority on the catch-up lane, whole; a batch below that stays on the writer's own thread.
    @Test func aBacklogIsWrittenOnTheCatchUpLane() async throws {
        let fixture = try LedgerFixture(flushInterval: .milliseconds(20), batchSize: 8)
        defer { fixture.remove() }
        let (ledger, row) = (fixture.ledger, fixture.row)
        ledger.record(row + row)
        await ledger.flushOffThePool()
        #expect(ledger.stats.written == 2)
        #expect(ledger.catchUps == 0)
        ledger.record(Array(repeating: row[0], count: 100))
        await ledger.flushOffThePool()
        #expect(ledger.stats.written == 102)
        #expect(ledger.catchUps >= 1)
    }

    @Test func theLedgerAndMetricsHoldNoSecrets() async throws {
        let h = try TeamHarness()
        _ = try await h.post("/v1/chat/completions", Self.chat)
        _ = try await h.post("/v1/chat/completions", Self.chat, token: h.token + "x")
        let metrics = String(decoding: try await h.get("/metrics").body, as: UTF8.self)
        let limits = String(decoding: try await h.get("/v1/limits").body, as: UTF8.self)
        let database = await h.databaseBytes()
        await h.stop()
        for text in [metrics, limits, database] {
            #expect(!text.contains(h.token))
            #expect(!text.contains(String(h.token.suffix(16))))
            #expect(!text.contains(TeamHarness.providerKey))
        }
        #expect(!metrics.contains("req_"), "no request ids in metric labels")
    }
}

/// A ledger over a fresh SQLite store that holds one token, and one request row of that token to record.
private struct LedgerFixture {
    let directory: String
    let ledger: UsageLedger
    let row: [UsageRecord]

    init(flushInterval: Duration, batchSize: Int = UsageLedger.embeddedBatch) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sg-ledger-\(UUID().uuidString)").path
        let store = try SQLiteStateStore(stateDirectory: directory)
        _ = try store.withConnection { db in
            try db.execute("INSERT INTO client_tokens (id, name, token_hash, created_at) VALUES ('tok_0000000000000000', 'app', 'h', 0)")
        }
        ledger = UsageLedger(store: store, flushInterval: flushInterval, batchSize: batchSize)
        var entry = RequestLogEntry(requestId: "req_x", method: "POST", path: "/v1/chat/completions")
        entry.tokenId = "tok_0000000000000000"
        entry.status = 200
        row = UsageRecord.rows(for: entry, outcome: "ok", admitted: true)
    }

    /// Closes the ledger and removes the store's directory.
    func remove() {
        ledger.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
