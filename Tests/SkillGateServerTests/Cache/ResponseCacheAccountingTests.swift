import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
@testable import SkillGateServer

/// How a hit is accounted for (decision 0140): the log line and the ledger row say so, it costs nothing against budgets
/// and token limits but counts as a request, and the metrics count hits, misses, stores and what is held.
@Suite struct ResponseCacheAccountingTests {
    static let question = ResponseCacheGateway.chat("Invent a holiday")

    @Test func theLogLineSaysHitAndHasNoSpend() async throws {
        try await ResponseCacheGateway.with([OpenAIRecordings.text]) { g, _ in
            _ = try await g.post(Self.question)
            g.clock.advance(7)
            _ = try await g.post(Self.question)
            let lines = await g.logLines(atLeast: 2)
            try #require(lines.count == 2)
            let miss = lines[0], hit = lines[1]
            #expect(miss["cache"]?.stringValue == "miss" && miss["cache_age_s"] == nil)
            #expect(miss["input_tokens"]?.intValue == 16 && miss["cost_usd"] != nil && miss["upstream_ms"] != nil)
            #expect(hit["cache"]?.stringValue == "hit" && hit["cache_age_s"]?.intValue == 7, "\(hit)")
            #expect(hit["status"]?.intValue == 200 && hit["provider"]?.stringValue == "up" && hit["model"]?.stringValue == "up/m")
            #expect(hit["input_tokens"] == nil && hit["cost_usd"] == nil && hit["upstream_ms"] == nil && hit["attempts"] == nil, "\(hit)")
        }
    }

    @Test func theLedgerRowIsACacheHitWithNoTokensOrCost() async throws {
        try await ResponseCacheGateway.with([OpenAIRecordings.text]) { g, _ in
            _ = try await g.post(Self.question)
            _ = try await g.stream(ResponseCacheGateway.chat("Invent a holiday", #""stream":true"#))
            let rows = try await g.ledgerRows()
            try #require(rows.count == 2)
            #expect(rows[0]["kind"] == "request" && rows[0]["input_tokens"] == "16" && rows[0]["attempts"] == "1")
            let hit = rows[1]
            #expect(hit["kind"] == "cache_hit" && hit["outcome"] == "ok" && hit["status"] == "200" && hit["stream"] == "1", "\(hit)")
            #expect(hit["model"] == "up/m" && hit["provider"] == "up" && hit["token_name"] == "cache-app")
            #expect(hit["input_tokens"] == "0" && hit["output_tokens"] == "0" && hit["attempts"] == "0")
            #expect(hit["cost_microdollars"] == "" || hit["cost_microdollars"] == "0", "\(hit)")
            // Reports: two requests of the token, one model call of its model.
            await g.server.flushLedger()
            let store = g.server.services.tokens.store
            let byToken = try store.usageReport(since: Date(timeIntervalSince1970: 0), by: .token)
            #expect(byToken.first { $0.key == "cache-app" }.map { ($0.requests, $0.errors, $0.inputTokens) } ?? (0, 0, 0) == (2, 0, 16))
            let byModel = try store.usageReport(since: Date(timeIntervalSince1970: 0), by: .model)
            #expect(byModel.first { $0.key == "up/m" }?.requests == 1)
        }
    }

    /// Hits count against requests per minute, and not against tokens per minute or budgets.
    @Test func aHitCountsAsARequestAndCostsNothing() async throws {
        let limits = TokenLimits(requestsPerMinute: 4, tokensPerMinute: 400, budgetUSDPerDay: 1)
        try await ResponseCacheGateway.with([OpenAIRecordings.text], tokenLimits: limits) { g, _ in
            for _ in 0..<4 { #expect(try await g.post(Self.question).status == 200) }
            let status = try await g.get("/v1/limits").json
            func used(_ limit: String) -> JSONValue? {
                status["data"]?.arrayValue?.first { $0["limit"]?.stringValue == limit }?["used"]
            }
            #expect(used("requests_per_minute")?.intValue == 4, "\(status)")
            #expect(used("tokens_per_minute")?.intValue == 379, "\(status)")
            // The miss's 16 input and 363 output tokens at $1 and $2 a million.
            #expect(used("budget_usd_per_day")?.doubleValue == 0.000742, "\(status)")
            let refused = try await g.post(Self.question)
            #expect(refused.status == 429, "\(refused.text)")
        }
    }

    @Test func theMetricsCountWhatTheCacheDid() async throws {
        try await ResponseCacheGateway.with([OpenAIRecordings.text]) { g, _ in
            _ = try await g.post(Self.question)
            _ = try await g.post(Self.question)
            _ = try await g.post(Self.question, headers: ["x-skillgate-cache": "no-store"])
            _ = try await g.post(Self.question, headers: ["x-skillgate-cache": "refresh"])
            #expect(try await g.metric(#"skillgate_response_cache_requests_total{result="hit"}"#) == 1)
            #expect(try await g.metric(#"skillgate_response_cache_requests_total{result="miss"}"#) == 1)
            #expect(try await g.metric(#"skillgate_response_cache_requests_total{result="bypass"}"#) == 1)
            #expect(try await g.metric(#"skillgate_response_cache_requests_total{result="refresh"}"#) == 1)
            #expect(try await g.metric("skillgate_response_cache_stores_total") == 2)
            #expect(try await g.metric("skillgate_response_cache_entries") == 1)
            let bytes = try #require(try await g.metric("skillgate_response_cache_bytes"))
            #expect(bytes > 1_000 && bytes < 4_000, "\(bytes)")
            #expect(try await g.metric(#"skillgate_response_cache_evictions_total{reason="bytes"}"#) == 0)
            // The request counter has the hit under the model it answered for, with no tokens added for it.
            #expect(try await g.metric(#"skillgate_tokens_total{model="up/m",direction="input"}"#) == 48)
        }
    }
}
