import Testing
import SkillGateCore
import SkillGateState
@testable import SkillGateServer

/// `token_limits`, `scenarios.<name>.limits`, `ledger` and `metrics` in the config: strict, with messages that
/// name the key and what to write instead.
@Suite struct TeamConfigTests {
    private func load(_ json: String) throws -> GatewayConfig {
        try GatewayConfig(json: try JSONValue.parse(json), file: "test.json", baseDirectory: "/etc/skillgate")
    }

    @Test func limitsLedgerAndMetricsAreRead() throws {
        let c = try load(#"""
        {"token_limits":{"requests_per_minute":60,"budget_usd_per_day":5},
         "scenarios":{"chat":{"limits":{"concurrent_streams":3,"budget_usd_per_month":100.5}}},
         "ledger":{"flush_interval_ms":250},"metrics":{"listen":"127.0.0.1:9464"}}
        """#)
        #expect(c.tokenLimits == TokenLimits(requestsPerMinute: 60, budgetUSDPerDay: 5))
        #expect(c.scenarios["chat"]?.limits == TokenLimits(concurrentStreams: 3, budgetUSDPerMonth: 100.5))
        #expect(c.ledger.flushIntervalMs == 250)
        #expect(c.ledger.flushInterval(sharedDatabase: false) == 250 && c.ledger.flushInterval(sharedDatabase: true) == 250)
        #expect(c.metrics.listen?.host == "127.0.0.1" && c.metrics.listen?.port == 9464)
    }

    /// `state.query_timeout_seconds` bounds each PostgreSQL statement's wait (decision 0163); 10 s when not set.
    @Test func theDatabasesAnswerTimeoutIsRead() throws {
        #expect(try load(#"{"state":{"postgres_url":"postgresql://sg@db:5432/sg","query_timeout_seconds":3}}"#).postgresAnswerTimeout == .seconds(3))
        #expect(try load(#"{"state":{"postgres_url":"postgresql://sg@db:5432/sg"}}"#).postgresAnswerTimeout == .seconds(10))
    }

    @Test func defaultsLimitNothingAndServeMetricsOnTheMainListener() throws {
        let c = try load("{}")
        #expect(c.tokenLimits.isEmpty)
        #expect(c.ledger.enabled && c.ledger.flushIntervalMs == nil)
        // Short batches beside the event loops on SQLite, the fixed cost of a batch amortised on PostgreSQL.
        #expect(c.ledger.flushInterval(sharedDatabase: false) == 25 && c.ledger.flushInterval(sharedDatabase: true) == 1000)
        #expect(c.metrics.enabled && c.metrics.listen == nil)
    }

    @Test(arguments: [
        (#"{"token_limits":{"requests_per_hour":5}}"#, "$.token_limits", "unknown limit \"requests_per_hour\""),
        (#"{"token_limits":{"budget_usd_per_day":-1}}"#, "$.token_limits", "0 or more"),
        // Plain decimal dollars only (decision 0103).
        (#"{"token_limits":{"budget_usd_per_day":1e-12}}"#, "$.token_limits", "like 5, 5.25 or 0.01"),
        (#"{"scenarios":{"chat":{"limits":{"budget_usd_per_month":2.5e1}}}}"#, "$.scenarios.chat.limits", "no sign, exponent"),
        (#"{"token_limits":{"concurrent_requests":1.5}}"#, "$.token_limits", "whole number"),
        (#"{"scenarios":{"chat":{"limits":{"tokens_per_minute":"many"}}}}"#, "$.scenarios.chat.limits", "whole number"),
        (#"{"ledger":{"flush_interval_ms":0}}"#, "$.ledger.flush_interval_ms", "10 to 60000"),
        (#"{"metrics":{"listen":"nowhere"}}"#, "$.metrics.listen", "HOST:PORT"),
        (#"{"metrics":{"port":9}}"#, "$.metrics.port", "unknown key"),
        (#"{"state":{"query_timeout_seconds":0}}"#, "$.state.query_timeout_seconds", "1 to 600 seconds"),
        (#"{"state":{"query_timeout_seconds":"soon"}}"#, "$.state.query_timeout_seconds", "expected an integer"),
    ])
    func badInputNamesTheKey(_ json: String, _ path: String, _ text: String) {
        do {
            _ = try load(json)
            Issue.record("accepted \(json)")
        } catch let error as JSONShapeError {
            #expect(error.path == path, "\(error)")
            #expect(error.message.contains(text), "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
