import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
@testable import SkillGateServer

/// Limits and budgets through a real gateway: a 429 in each surface's own error shape with `Retry-After` and a
/// message naming the limit and when it resets, before any upstream call; `GET /v1/limits`.
@Suite(.serialized) struct LimitsGatewayTests {
    static let chat = #"{"model":"light","messages":[{"role":"user","content":"Hello"}]}"#

    /// Each surface's path, a body, and how to read the error type from its error body.
    static let surfaces: [(path: String, body: String, type: @Sendable (JSONValue) -> String?)] = [
        ("/v1/chat/completions", chat, { $0["error"]?["type"]?.stringValue }),
        ("/v1/messages", #"{"model":"light","max_tokens":16,"messages":[{"role":"user","content":"Hello"}]}"#, { $0["error"]?["type"]?.stringValue }),
        ("/v1/agent", #"{"messages":[{"role":"user","content":"Hello"}]}"#, { $0["error"]?["type"]?.stringValue }),
    ]

    @Test(arguments: 0..<3)
    func overTheRequestsPerMinuteIsA429InTheSurfacesShape(_ index: Int) async throws {
        let surface = Self.surfaces[index]
        // The clock starts at 2026-05-28T20:26:40Z: the minute resets in 20 s.
        let h = try TeamHarness(tokenLimits: TokenLimits(requestsPerMinute: 2))
        let first = try await h.post(surface.path, surface.body)
        let second = try await h.post(surface.path, surface.body)
        let third = try await h.post(surface.path, surface.body)
        h.advance(60)
        let nextMinute = try await h.post(surface.path, surface.body)
        let rows = try await h.ledgerRows()
        await h.stop()
        #expect(first.status == 200 && second.status == 200)
        #expect(third.status == 429)
        let body = try JSONValue.parse(third.body)
        #expect(surface.type(body) == "rate_limit_error", "\(String(decoding: third.body, as: UTF8.self))")
        if surface.path == "/v1/messages" { #expect(body["type"]?.stringValue == "error") }
        let message = body["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("requests_per_minute"))
        #expect(message.contains("token \"team-app\""))
        #expect(message.contains("resets at 2026-05-28T20:27:00Z"), "\(message)")
        #expect(message.contains("skillgate tokens update team-app --rpm"))
        #expect(third.headers["retry-after"] == "20")
        #expect(nextMinute.status == 200)
        #expect(rows.filter { $0["status"] == "429" }.count == 1, "the refusal is in the ledger too")
    }

    @Test func aBudgetStopsTheTokenBeforeAnyUpstreamCallAndResetsNextDay() async throws {
        // Each demo answer costs a few thousandths of a dollar at the harness's prices; $0.001 is crossed by the first.
        let h = try TeamHarness(tokenLimits: TokenLimits(budgetUSDPerDay: 0.001))
        let first = try await h.post("/v1/chat/completions", Self.chat)
        let second = try await h.post("/v1/chat/completions", Self.chat)
        h.advance(86_400)
        let tomorrow = try await h.post("/v1/chat/completions", Self.chat)
        await h.stop()
        #expect(first.status == 200, "under budget when it started: the overshoot rule lets it finish")
        #expect(second.status == 429)
        let message = try JSONValue.parse(second.body)["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("daily budget") && message.contains("budget_usd_per_day"), "\(message)")
        #expect(message.contains("--budget-day"))
        #expect(second.headers["x-skillgate-model"] == nil, "refused before a model was chosen or called")
        #expect(Int(second.headers["retry-after"] ?? "") ?? 0 > 3600)
        #expect(tomorrow.status == 200)
    }

    @Test func aBudgetCountsWhatTheLedgerAlreadyHolds() async throws {
        // Spend recorded by an earlier process (the ledger) counts against today's budget at once.
        let h = try TeamHarness(tokenLimits: TokenLimits())
        _ = try await h.post("/v1/chat/completions", Self.chat)
        let spent = try await h.ledger().first?.costMicrodollars ?? 0
        _ = try h.server.services.tokens.updateLimits(name: "team-app", TokenLimits(budgetUSDPerMonth: Double(spent) / 1e6))
        // A fresh counter (as after a restart): the gateway reads this month's spend from the ledger.
        let counters = LimitCounters(now: { [clock = h.clock] in clock.now }) { subject, since in
            try? h.server.services.tokens.store.usageSummary(tokenId: subject.id, since: since)
        }
        let tokenId = try #require(h.server.services.tokens.list().first?.id)
        let subject = LimitSubject(kind: .token, id: tokenId, name: "team-app")
        await #expect(throws: LimitRejection.self) { try await counters.admit([(subject, TokenLimits(budgetUSDPerMonth: Double(spent) / 1e6))], stream: false) }
        await h.stop()
        #expect(spent > 0)
    }

    @Test func scenarioLimitsHoldForAllTokensTogether() async throws {
        let h = try TeamHarness(scenarios: #"{"chat":{"limits":{"concurrent_requests":5,"requests_per_minute":1}},"other":{}}"#)
        let other = try h.server.services.tokens.create(name: "second-app").token
        let first = try await h.post("/v1/chat/completions", Self.chat)
        let second = try await h.post("/v1/chat/completions", Self.chat, token: other)
        await h.stop()
        #expect(first.status == 200)
        #expect(second.status == 429)
        let message = try JSONValue.parse(second.body)["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("scenario \"chat\"") && message.contains("scenarios.chat.limits.requests_per_minute"), "\(message)")
    }

    @Test func limitsEndpointShowsWhatIsLeft() async throws {
        let h = try TeamHarness(extraConfig: #","token_limits":{"tokens_per_minute":100000}"#,
                                scenarios: #"{"chat":{"limits":{"budget_usd_per_month":50}},"other":{}}"#,
                                tokenLimits: TokenLimits(requestsPerMinute: 10))
        _ = try await h.post("/v1/chat/completions", Self.chat)
        let r = try await h.get("/v1/limits")
        await h.stop()
        #expect(r.status == 200)
        let body = try JSONValue.parse(r.body)
        #expect(body["token"]?.stringValue == "team-app")
        let rows = body["data"]?.arrayValue ?? []
        let rpm = try #require(rows.first { $0["limit"]?.stringValue == "requests_per_minute" })
        #expect(rpm["value"]?.intValue == 10 && rpm["used"]?.intValue == 1 && rpm["remaining"]?.intValue == 9)
        #expect(rpm["resets_at"]?.stringValue == "2026-05-28T20:27:00Z")
        let tpm = try #require(rows.first { $0["limit"]?.stringValue == "tokens_per_minute" }, "the config default applies")
        #expect((tpm["used"]?.intValue ?? 0) > 0)
        let budget = try #require(rows.first { $0["scope"]?.stringValue == "scenario" })
        #expect(budget["name"]?.stringValue == "chat" && budget["value"]?.doubleValue == 50)
    }

    /// 32 clients at once against `requests_per_minute: 10` and `concurrent_requests: 32`: exactly 10 are admitted.
    @Test func aLimitHoldsUnder32ConcurrentClients() async throws {
        let h = try TeamHarness(tokenLimits: TokenLimits(requestsPerMinute: 10, concurrentRequests: 32))
        let (http, base, token) = (h.http, h.base, h.token)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<32 {
                group.addTask {
                    try await http.send(HTTPRequest(method: "POST", url: base + "/v1/chat/completions",
                                                    headers: ["content-type": "application/json", "authorization": "Bearer \(token)"],
                                                    body: Array(Self.chat.utf8))).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        await h.stop()
        #expect(statuses.filter { $0 == 200 }.count == 10)
        #expect(statuses.filter { $0 == 429 }.count == 22)
    }
}
