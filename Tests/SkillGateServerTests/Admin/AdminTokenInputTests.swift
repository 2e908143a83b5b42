import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
@testable import SkillGateServer

/// What the admin API reads when it creates a token or changes its limits (decision 0103): budgets as plain decimal
/// dollars only, and a default scenario that is configured and is used.
@Suite struct AdminTokenInputTests {
    static func send(_ h: TeamHarness, _ method: String, _ path: String, _ token: String, _ body: String) async throws -> (status: Int, message: String, param: String?) {
        let r = try await AdminGatewayTests.send(h, method, path, token: token, body: body)
        let error = (try? JSONValue.parse(r.body))?["error"]
        return (r.status, AdminGatewayTests.message(r), error?["param"]?.stringValue)
    }

    @Test(arguments: ["1e-12", "5e2", "-0", "0.0000001", #""5""#])
    func aBudgetThatIsNotPlainDecimalDollarsIsA400(_ budget: String) async throws {
        let h = try TeamHarness()
        defer { Task { await h.stop() } }
        let admin = try h.server.services.tokens.create(name: "ops", admin: true).token
        let created = try await Self.send(h, "POST", "/admin/api/tokens", admin, #"{"name":"x","limits":{"budget_usd_per_day":\#(budget)}}"#)
        let updated = try await Self.send(h, "PUT", "/admin/api/tokens/team-app/limits", admin, #"{"limits":{"budget_usd_per_month":\#(budget)}}"#)
        #expect(created.status == 400 && created.param == "limits" && created.message.contains("limits.budget_usd_per_day"), "\(created)")
        #expect(updated.status == 400 && updated.message.contains("limits.budget_usd_per_month") && updated.message.contains(budget.hasPrefix("\"") ? "without quotes" : "like 5, 5.25 or 0.01"), "\(updated)")
        #expect(Set(try h.server.services.tokens.list().map(\.name)) == ["team-app", "ops"], "no token was made")
        #expect(try h.server.services.tokens.list().allSatisfy { $0.limits == TokenLimits() }, "no limit was changed")
    }

    @Test func aPlainDecimalBudgetIsShownAsItCanBeSentBack() async throws {
        let h = try TeamHarness()
        defer { Task { await h.stop() } }
        let admin = try h.server.services.tokens.create(name: "ops", admin: true).token
        let r = try await AdminGatewayTests.send(h, "PUT", "/admin/api/tokens/team-app/limits", token: admin, body: #"{"limits":{"budget_usd_per_day":0.000001}}"#)
        #expect(r.status == 200)
        #expect(String(decoding: r.body, as: UTF8.self).contains(#""limits":{"budget_usd_per_day":0.000001}"#), "not 1e-06: \(String(decoding: r.body, as: UTF8.self))")
    }

    /// The example the API gives when a `PUT .../limits` body is wrong, `null` clearing a limit, is itself taken.
    @Test func nullClearsALimit() async throws {
        let h = try TeamHarness(tokenLimits: TokenLimits(requestsPerMinute: 5, budgetUSDPerDay: 3))
        defer { Task { await h.stop() } }
        let admin = try h.server.services.tokens.create(name: "ops", admin: true).token
        let r = try await Self.send(h, "PUT", "/admin/api/tokens/team-app/limits", admin, #"{"limits":{"requests_per_minute":60,"budget_usd_per_day":null}}"#)
        #expect(r.status == 200, "\(r)")
        #expect(try h.server.services.tokens.list().first { $0.name == "team-app" }?.limits == TokenLimits(requestsPerMinute: 60))
    }

    @Test func aDefaultScenarioMustBeConfiguredAndIsUsed() async throws {
        let h = try TeamHarness()
        defer { Task { await h.stop() } }
        let admin = try h.server.services.tokens.create(name: "ops", admin: true).token
        let unknown = try await Self.send(h, "POST", "/admin/api/tokens", admin, #"{"name":"x","default_scenario":"nope"}"#)
        let outside = try await Self.send(h, "POST", "/admin/api/tokens", admin, #"{"name":"y","scenarios":["chat"],"default_scenario":"other"}"#)
        let made = try await AdminGatewayTests.send(h, "POST", "/admin/api/tokens", token: admin, body: #"{"name":"z","scenarios":["chat","other"],"default_scenario":"other"}"#)
        #expect(unknown.status == 400 && unknown.param == "default_scenario" && unknown.message.contains("configured: chat, other"), "\(unknown)")
        #expect(outside.status == 400 && outside.param == "default_scenario" && outside.message.contains("not among the token's allowed scenarios"), "\(outside)")
        #expect(made.status == 201)
        let token = try JSONValue.parse(made.body)["token"]?.stringValue ?? ""
        let chat = try await h.post("/v1/chat/completions", #"{"model":"light","messages":[{"role":"user","content":"Hello"}]}"#, token: token)
        #expect(chat.status == 200)
        #expect(try await h.ledgerRows().last?["scenario"] == "other")
    }
}
