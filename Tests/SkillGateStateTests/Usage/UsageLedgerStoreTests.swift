import Foundation
import Testing
import SkillGateCore
@testable import SkillGateState

/// The ledger's rows in the SQLite store: batches, agent runs with their calls, reports, and token limits.
@Suite struct UsageLedgerStoreTests {
    static func withStore(_ body: (SQLiteStateStore) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-usage-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(try SQLiteStateStore(stateDirectory: dir))
    }

    static func row(_ kind: UsageRecord.Kind, model: String, input: Int, cost: Int64, outcome: String = "ok", day: Int64 = 0) -> UsageRecord {
        var r = UsageRecord(occurredAt: Date(millisecondsSince1970: 1_780_000_000_000 + day * 86_400_000), requestId: "req_1", scenario: "chat",
                            model: model, usage: Usage(inputTokens: input, outputTokens: 1), costMicrodollars: cost, outcome: outcome)
        r.kind = kind
        r.tokenName = "app"
        return r
    }

    @Test func anAgentRunCountsOnceInSumsAndPerCallByModel() throws {
        try Self.withStore { store in
            try store.recordUsage([
                Self.row(.run, model: "p/strong", input: 30, cost: 300),
                Self.row(.call, model: "p/light", input: 10, cost: 100),
                Self.row(.call, model: "p/strong", input: 20, cost: 200),
                Self.row(.request, model: "p/light", input: 5, cost: 50, outcome: "upstream_timeout", day: 1),
            ])
            let since = Date(millisecondsSince1970: 0)
            #expect(try store.usageSummary(tokenId: nil, since: since) == UsageSummary(requests: 2, inputTokens: 35, outputTokens: 2, costMicrodollars: 350))
            #expect(try store.usageSummary(scenario: "chat", since: since).costMicrodollars == 350)
            let byModel = try store.usageReport(since: since, by: .model)
            #expect(byModel.map(\.key) == ["p/strong", "p/light"])
            #expect(byModel.first { $0.key == "p/light" }?.requests == 2)
            #expect(byModel.first { $0.key == "p/light" }?.errors == 1)
            let byToken = try store.usageReport(since: since, by: .token)
            #expect(byToken == [UsageReportRow(key: "app", requests: 2, errors: 1, inputTokens: 35, outputTokens: 2, cachedInputTokens: 0,
                                               reasoningTokens: 0, costMicrodollars: 350)])
            #expect(try store.usageReport(since: since, by: .day).map(\.key) == ["2026-05-28", "2026-05-29"])
        }
    }

    /// The gateway's own calls (writing skill examples, decision 0049): in the gateway-wide sums and reports, under their
    /// own name when grouped by token, and in no token's or scenario's totals.
    @Test func theGatewaysOwnCallsAreReportedUnderTheirOwnNameAndChargedToNoToken() throws {
        try Self.withStore { store in
            var own = UsageRecord(occurredAt: Date(millisecondsSince1970: 1_780_000_000_000), provider: "p", model: "m",
                                  usage: Usage(inputTokens: 7, outputTokens: 3), costMicrodollars: 40)
            own.kind = .examples
            var client = Self.row(.request, model: "m", input: 5, cost: 50)
            client.tokenId = "tok_a"
            _ = try store.withConnection { db in
                try db.execute("INSERT INTO client_tokens (id, name, token_hash, created_at) VALUES ('tok_a', 'app', 'h', 0)")
            }
            try store.recordUsage([own, client])
            let since = Date(millisecondsSince1970: 0)
            let byToken = try store.usageReport(since: since, by: .token)
            #expect(byToken.map(\.key) == ["app", "(skill examples)"], "\(byToken)")
            #expect(byToken.last?.costMicrodollars == 40 && byToken.last?.inputTokens == 7)
            #expect(try store.usageReport(since: since, by: .model).first { $0.key == "m" }?.requests == 2)
            #expect(try store.usageSummary(tokenId: nil, since: since).costMicrodollars == 90, "gateway-wide: every spend")
            let today = Date(millisecondsSince1970: 1_780_000_000_000 - 1_780_000_000_000 % 86_400_000)
            #expect(try store.usageSummary(tokenId: "tok_a", since: today).costMicrodollars == 50, "the token's budget: its own requests only")
            #expect(try store.usageSummary(scenario: "chat", since: today).costMicrodollars == 50)
        }
    }

    /// A record whose every column differs with `i` (nil where a column may be empty), so a value bound to the wrong
    /// parameter shows.
    static func distinct(_ i: Int) -> UsageRecord {
        var r = UsageRecord(occurredAt: Date(millisecondsSince1970: 1_780_000_000_000 + Int64(i) * 1_000), tokenId: nil,
                            requestId: "req_\(i)", scenario: i % 4 == 0 ? nil : "scenario-\(i % 3)", provider: "p\(i % 5)",
                            model: "p\(i % 5)/m\(i)",
                            usage: Usage(inputTokens: i, outputTokens: 2 * i, cachedInputTokens: 3 * i, cacheWriteTokens: 4 * i,
                                         reasoningTokens: 5 * i),
                            costMicrodollars: i % 6 == 0 ? nil : Int64(7 * i), durationMilliseconds: 8 * i, outcome: i % 2 == 0 ? "ok" : "upstream_timeout")
        r.kind = [UsageRecord.Kind.request, .run, .call][i % 3]
        r.callIndex = i % 3 == 2 ? i : 0
        r.tokenName = "token-\(i % 2)"
        r.surface = i % 7 == 0 ? nil : "openai"
        r.stream = i % 2 == 1
        r.status = 200 + i
        r.attempts = i % 4
        r.skillsRun = i % 3 == 1 ? ["calculator", "skill-\(i)"] : []
        return r
    }

    /// The rows read back in insertion order, as the records they were written from.
    static func storedRecords(_ store: SQLiteStateStore) throws -> [UsageRecord] {
        try store.withConnection { db in
            try db.statement("""
                SELECT occurred_at, token_id, request_id, scenario, provider, model, input_tokens, output_tokens, cached_input_tokens,
                       cache_write_tokens, reasoning_tokens, cost_microdollars, duration_ms, outcome, kind, call_index, token_name, surface,
                       stream, status, attempts, skills_run
                FROM usage_records ORDER BY id
                """).rows { row in
                    var r = UsageRecord(occurredAt: Date(millisecondsSince1970: row.int64(0)), tokenId: row.optionalText(1),
                                        requestId: row.optionalText(2), scenario: row.optionalText(3), provider: row.optionalText(4),
                                        model: row.optionalText(5),
                                        usage: Usage(inputTokens: Int(row.int64(6)), outputTokens: Int(row.int64(7)),
                                                     cachedInputTokens: Int(row.int64(8)), cacheWriteTokens: Int(row.int64(9)),
                                                     reasoningTokens: Int(row.int64(10))),
                                        costMicrodollars: row.optionalInt64(11), durationMilliseconds: Int(row.int64(12)), outcome: row.text(13))
                    r.kind = UsageRecord.Kind(rawValue: row.text(14)) ?? .request
                    r.callIndex = Int(row.int64(15))
                    r.tokenName = row.optionalText(16)
                    r.surface = row.optionalText(17)
                    r.stream = row.int64(18) != 0
                    r.status = Int(row.int64(19))
                    r.attempts = Int(row.int64(20))
                    let skills = try? JSONValue.parse(row.text(21))
                    r.skillsRun = skills?.arrayValue?.compactMap(\.stringValue) ?? ["unreadable"]
                    return r
                }
        }
    }

    /// A batch goes in as multi-row statements of `rowsPerInsert` rows and one for the rest: every column of every row
    /// comes back as it was written, on both sides of each statement's boundary.
    @Test(arguments: [1, SQLiteStateStore.rowsPerInsert - 1, SQLiteStateStore.rowsPerInsert, SQLiteStateStore.rowsPerInsert + 1, 70])
    func everyColumnOfABatchIsStored(count: Int) throws {
        try Self.withStore { store in
            let records = (0..<count).map(Self.distinct)
            try store.recordUsage(records)
            try store.recordUsage([Self.distinct(count)])
            #expect(try Self.storedRecords(store) == records + [Self.distinct(count)])
        }
    }

    @Test func tokenLimitsAreStoredAndUpdated() throws {
        try Self.withStore { store in
            let service = TokenService(store: store)
            _ = try service.create(name: "app", limits: TokenLimits(requestsPerMinute: 10))
            #expect(try service.list().first?.limits == TokenLimits(requestsPerMinute: 10))
            try service.updateLimits(name: "app", TokenLimits(requestsPerMinute: 10, budgetUSDPerDay: 2.5))
            #expect(try service.list().first?.limits == TokenLimits(requestsPerMinute: 10, budgetUSDPerDay: 2.5))
            #expect(throws: TokenError.unknownToken("nope")) { try service.updateLimits(name: "nope", TokenLimits()) }
        }
    }

    @Test(arguments: [
        (#"{"rpm":1}"#, "unknown limit \"rpm\""),
        (#"{"budget_usd_per_month":-0.01}"#, "0 or more"),
        (#"{"requests_per_minute":-3}"#, "0 or more"),
        (#"[]"#, "must be an object"),
    ])
    func limitsJSONIsStrict(_ json: String, _ text: String) throws {
        do {
            _ = try TokenLimits(json: try JSONValue.parse(json), where: "limits")
            Issue.record("accepted \(json)")
        } catch {
            #expect("\(error)".contains(text), "\(error)")
        }
    }
}
