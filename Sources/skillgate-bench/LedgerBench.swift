import Foundation
import SkillGateCore
import SkillGateState

/// Measures what the usage ledger's writer spends per row on the embedded SQLite store: batches of 512 realistic
/// request records (the writer's batch on SQLite, decision 0031) with their running totals, against the same rows
/// inserted into a bare table with no index, foreign key or totals in the same run (the floor SQLite itself sets).
/// CPU time of the writing thread, so other processes on the machine do not count.
func runLedgerBench() async throws {
    let dir = NSTemporaryDirectory() + "/skillgate-ledger-bench-\(ProcessInfo.processInfo.processIdentifier)"
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let store = try SQLiteStateStore(stateDirectory: dir)
    let tokens = TokenService(store: store)
    let (_, token) = try tokens.create(name: "bench")
    let batch = 512
    let start = Date()
    var sequence = 0
    func records() -> [UsageRecord] {
        (0..<batch).map { _ in
            sequence += 1
            var record = UsageRecord(occurredAt: start.addingTimeInterval(Double(sequence) / 5_000), tokenId: token.id,
                                     requestId: "req_" + String(sequence, radix: 16).leftPad(24, with: "0"), scenario: "chat",
                                     provider: "mock", model: "mock-model",
                                     usage: Usage(inputTokens: 388, outputTokens: 24), costMicrodollars: 412,
                                     durationMilliseconds: 1, outcome: "ok")
            record.tokenName = "bench"
            record.surface = "openai"
            record.status = 200
            record.attempts = 1
            return record
        }
    }
    // The batches are built before each measurement (as many as `measureCPUMicros` runs: its warm-up and five
    // rounds), so only the writes are timed.
    let iterations = 8
    func batches() -> IndexingIterator<[[UsageRecord]]> {
        (0..<(max(1, iterations / 10) + 5 * iterations)).map { _ in records() }.makeIterator()
    }
    var ledgerBatches = batches()
    let ledger = try measureCPUMicros(iterations: iterations) { try store.recordUsage(ledgerBatches.next()!) } / Double(batch)

    try store.withConnection { db in
        try db.execute("""
            CREATE TABLE bare_rows (id INTEGER PRIMARY KEY, occurred_at INTEGER, token_id TEXT, request_id TEXT,
                scenario TEXT, provider TEXT, model TEXT, input_tokens INTEGER, output_tokens INTEGER, cost INTEGER, outcome TEXT)
            """)
    }
    var bareBatches = batches()
    let bare = try measureCPUMicros(iterations: iterations) {
        let rows = bareBatches.next()!
        try store.withConnection { db in
            try db.transaction {
                let insert = try db.statement("""
                    INSERT INTO bare_rows (occurred_at, token_id, request_id, scenario, provider, model, input_tokens,
                        output_tokens, cost, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for r in rows {
                    try insert.run([.integer(Int64(r.occurredAt.timeIntervalSince1970 * 1000)), .optionalText(r.tokenId), .optionalText(r.requestId),
                                    .optionalText(r.scenario), .optionalText(r.provider), .optionalText(r.model),
                                    .int(r.usage.inputTokens), .int(r.usage.outputTokens), .int64(r.costMicrodollars ?? 0), .text(r.outcome)])
                }
            }
        }
    } / Double(batch)
    report("bare SQLite row, 10 columns (reference)", bare, unit: "µs")
    report("ledger row, batches of \(batch), with totals", ledger, unit: "µs")
}
