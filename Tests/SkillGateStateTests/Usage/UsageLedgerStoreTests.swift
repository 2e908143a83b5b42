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
